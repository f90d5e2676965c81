/**
 * Upstream-layout replay (`--fixtures DIR`) over fixtures/upstream-sample, a tree in the layout of
 * the specification repository with our own content: every encoding is read (a delta may target a
 * Markdown-only profile), negative fixtures are mapped to IDs by an explicit ID first and keywords
 * otherwise, the fixture set is checked before the run (exit 2, one line, nothing written, never
 * counted against the harness), the reference passes every replayed case and certifies Level 3
 * with the replay in the run (every case of the suite passing), mutants fail the case of the rule
 * they break, and a harness without Markdown gets not-applicable for the Markdown cases.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import { createMutantAdapter } from '../../harnesses/mutants/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { fromRoot } from '../../spec/package-root.js';
import { allCases } from '../../suites/index.js';
import { requiredIdsUpTo } from '../../spec/requirements.js';
import { leadingComment } from '../../fixtures/upstream/layout.js';
import { clauseProblem } from '../../suites/index.js';
import { describeUpstream, loadUpstream, loadUpstreamCases } from '../../suites/upstream/index.js';
import { explicitIds, namedDeltaRule, namedProfileRule } from '../../fixtures/upstream/rules.js';
import { runCli } from '../support/cli.js';
import { runSuiteInProcess } from '../support/run-suite.js';

const SAMPLE = fromRoot('fixtures', 'upstream-sample');
const scratch = mkdtempSync(join(tmpdir(), 'oap-upstream-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the sample with `files` written over it (null removes a file). */
function variant(name: string, files: Record<string, string | null>): string {
  const dir = join(scratch, name);
  cpSync(SAMPLE, dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    const abs = join(dir, rel);
    if (text === null) rmSync(abs);
    else {
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    }
  }
  return dir;
}

function thrown(fn: () => unknown): { code: string | undefined; message: string } {
  try {
    fn();
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
  throw new Error('expected an error');
}

describe('reading the upstream layout', () => {
  it('builds one case per fixture in every encoding, with the IDs their comments name', () => {
    const r = loadUpstream(SAMPLE);
    expect(r.cases.map((c) => [c.id.slice('upstream/'.length), c.requirements.join(','), c.needs?.encodings?.join(',') ?? ''])).toEqual([
      ['examples/code-reviewer.agent.yaml', 'L1-P2', 'yaml'],
      ['examples/data-engineer.agent.json', 'L1-P1', 'json'],
      ['examples/release-notes.agent.md', 'L1-P1', 'md'],
      ['examples/strict-reviewer.agent.yaml', 'L1-P2,L3-E1', 'yaml'],
      ['examples/json/code-reviewer.agent.json', 'L1-P1', 'json'],
      ['examples/invalid/instructions-twice.agent.md', 'L3-G1', 'md'],
      ['examples/invalid/literal-secret.agent.yaml', 'L1-I6', 'yaml'],
      ['examples/invalid/major-version.agent.json', 'L1-P3', 'json'],
      ['examples/invalid/missing-description.agent.yaml', 'L1-P2', 'yaml'],
      ['examples/invalid/traversal.agent.yaml', 'L1-I5', 'yaml'],
      ['examples/invalid/unknown-kinds.agent.yaml', 'L1-P5', 'yaml'],
      ['tests/deltas/learned-conventions.delta.yaml', 'L2-A1', 'yaml'],
      // A valid delta targeting a profile defined only in Markdown.
      ['tests/deltas/release-cadence.delta.yaml', 'L2-A1', 'md'],
      ['tests/deltas/invalid/dot-segments.delta.yaml', 'L2-A2', 'yaml'],
      ['tests/deltas/invalid/reserved-move.delta.yaml', 'L2-A1', 'yaml'],
      ['tests/deltas/invalid/stale-revision.delta.yaml', 'L2-A3', 'yaml'],
      ['tests/deltas/invalid/writes-spec.delta.yaml', 'L2-A2', 'yaml'],
    ]);
    expect(r.cases.every((c) => c.origin === 'replay')).toBe(true);
    // Each names the clause it observes, of the IDs it proves (the literal secret sits in env; no pin is read for a skill).
    expect(r.cases.map(clauseProblem).filter(Boolean)).toEqual([]);
    expect(r.cases.find((c) => c.id.endsWith('literal-secret.agent.yaml'))!.clauses).toEqual(['L1-I6.env']);
    expect(r.cases.find((c) => c.id.endsWith('strict-reviewer.agent.yaml'))!.clauses).toEqual(['L1-P2.validate', 'L3-E1.resolve']);
    expect(r.counts).toEqual({
      examples: 4,
      'examples/json': 1,
      'examples/invalid': 6,
      'tests/deltas': 2,
      'tests/deltas/invalid': 4,
    });
    expect(r.skipped.map((s) => s.rel)).toEqual(['examples/README.md', 'tests/deltas/invalid/not-a-mapping.delta.yaml']);
    expect(r.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(describeUpstream(r)[0]).toMatch(
      /: 17 cases \(examples 4, examples\/json 1, examples\/invalid 6, tests\/deltas 2, tests\/deltas\/invalid 4\); digest sha256:/,
    );
  });

  it('the digest covers every file, skipped ones included', () => {
    const base = loadUpstream(SAMPLE).digest;
    expect(loadUpstream(variant('digest-readme', { 'examples/README.md': 'changed\n' })).digest).not.toBe(base);
    expect(loadUpstream(variant('digest-same', {})).digest).toBe(base);
  });

  it.each([
    ['# First line\n#  second\noap: "1.0"\n# not leading\n', 'yaml', 'First line  second'],
    ['---\n# In the frontmatter\noap: "1.0"\n---\nbody\n', 'md', 'In the frontmatter'],
    ['---\noap: "1.0"\n---\n<!-- violates L3-G1:\n twice -->\nbody\n', 'md', 'violates L3-G1: twice'],
    ['{"oap": "1.0"}', 'json', ''],
  ] as const)('leading comment of %j (%s)', (text, encoding, want) => expect(leadingComment(text, encoding)).toBe(want));

  it.each([
    // An explicit ID decides, whatever the words say.
    ['Violates L1-P5: a literal secret in env', '', ['L1-P5'], 'id'],
    ['violates L2-A2 and L1-P6', '', ['L2-A2', 'L1-P6'], 'id'],
    // Keywords otherwise: "kinds" is a kind.
    ['Reserved and unknown kinds are rejected', '', ['L1-P5'], 'keyword'],
    ['literal secret value in env', '', ['L1-I6'], 'keyword'],
    ['path traversal outside the workspace', '', ['L1-I5'], 'keyword'],
    ['', 'major-version.agent.json', ['L1-P3'], 'keyword'],
    ['metadata.description is required.', 'missing-description.agent.yaml', ['L1-P2'], 'default'],
  ])('profile rule of %j %s', (comment, file, ids, source) => {
    const r = namedProfileRule(comment, file);
    expect([r.requirements, r.source]).toEqual([ids, source]);
  });

  it.each([
    ['Violates L2-A2: writes spec', 'writes-spec.delta.yaml', ['L2-A2'], false],
    ['', 'writes-spec.delta.yaml', ['L2-A2'], false],
    ['An operation that writes the spec', 'x.delta.yaml', ['L2-A2'], false],
    ['The move operation is reserved', 'x.delta.yaml', ['L2-A1'], false],
    // Only a comment that names a revision conflict accepts `conflict`.
    ['target.revision is missing', 'x.delta.yaml', ['L2-A1'], false],
    ['revision must be an integer', 'x.delta.yaml', ['L2-A1'], false],
    ['A revision conflict: stale target', 'x.delta.yaml', ['L2-A3'], true],
    ['target.revision 3 against a profile at revision 4', 'x.delta.yaml', ['L2-A3'], true],
    ['violates L2-A3', 'x.delta.yaml', ['L2-A3'], true],
  ])('delta rule of %j %s', (comment, file, ids, conflict) => {
    const r = namedDeltaRule(comment, file);
    expect([r.requirements, r.conflict]).toEqual([ids, conflict]);
  });

  it('finds explicit IDs', () => expect(explicitIds('violates L1-P5, not L1-P55x or XL1-P5; see L2-A12')).toEqual(['L1-P5', 'L2-A12']));
});

describe('the fixture set is checked before the run', () => {
  it.each([
    ['a missing directory', () => join(scratch, 'nope'), 'fixtures.layout', /does not exist/],
    ['a directory of another layout', () => mkdtempSync(join(scratch, 'other-')), 'fixtures.layout', /not laid out like/],
    [
      'a JSON example that differs from its YAML twin',
      () =>
        variant('twin', {
          'examples/json/code-reviewer.agent.json': readFileSync(join(SAMPLE, 'examples/json/code-reviewer.agent.json'), 'utf8').replace(
            '"revision": 7',
            '"revision": 8',
          ),
        }),
      'fixtures.set',
      /examples\/json\/code-reviewer\.agent\.json and examples\/code-reviewer\.agent\.yaml must be the same logical document .* as oap-conform reads them they differ/,
    ],
    [
      'a valid delta naming no example',
      () => variant('orphan', { 'examples/release-notes.agent.md': null }),
      'fixtures.set',
      /release-cadence\.delta\.yaml names profile "release-notes", which no profile under examples\/ defines \(read: code-reviewer\.agent\.yaml, data-engineer\.agent\.json, strict-reviewer\.agent\.yaml\)/,
    ],
    [
      'a valid delta for another revision',
      () =>
        variant('revision', {
          'tests/deltas/release-cadence.delta.yaml': readFileSync(join(SAMPLE, 'tests/deltas/release-cadence.delta.yaml'), 'utf8').replace(
            'revision: 2',
            'revision: 1',
          ),
        }),
      'fixtures.set',
      /targets revision 1 of "release-notes", which examples\/release-notes\.agent\.md has at revision 2/,
    ],
    [
      'an example the oracle reads as invalid',
      () =>
        variant('invalid-example', {
          'examples/broken.agent.yaml': 'oap: "1.0"\nkind: AgentProfile\nmetadata: {name: broken}\nspec: {}\n',
        }),
      'fixtures.set',
      /oracle reads examples\/broken\.agent\.yaml, which examples\/ holds as valid, as invalid .* please report it/,
    ],
    [
      'a comment naming an ID the spec does not define',
      () => variant('unknown-id', { 'examples/invalid/odd.agent.yaml': '# Violates L1-Z9.\noap: "1.0"\n' }),
      'fixtures.set',
      /examples\/invalid\/odd\.agent\.yaml names L1-Z9 in its leading comment/,
    ],
  ])('%s: one line with its code', (_, dir, code, message) => {
    const e = thrown(() => loadUpstream(dir()));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('\n');
  });
});

describe('replaying fixtures/upstream-sample', () => {
  it('the reference passes every replayed case', async () => {
    const out = await runSuiteInProcess(() => createReferenceAdapter(), { level: 3, cases: loadUpstreamCases(SAMPLE) });
    expect(out.filter((o) => o.status !== 'pass').map((o) => `${o.status} ${o.id}: ${'message' in o ? o.message : ''}`)).toEqual([]);
    expect(out).toHaveLength(17);
    const secret = out.find((o) => o.id === 'upstream/examples/invalid/literal-secret.agent.yaml');
    expect((secret?.notes?.['named-rule'] as { matched?: boolean } | undefined)?.matched).toBe(true);
  });

  it.each([
    ['literal-secret-accepted', ['upstream/examples/invalid/literal-secret.agent.yaml']],
    ['context-path-unchecked', ['upstream/examples/invalid/traversal.agent.yaml']],
    ['md-both-instructions-accepted', ['upstream/examples/invalid/instructions-twice.agent.md']],
    ['accepts-unknown-kind', ['upstream/examples/invalid/unknown-kinds.agent.yaml']],
    [
      'ops-outside-state-applied',
      ['upstream/tests/deltas/invalid/dot-segments.delta.yaml', 'upstream/tests/deltas/invalid/writes-spec.delta.yaml'],
    ],
    ['blind-write-on-conflict', ['upstream/tests/deltas/invalid/stale-revision.delta.yaml']],
    ['json-claimed-not-accepted', ['upstream/examples/data-engineer.agent.json', 'upstream/examples/json/code-reviewer.agent.json']],
  ])('mutant %s fails exactly %j', async (mutant, ids) => {
    const out = await runSuiteInProcess(() => createMutantAdapter(mutant), { level: 3, cases: loadUpstreamCases(SAMPLE) });
    expect(out.filter((o) => o.status !== 'pass').map((o) => `${o.status} ${o.id}`)).toEqual(ids.map((id) => `fail ${id}`));
  });

  it('a harness without Markdown gets not-applicable for every Markdown case, after the probe', async () => {
    const noMarkdown = (): InProcessAdapter => {
      const ref = createReferenceAdapter();
      const refusal = { status: 'rejected', errors: [{ category: 'encoding', pointer: '', message: 'no Markdown here' }], warnings: [] };
      return {
        async handle(method, params) {
          const p = params as { document?: { encoding?: string; path?: string }; profile?: { path?: string }; profile_path?: string };
          const md = [p.document?.path, p.profile?.path, p.profile_path].some((x) => x?.endsWith('.md')) || p.document?.encoding === 'md';
          if (method === 'initialize') return { ...((await ref.handle(method, params)) as object), encodings: ['yaml', 'json'] };
          if (md && method === 'validate') return { valid: false, errors: refusal.errors, warnings: [] };
          if (md && method === 'instantiate') return refusal;
          if (md && method === 'apply_delta')
            return { outcome: 'rejected', revision: 1, errors: refusal.errors, warnings: [], proposals: [] };
          return ref.handle(method, params);
        },
      };
    };
    const out = await runSuiteInProcess(noMarkdown, { level: 3, cases: loadUpstreamCases(SAMPLE) });
    expect(out.filter((o) => o.status !== 'pass').map((o) => `${o.status} ${o.id}`)).toEqual([
      'not-applicable upstream/examples/release-notes.agent.md',
      'not-applicable upstream/examples/invalid/instructions-twice.agent.md',
      'not-applicable upstream/tests/deltas/release-cadence.delta.yaml',
    ]);
  });
});

describe('oap-conform run --fixtures DIR', () => {
  // The certification runs the built launcher with --jobs 2: from the build, workers are threads,
  // and each thread must replay the tree the main thread checked. The rest runs in this process.
  const spawnCli = (args: string[]) => spawnSync(process.execPath, [fromRoot('bin', 'oap-conform.js'), ...args], { encoding: 'utf8' });
  const cli = (args: string[]) => runCli(args);

  it('the reference certifies Level 3 with the replay in the run; the tree is recorded in report.json and result.json', async () => {
    const out = join(scratch, 'run-sample');
    const r = spawnCli([
      '--adapter',
      'builtin:reference',
      '--level',
      '3',
      '--fixtures',
      SAMPLE,
      '--fuzz',
      '0',
      '--jobs',
      '2',
      '--out',
      out,
      '--allow-dirty',
      '--quiet',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `oap-conform: upstream fixtures ${SAMPLE}: 17 cases (examples 4, examples/json 1, examples/invalid 6, tests/deltas 2, tests/deltas/invalid 4)`,
    );
    expect(r.stderr).toContain('oap-conform: upstream fixtures: skipped examples/README.md: not a profile');
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      header: { options: { fixtures_dir?: string; fixtures_digest?: string } };
      cases: Array<{ id: string; status: string; message?: string }>;
    };
    // The reference passes every case of the suite, process cases (crash, race, write path)
    // included: in `npm test` this run is where that is proved, through the engine as a user runs
    // it (tests/suites/level-{1,2,3}.test.ts judge the other adapters level by level).
    expect(report.cases.filter((c) => c.status !== 'pass').map((c) => `${c.status} ${c.id}: ${c.message}`)).toEqual([]);
    const statusOf = new Map(report.cases.map((c) => [c.id, c.status]));
    expect(
      allCases()
        .filter((c) => statusOf.get(c.id) !== 'pass')
        .map((c) => c.id),
    ).toEqual([]);
    const replayed = report.cases.filter((c) => c.id.startsWith('upstream/'));
    expect(replayed.map((c) => [c.id, c.status])).toEqual(
      loadUpstreamCases(SAMPLE)
        .map((c) => [c.id, 'pass'])
        .sort(),
    );
    const digest = loadUpstream(SAMPLE).digest;
    expect(report.header.options).toMatchObject({ fixtures_dir: SAMPLE, fixtures_digest: digest });
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { passed: string[]; failed: string[]; notes: string[] };
    expect(result.failed).toEqual([]);
    expect(requiredIdsUpTo(3).filter((id) => !result.passed.includes(id))).toEqual([]);
    expect(result.notes).toContain('claim:level 3 holds');
    expect(result.notes).toContain(`fixtures_digest:${digest}`);
    const verify = await cli(['verify', join(out, 'result.json'), '--report', join(out, 'report.json'), '--allow-dirty']);
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
  }, 180_000);

  it.each([
    ['a directory of another layout', () => mkdtempSync(join(scratch, 'plain-')), /^oap-conform: fixtures\.layout: /],
    [
      'an inconsistent fixture set',
      () => variant('cli-orphan', { 'examples/release-notes.agent.md': null }),
      /^oap-conform: fixtures\.set: /,
    ],
  ])(
    'refuses %s with one line, exit 2, before writing anything',
    async (_, dir, message) => {
      const out = join(scratch, `out-${Math.random().toString(36).slice(2)}`);
      const r = await cli(['--adapter', 'builtin:reference', '--fixtures', dir(), '--out', out, '--quiet']);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    },
    60_000,
  );
});
