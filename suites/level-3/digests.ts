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
import { isRefused } from '../../protocol/messages.js';
import { parseDocument, profileDigest, specDigest, validateDocument, isValid } from '../../spec/document/index.js';
import { expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { serializeDocument } from '../kit/workspace.js';
import { generateDigestDocs } from './lib/digest-docs.js';
import { requireDiscovered } from './lib/preconditions.js';
import { mustReject } from './lib/session.js';
import {
  briefIssues,
  instantiateName,
  minimalProfile,
  mustInstantiate,
  permissivePolicy,
  promptWithoutState,
  rejectionCause,
  requireObservable,
  writeProjectProfile,
} from '../support/index.js';

const DOC_COUNT = 50;

/**
 * What the `digest` operation answers for a document: its digests, or the refusal it gave (the
 * protocol's `{status: "rejected", errors}` outcome; a protocol error stays an error of the case).
 */
interface Digests {
  profile_digest: string;
  spec_digest: string;
}
type DigestAnswer = { digests: Digests } | { refused: string };

async function digestOf(ctx: CaseContext, text: string, encoding: 'json' | 'yaml'): Promise<DigestAnswer> {
  const got = await ctx.adapter.call('digest', { document: { content: text, encoding } });
  if (isRefused(got))
    return {
      refused: briefIssues(got.errors)
        .map((e) => `${e.category} at ${e.pointer || '/'}`)
        .join('; '),
    };
  return { digests: { profile_digest: got.profile_digest, spec_digest: got.spec_digest } };
}

/**
 * The digests of a valid document, judged through `digest` alone. When `digest` refuses it, the
 * adapter's `validate` is asked only to attribute that refusal: a harness that cannot read the
 * document at all (an encoding problem, L1-P1 / L3-G1, or a refusal of a valid document) leaves the
 * digest question open (`undefined`); one that reads it but cannot digest it has broken `digest`,
 * and the error stands.
 */
async function digestOfValid(ctx: CaseContext, text: string, encoding: 'json' | 'yaml'): Promise<Digests | undefined> {
  const answer = await digestOf(ctx, text, encoding);
  if ('digests' in answer) return answer.digests;
  const v = await ctx.adapter.call('validate', { document: { content: text, encoding } });
  if (!v.valid) return undefined;
  fail(`digest refused a valid ${encoding} document that validate accepts`, { digests: 'given' }, { digest: `refused: ${answer.refused}` });
}

/** The oracle's RFC 8785 digests of a document text (a suite bug when the oracle cannot read it). */
function oracleDigests(text: string, encoding: 'json' | 'yaml'): Digests {
  const parsed = parseDocument(text, encoding);
  if (!parsed.ok) throw new Error(`fixture bug: a digest document does not parse (${parsed.issues[0]?.code})`);
  return { profile_digest: profileDigest(parsed.value), spec_digest: specDigest(parsed.value) };
}

const differential: CaseDef = {
  id: 'L3-G2/digests-match-jcs-oracle',
  requirements: ['L3-G2'],
  clauses: ['L3-G2.profile-digest', 'L3-G2.spec-digest'],
  title: `Adapter profile and spec digests equal the oracle's JCS digests over ${DOC_COUNT} seeded awkward documents`,
  fixtures: ['l3-g2-generated'],
  origin: 'fuzz',
  expectation: { mismatches: 0 },
  async run(ctx) {
    const docs = generateDigestDocs(ctx.seed, DOC_COUNT);
    ctx.note('seed', ctx.seed);
    const mismatches: unknown[] = [];
    const unread: number[] = [];
    for (const [i, d] of docs.entries()) {
      const parsed = parseDocument(d.text, d.encoding);
      if (!parsed.ok) throw new Error(`generator bug: document ${i} does not parse (${parsed.issues[0]?.code})`);
      const report = validateDocument(parsed.value);
      if (!isValid(report.issues))
        throw new Error(
          `generator bug: document ${i} is invalid (${report.issues.find((x) => x.severity === 'error')?.code} at ${report.issues[0]?.pointer})`,
        );
      const expected = { profile_digest: profileDigest(parsed.value), spec_digest: specDigest(parsed.value) };
      const got = await digestOfValid(ctx, d.text, d.encoding);
      if (got === undefined) {
        unread.push(i);
        continue;
      }
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
    requireObservable(
      unread.length === 0,
      `digest refused ${unread.length} of ${DOC_COUNT} valid documents that validate refuses too, so their digests cannot be judged`,
      `the adapter does not read valid ${[...new Set(unread.map((i) => docs[i]!.encoding))].join(' and ')} documents (documents ${unread.slice(0, 5).join(', ')})`,
    );
  },
};

// ------------------------------------------------------------------ one RFC 8785 rule at a time (issue 14)

/** JSON text with its members in the order given (keys and strings JSON-escaped, numbers as written). */
type Raw = string | { num: string } | Raw[] | { obj: Array<[string, Raw]> };
function emit(v: Raw): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(emit).join(', ')}]`;
  if ('num' in v) return v.num;
  return `{${v.obj.map(([k, x]) => `${JSON.stringify(k)}: ${emit(x)}`).join(', ')}}`;
}

/** A valid profile whose `metadata` extras and `tools.bindings[0].config` carry what a case needs, members written last-to-first. */
function digestDoc(name: string, metadata: Array<[string, Raw]>, config: Array<[string, Raw]>): string {
  return emit({
    obj: [
      [
        'spec',
        {
          obj: [
            [
              'tools',
              {
                obj: [
                  [
                    'bindings',
                    [
                      {
                        obj: [
                          ['config', { obj: config }],
                          ['name', 'read'],
                        ],
                      },
                    ],
                  ],
                ],
              },
            ],
            ['role', { obj: [['instructions', `You are ${name}.`]] }],
          ],
        },
      ],
      ['metadata', { obj: [...metadata, ['description', `Digest rule document ${name}.`], ['name', name]] }],
      ['kind', 'AgentProfile'],
      ['oap', '1.0'],
    ],
  });
}

interface RuleCase {
  slug: string;
  title: string;
  text: string;
}

const RULES: RuleCase[] = [
  {
    slug: 'digest-keys-in-utf16-order',
    title:
      'Members written in reverse order, and keys whose UTF-16 order differs from code-point order (U+1F600 before U+FB01), digest as RFC 8785 sorts them',
    text: digestDoc(
      'g2-keys',
      [
        [
          'annotations',
          {
            obj: [
              ['x.example/\uFB01', 'ligature'],
              ['x.example/\u{1F600}', 'emoji'],
              ['x.example/Z', 'upper'],
            ],
          },
        ],
      ],
      [
        ['zeta', { num: '1' }],
        ['\uFB01', 'ligature'],
        ['\u{1F600}', 'emoji'],
        ['alpha', { num: '2' }],
        ['Alpha', { num: '3' }],
      ],
    ),
  },
  {
    slug: 'digest-numbers-in-ecmascript-form',
    title: 'Numbers written 1.0, 1e16, 1E+20, 1e21, 0.00002, 1.5e-7 and -0 digest in their ECMAScript form (RFC 8785 3.2.2.3)',
    text: digestDoc(
      'g2-numbers',
      [],
      [
        ['one', { num: '1.0' }],
        ['e16', { num: '1e16' }],
        ['e20', { num: '1E+20' }],
        ['e21', { num: '1e21' }],
        ['small', { num: '0.00002' }],
        ['tiny', { num: '1.5e-7' }],
        ['zero', { num: '-0' }],
      ],
    ),
  },
  {
    slug: 'digest-non-ascii-as-utf8',
    title: 'Non-ASCII keys and strings (é, ß, 世界, an emoji) digest as their UTF-8 bytes, never as \\u escapes',
    text: digestDoc(
      'g2-unicode',
      [
        [
          'annotations',
          {
            obj: [
              ['x.example/größe', 'Café → 世界 🎉'],
              ['x.example/plain', 'ascii'],
            ],
          },
        ],
      ],
      [
        ['naïve', 'résumé'],
        ['emoji', '🚀 launch'],
      ],
    ),
  },
  {
    slug: 'spec-digest-excludes-revision-updated-at-trust',
    title: 'The digest operation leaves metadata.revision, updated_at and trust out of the spec digest (SPEC 2.2)',
    text: digestDoc(
      'g2-owned',
      [
        ['trust', 'managed'],
        ['updated_at', '2026-01-02T03:04:05Z'],
        ['revision', { num: '7' }],
      ],
      [['limit', { num: '3' }]],
    ),
  },
];

function ruleCase(r: RuleCase): CaseDef {
  const expected = oracleDigests(r.text, 'json');
  return {
    id: `L3-G2/${r.slug}`,
    requirements: ['L3-G2'],
    clauses: ['L3-G2.profile-digest', 'L3-G2.spec-digest'],
    title: r.title,
    expectation: expected,
    async run(ctx) {
      const got = await digestOfValid(ctx, r.text, 'json');
      requireObservable(
        got !== undefined,
        'digest and validate both refuse the valid JSON document, so its digests cannot be judged',
        'the adapter does not read a valid JSON document',
      );
      if (!isDeepStrictEqual(got, expected)) fail(`${r.title}: the digests differ from RFC 8785's`, expected, { ...got, document: r.text });
    },
  };
}

const nonFiniteDigest: CaseDef = {
  id: 'L3-G2/digest-refuses-non-finite',
  requirements: ['L3-G2'],
  clauses: ['L3-G2.profile-digest'],
  title: 'The digest operation gives no digest for a document holding a number JCS cannot represent (1e400 in JSON, .inf in YAML)',
  fixtures: ['l3-g2-non-finite'],
  expectation: { digest: 'refused' },
  async run(ctx) {
    const refusals: Record<string, string> = {};
    for (const d of NON_FINITE) {
      const control = await digestOfValid(ctx, d.control, d.encoding);
      requireObservable(
        control !== undefined,
        `digest and validate both refuse the finite ${d.encoding} control document`,
        `the adapter does not read a valid ${d.encoding} document`,
      );
      const answer = await digestOf(ctx, d.text, d.encoding);
      if ('digests' in answer)
        fail(
          `${d.encoding}: a document holding a non-finite number was digested (SPEC 2.2: "MUST reject values JCS cannot represent")`,
          {
            digest: 'refused',
          },
          { digests: answer.digests },
        );
      refusals[d.encoding] = answer.refused;
    }
    ctx.note('refusals', refusals);
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
  clauses: ['L3-G2.profile-digest'],
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
  clauses: ['L3-G2.pin-extends'],
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
        // A refusal that is not the pin's (the child could not be read at all) goes through the refusal rule.
        if (!out.errors.some((e) => e.category === 'digest-mismatch')) mustInstantiate(out, `${name}: a pinned child`);
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
  clauses: ['L3-G2.pin-extends'],
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

export const digestCases: CaseDef[] = [differential, nonFinite, pinHonoured, pinMismatch, ...RULES.map(ruleCase), nonFiniteDigest];
