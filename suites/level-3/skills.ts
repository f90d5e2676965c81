/**
 * L3-K1: spec.tools.skills. Present skills are reported present, absent ones missing (and
 * instantiation goes on), a digest pin is verified against the installed skill's digest, and loading
 * never installs anything.
 *
 * Not here: a `required: true` skill that is missing must fail instantiation; that is L1-I7 (the
 * Level 1 suite proves it), so a harness broken only there fails L1-I7, not L3-K1. A pin is judged
 * twice over, one decision each: L3-K1 `verify-digest` is whether a pin that does not match is
 * caught (content other than the pinned is never used); L3-G2 `pin-skills` is whether a skill can
 * be pinned at all (a matching pin keeps a skill usable that is usable unpinned). The matching pin
 * is G2's case alone, so a harness that cannot pin skills (`skill-pins-unsupported`) fails L3-G2
 * and not L3-K1, and one that accepts any pin (`skill-digest-unverified`) fails L3-K1 and not L3-G2
 * (see INTERPRETATIONS.md).
 *
 * Besides the statuses each case expects, the session's whole answer is judged against the spec
 * model's prediction (spec/semantics/contract.ts): a skill reported present that is not installed
 * with its pinned content fails L3-K1; a widening elsewhere is another requirement's.
 */
import { createHash } from 'node:crypto';
import type { HarnessPolicyT, InstantiatedT } from '../../protocol/messages.js';
import { contractFindings, predictContract } from '../../spec/semantics/index.js';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { diffSnapshots } from '../kit/workspace.js';
import { requireDiscovered } from './lib/preconditions.js';
import { mustReject } from './lib/session.js';
import {
  briefIssues,
  expectContract,
  instantiateName,
  minimalProfile,
  mustInstantiate,
  permissivePolicy,
  requireObservable,
  requireSession,
  writeProjectProfile,
} from '../support/index.js';

const sha = (s: string): string => `sha256:${createHash('sha256').update(s).digest('hex')}`;

/** Digests of the content of two installed skills, and of content that is installed nowhere. */
const CHANGELOG_DIGEST = sha('oap-conform fixture skill: changelog-style v3');
const SQL_DIGEST = sha('oap-conform fixture skill: sql-review v1');
const OTHER_DIGEST = sha('oap-conform fixture skill: changelog-style v2 (not installed)');

function skillsPolicy(): HarnessPolicyT {
  return permissivePolicy({
    skills: [
      { name: 'changelog-style', digest: CHANGELOG_DIGEST },
      { name: 'sql-review', digest: SQL_DIGEST },
    ],
  });
}

async function writeSkillsProfile(ctx: CaseContext, name: string, skills: unknown[]): Promise<Record<string, unknown>> {
  const spec = { tools: { allow: ['read'], skills } };
  writeProjectProfile(ctx, minimalProfile(name, spec));
  await requireDiscovered(ctx, [name]);
  return spec;
}

/** The L3-K1 verdict on a session's whole answer, naming the skills first. */
function expectSkills(ctx: CaseContext, spec: Record<string, unknown>, policy: HarnessPolicyT, s: InstantiatedT): void {
  const prediction = predictContract({ spec, policy, trust: 'project' });
  expectContract(ctx, contractFindings(s.effective, prediction), { requirements: ['L3-K1'], dimensions: ['/skills'], what: 'skills' });
}

const presentAndMissing: CaseDef = {
  id: 'L3-K1/present-and-missing-reported',
  requirements: ['L3-K1'],
  clauses: ['L3-K1.support'],
  title: 'An installed skill is present, an uninstalled optional one is reported missing and the session still starts',
  fixtures: ['l3-k1-present-missing'],
  expectation: {
    skills: [
      { name: 'changelog-style', status: 'present' },
      { name: 'release-train', status: 'missing' },
    ],
  },
  async run(ctx) {
    const spec = await writeSkillsProfile(ctx, 'k1-mixed', [
      { name: 'changelog-style' },
      { name: 'release-train', source: 'https://skills.example.com/release-train' },
    ]);
    const s = requireSession(await instantiateName(ctx, 'k1-mixed', skillsPolicy()), 'profile with one installed and one missing skill');
    const got = [...s.effective.skills].sort((a, b) => a.name.localeCompare(b.name));
    expectEqual(
      got,
      [
        { name: 'changelog-style', status: 'present' },
        { name: 'release-train', status: 'missing' },
      ],
      'effective skills',
    );
    expectSkills(ctx, spec, skillsPolicy(), s);
  },
};

const pinMismatchRequired: CaseDef = {
  id: 'L3-K1/digest-pin-mismatch-required',
  requirements: ['L3-K1'],
  clauses: ['L3-K1.verify-digest'],
  title: 'A required skill pinned to content other than what is installed fails instantiation (digest-mismatch)',
  fixtures: ['l3-k1-pin-mismatch-required'],
  expectation: { outcome: 'rejected', category: 'digest-mismatch' },
  async run(ctx) {
    await writeSkillsProfile(ctx, 'k1-pin-bad', [{ name: 'changelog-style', digest: OTHER_DIGEST, required: true }]);
    const r = mustReject(
      await instantiateName(ctx, 'k1-pin-bad', skillsPolicy()),
      'digest-mismatch',
      'required skill with a mismatching pin',
    );
    ctx.note('errors', briefIssues(r.errors));
  },
};

const pinMismatchOptional: CaseDef = {
  id: 'L3-K1/digest-pin-mismatch-never-present',
  requirements: ['L3-K1'],
  clauses: ['L3-K1.verify-digest'],
  title: 'An optional skill whose pin does not match is never treated as present (rejection with digest-mismatch also accepted)',
  fixtures: ['l3-k1-pin-mismatch-optional'],
  expectation: {
    one_of: [
      { outcome: 'rejected', category: 'digest-mismatch' },
      { outcome: 'instantiated', skills: [{ name: 'changelog-style', status: 'missing' }] },
    ],
  },
  async run(ctx) {
    const spec = await writeSkillsProfile(ctx, 'k1-pin-opt', [{ name: 'changelog-style', digest: OTHER_DIGEST }]);
    const out = await instantiateName(ctx, 'k1-pin-opt', skillsPolicy());
    if (out.status === 'rejected') {
      mustReject(out, 'digest-mismatch', 'optional skill with a mismatching pin');
      return;
    }
    expectEqual(out.effective.skills, [{ name: 'changelog-style', status: 'missing' }], 'a skill whose pinned content is not installed');
    expectSkills(ctx, spec, skillsPolicy(), out);
  },
};

const noInstall: CaseDef = {
  id: 'L3-K1/loading-installs-nothing',
  requirements: ['L3-K1'],
  clauses: ['L3-K1.no-install'],
  title: 'Loading a profile whose skills are missing (one vendored in the workspace, one remote) installs neither',
  fixtures: ['l3-k1-no-install'],
  expectation: { created_or_changed_paths_naming_the_skills: [], skills_after_second_load: 'missing' },
  async run(ctx) {
    const ws = ctx.workspace;
    // A complete skill package sits in the workspace; an installing harness would copy it somewhere.
    ws.writeFile(
      'workspace/vendor/skills/k1-vendored-skill/SKILL.md',
      '---\nname: k1-vendored-skill\ndescription: fixture skill\n---\nMarker K1-VENDORED-SKILL-BODY\n',
    );
    const spec = await writeSkillsProfile(ctx, 'k1-no-install', [
      { name: 'k1-vendored-skill', source: './vendor/skills/k1-vendored-skill' },
      { name: 'k1-remote-skill', source: 'https://skills.example.com/k1-remote-skill.zip' },
    ]);
    const policy = permissivePolicy();
    const before = ws.snapshot();
    const first = requireSession(await instantiateName(ctx, 'k1-no-install', policy), 'profile with missing skills');
    const second = requireSession(await instantiateName(ctx, 'k1-no-install', policy), 'the same profile, loaded again');
    const diff = diffSnapshots(before, ws.snapshot());
    ctx.note('filesystem_diff', diff);
    // Only evidence of an install is judged here; any other file creation is L1-I11's verdict.
    const touched = [...diff.created, ...diff.changed].filter((p) => /k1-(vendored|remote)-skill/i.test(p) || /(^|\/)SKILL\.md$/i.test(p));
    if (touched.length > 0) fail('loading the profile created or changed skill files', [], touched);
    for (const s of [first, second]) {
      const statuses = [...s.effective.skills].sort((a, b) => a.name.localeCompare(b.name));
      expectEqual(
        statuses,
        [
          { name: 'k1-remote-skill', status: 'missing' },
          { name: 'k1-vendored-skill', status: 'missing' },
        ],
        'skills stay missing across loads',
      );
      expectSkills(ctx, spec, policy, s);
    }
    expectTrue(
      diff.removed.length === 0 || !diff.removed.some((p) => p.includes('k1-vendored-skill')),
      'the vendored skill package was moved away',
      { observed: diff.removed },
    );
  },
};

const pinSupported: CaseDef = {
  id: 'L3-G2/skills-pin-by-digest-honoured',
  requirements: ['L3-G2'],
  clauses: ['L3-G2.pin-skills'],
  title:
    'A required skill pinned by the digest of its installed content is used, as it is unpinned: pinning by digest in skills is supported',
  expectation: {
    control_unpinned: 'present',
    pinned: { outcome: 'instantiated', skills: [{ name: 'changelog-style', status: 'present' }] },
  },
  async run(ctx) {
    // Control: the skill unpinned. A harness that does not find it cannot show what a pin does
    // (L3-K1 `support` and L1-I7 judge that).
    await writeSkillsProfile(ctx, 'g2-skill-unpinned', [{ name: 'changelog-style', required: true }]);
    const control = requireSession(
      await instantiateName(ctx, 'g2-skill-unpinned', skillsPolicy(), { role: 'control' }),
      'the same skill, unpinned',
    );
    requireObservable(
      control.effective.skills.some((x) => x.name === 'changelog-style' && x.status === 'present'),
      'the installed skill is not present even unpinned, so what a pin changes cannot be observed',
      'installed skill changelog-style reported missing',
    );
    await writeSkillsProfile(ctx, 'g2-skill-pinned', [{ name: 'changelog-style', digest: CHANGELOG_DIGEST, required: true }]);
    const pinned = mustInstantiate(
      await instantiateName(ctx, 'g2-skill-pinned', skillsPolicy()),
      'a required skill pinned by the digest of its installed content',
    );
    expectEqual(pinned.effective.skills, [{ name: 'changelog-style', status: 'present' }], 'effective skills with the pin');
  },
};

export const skillCases: CaseDef[] = [presentAndMissing, pinMismatchRequired, pinMismatchOptional, noInstall, pinSupported];
