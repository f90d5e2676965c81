/**
 * L3-G2: profile and spec digests (SPEC 2.2) computed by the adapter equal the oracle's RFC 8785
 * digests over many generated documents; values JCS cannot represent are rejected; `extends`
 * pins by digest are enforced.
 *
 * Pin reading (INTERPRETATIONS.md): SPEC 2.2 says the spec digest is what pinning SHOULD use, so a
 * harness may also accept a profile-digest pin. The suite pins a base that has state (so its two
 * digests differ) both ways and requires at least one to be honoured; a pin matching neither digest
 * must be rejected with digest-mismatch. Skill pins are judged under L3-K1.
 */
import { isDeepStrictEqual } from 'node:util';
import { isRefused } from '../../adapters/protocol/messages.js';
import { parseDocument, profileDigest, specDigest, validateDocument, isValid } from '../../spec/document/index.js';
import { expectTrue, fail } from '../framework/assert.js';
import type { CaseContext, CaseDef } from '../framework/types.js';
import { serializeDocument } from '../framework/workspace.js';
import { generateDigestDocs } from './lib/digest-docs.js';
import { requireDiscovered } from './lib/preconditions.js';
import { mustReject } from './lib/session.js';
import {
  briefIssues,
  instantiateName,
  minimalProfile,
  permissivePolicy,
  promptWithoutState,
  rejectionCause,
  requireObservable,
  writeProjectProfile,
} from '../support/index.js';

const DOC_COUNT = 50;

const differential: CaseDef = {
  id: 'L3-G2/digests-match-jcs-oracle',
  requirements: ['L3-G2'],
  title: `Adapter profile and spec digests equal the oracle's JCS digests over ${DOC_COUNT} seeded awkward documents`,
  fixtures: ['l3-g2-generated'],
  origin: 'fuzz',
  expectation: { mismatches: 0 },
  async run(ctx) {
    const docs = generateDigestDocs(ctx.seed, DOC_COUNT);
    ctx.note('seed', ctx.seed);
    // An encoding the adapter cannot read at all is L1-P1's / L3-G1's finding, not a digest one.
    for (const encoding of new Set(docs.map((d) => d.encoding))) {
      const sample = docs.find((d) => d.encoding === encoding)!;
      const v = await ctx.adapter.call('validate', { document: { content: sample.text, encoding } });
      requireObservable(
        v.valid,
        `the adapter does not accept a valid ${encoding} document, so its ${encoding} digests cannot be judged`,
        rejectionCause(`valid ${encoding} document`, v.errors),
      );
    }
    const mismatches: unknown[] = [];
    for (const [i, d] of docs.entries()) {
      const parsed = parseDocument(d.text, d.encoding);
      if (!parsed.ok) throw new Error(`generator bug: document ${i} does not parse (${parsed.issues[0]?.code})`);
      const report = validateDocument(parsed.value);
      if (!isValid(report.issues))
        throw new Error(
          `generator bug: document ${i} is invalid (${report.issues.find((x) => x.severity === 'error')?.code} at ${report.issues[0]?.pointer})`,
        );
      const expected = { profile_digest: profileDigest(parsed.value), spec_digest: specDigest(parsed.value) };
      const answer = await ctx.adapter.call('digest', { document: { content: d.text, encoding: d.encoding } });
      // The document is valid (checked above): refusing to digest it is this ID's finding.
      const got = isRefused(answer) ? { refused: briefIssues(answer.errors) } : answer;
      if (!isDeepStrictEqual(got, expected)) {
        mismatches.push({
          index: i,
          encoding: d.encoding,
          expected,
          observed: got,
          document: d.text.length > 2000 ? `${d.text.slice(0, 2000)}…` : d.text,
        });
      }
    }
    if (mismatches.length > 0) {
      ctx.note('mismatches', mismatches.slice(0, 5));
      fail(`${mismatches.length} of ${DOC_COUNT} documents digest differently from RFC 8785 (seed ${ctx.seed})`, 0, mismatches[0]);
    }
  },
};

/** Each non-finite document comes with a finite control that differs only in that number. */
const NON_FINITE: Array<{ encoding: 'json' | 'yaml'; control: string; text: string }> = (() => {
  const doc = (name: string) => minimalProfile(name, { tools: { allow: ['read'], bindings: [{ name: 'read', config: { limit: 0 } }] } });
  const json = JSON.stringify(doc('g2-huge'));
  const yaml = serializeDocument(doc('g2-inf'), 'yaml');
  return [
    { encoding: 'json', control: json, text: json.replace('"limit":0', '"limit":1e400') },
    { encoding: 'yaml', control: yaml, text: yaml.replace('limit: 0', 'limit: .inf') },
  ];
})();

const nonFinite: CaseDef = {
  id: 'L3-G2/non-finite-number-rejected',
  requirements: ['L3-G2'],
  title: 'A number JCS cannot represent (1e400 in JSON, .inf in YAML) makes the document invalid (non-finite)',
  fixtures: ['l3-g2-non-finite'],
  expectation: { valid: false, category: 'non-finite' },
  async run(ctx) {
    for (const d of NON_FINITE) {
      // Suite self-check: the oracle sees the non-finite value too.
      const p = parseDocument(d.text, d.encoding);
      const oracleSees = !p.ok
        ? p.issues.some((x) => x.code.startsWith('non-finite'))
        : validateDocument(p.value).issues.some((x) => x.code.startsWith('non-finite'));
      if (!oracleSees) throw new Error(`fixture bug: the oracle does not flag the ${d.encoding} non-finite document`);
      // The finite twin must validate, or the encoding itself is the problem (L1-P1 / L3-G1).
      const control = await ctx.adapter.call('validate', { document: { content: d.control, encoding: d.encoding } });
      requireObservable(
        control.valid,
        `the adapter does not accept the finite ${d.encoding} control document`,
        rejectionCause(`finite ${d.encoding} control document`, control.errors),
      );
      const r = await ctx.adapter.call('validate', { document: { content: d.text, encoding: d.encoding } });
      expectTrue(
        !r.valid && r.errors.some((e) => e.category === 'non-finite'),
        `${d.encoding}: a non-finite number is not rejected as non-finite`,
        {
          expected: { valid: false, category: 'non-finite' },
          observed: { valid: r.valid, errors: briefIssues(r.errors) },
        },
      );
    }
  },
};

// ------------------------------------------------------------------ pins in extends

const BASE = minimalProfile(
  'g2-pinned-base',
  { role: { objectives: ['Marker G2-BASE-OBJECTIVE'] } },
  {
    state: { summary: 'Base state makes the profile digest differ from the spec digest.', facts: [{ id: 'f1', text: 'A learned fact.' }] },
  },
);

/** Write the base and return the digests of exactly what the adapter will read. */
function writeBase(ctx: CaseContext, doc: Record<string, unknown>): { profile: string; spec: string } {
  const text = serializeDocument(doc, 'yaml');
  ctx.workspace.writeFile(`${ctx.workspace.projectAgents}/g2-pinned-base.agent.yaml`, text);
  const p = parseDocument(text, 'yaml');
  if (!p.ok) throw new Error('fixture bug: base does not parse');
  return { profile: profileDigest(p.value), spec: specDigest(p.value) };
}

function writeChild(ctx: CaseContext, name: string, digest: string): void {
  const doc = minimalProfile(name, {}, { extends: [{ name: 'g2-pinned-base', digest }] });
  writeProjectProfile(ctx, doc);
}

const pinHonoured: CaseDef = {
  id: 'L3-G2/extends-pin-matching-digest-honoured',
  requirements: ['L3-G2'],
  title: 'A base pinned by its digest (spec digest, or profile digest where the harness uses that) is merged',
  fixtures: ['l3-g2-pin-match'],
  expectation: {
    at_least_one_of: ['spec-digest pin instantiates', 'profile-digest pin instantiates'],
    other: 'rejected with digest-mismatch if not honoured',
  },
  async run(ctx) {
    const d = writeBase(ctx, BASE);
    writeChild(ctx, 'g2-pin-spec', d.spec);
    writeChild(ctx, 'g2-pin-profile', d.profile);
    await requireDiscovered(ctx, ['g2-pinned-base', 'g2-pin-spec', 'g2-pin-profile']);
    const policy = permissivePolicy();
    const results: Record<string, string> = {};
    for (const name of ['g2-pin-spec', 'g2-pin-profile']) {
      const out = await instantiateName(ctx, name, policy);
      if (out.status === 'instantiated') {
        expectTrue(promptWithoutState(out).includes('G2-BASE-OBJECTIVE'), `${name}: pinned base was not merged`, {
          observed: promptWithoutState(out),
        });
        results[name] = 'honoured';
      } else {
        mustReject(out, 'digest-mismatch', `${name}: a pin the harness does not honour`);
        results[name] = 'digest-mismatch';
      }
    }
    ctx.note('pins', results);
    expectTrue(
      Object.values(results).includes('honoured'),
      'neither the spec digest nor the profile digest of the base is accepted as a pin',
      { observed: results },
    );
  },
};

const pinMismatch: CaseDef = {
  id: 'L3-G2/extends-pin-mismatch-rejected',
  requirements: ['L3-G2'],
  title: 'A base pinned to the digests of an earlier edit of itself is rejected (digest-mismatch)',
  fixtures: ['l3-g2-pin-mismatch'],
  expectation: { outcome: 'rejected', category: 'digest-mismatch' },
  async run(ctx) {
    // The pins were taken from a version of the base whose description differed.
    const earlier = structuredClone(BASE) as { metadata: { description: string } };
    earlier.metadata.description = 'An earlier description of the pinned base.';
    const old = writeBase(ctx, earlier as unknown as Record<string, unknown>);
    writeBase(ctx, BASE);
    writeChild(ctx, 'g2-stale-spec', old.spec);
    writeChild(ctx, 'g2-stale-profile', old.profile);
    await requireDiscovered(ctx, ['g2-pinned-base', 'g2-stale-spec', 'g2-stale-profile']);
    const policy = permissivePolicy();
    for (const name of ['g2-stale-spec', 'g2-stale-profile']) {
      const r = mustReject(await instantiateName(ctx, name, policy), 'digest-mismatch', `${name}: pin to content that changed`);
      ctx.note(name, briefIssues(r.errors));
    }
  },
};

export const digestCases: CaseDef[] = [differential, nonFinite, pinHonoured, pinMismatch];
