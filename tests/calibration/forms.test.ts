/**
 * The pieces of calibration and the refusal rule, one table each: filling optional metadata,
 * rewriting appends and pinning deltas in a case scope (and not for a case about that aspect), the
 * order calibration tries forms in, which ID judges a refusal and what the rule makes of it, and
 * the inconclusive summary's grouping.
 */
import { describe, expect, it } from 'vitest';
import type { Accommodation } from '../../suites/kit/accommodations.js';
import { accommodationsFor } from '../../suites/kit/accommodations.js';
import { accommodateDelta, accommodateDocument, fillOptionalMetadata, type DeltaTarget } from '../../suites/kit/forms.js';
import { withCaseScope } from '../../suites/kit/scope.js';
import { CaseInconclusive, CheckFailure } from '../../suites/kit/errors.js';
import { formsInOrder } from '../../suites/calibration/calibrate.js';
import { deltaRefusalCause, judgeRefusal, refusalOwner, rejectionCause } from '../../suites/support/refusal.js';
import { inconclusiveSentence, inconclusiveSummary } from '../../results/inconclusive.js';
import type { CaseRecord } from '../../results/model.js';
import type { AdapterIssueT } from '../../protocol/messages.js';

const profile = (metadata: Record<string, unknown>) => ({
  oap: '1.0',
  kind: 'AgentProfile',
  metadata,
  spec: { role: { instructions: 'x' } },
});

function inScope<T>(
  accommodations: Accommodation[],
  body: () => T,
  requirements: string[] = [],
): { value: T; used: Accommodation[]; inputs: string[] } {
  const used: Accommodation[] = [];
  const inputs: string[] = [];
  const value = withCaseScope({ requirements, accommodations, used: (a) => used.push(a), input: (name) => inputs.push(name) }, body);
  return { value, used, inputs };
}

describe('optional metadata', () => {
  it.each([
    ['absent revision filled with its default, 1', { name: 'a' }, ['metadata-revision'], { name: 'a', revision: 1 }],
    ['a revision given is kept', { name: 'a', revision: 7 }, ['metadata-revision'], { name: 'a', revision: 7 }],
    ['updated_at filled', { name: 'a' }, ['metadata-updated-at'], { name: 'a', updated_at: '2030-01-01T00:00:00Z' }],
    ['nothing to accommodate', { name: 'a' }, [], { name: 'a' }],
  ] as const)('%s', (_, metadata, accommodations, expected) => {
    expect((fillOptionalMetadata(profile(metadata), accommodations).doc as { metadata: unknown }).metadata).toEqual(expected);
  });

  it('leaves a document of another kind alone, and fills nothing outside a case scope', () => {
    const delta = { oap: '1.0', kind: 'AgentStateDelta', metadata: {} };
    expect(fillOptionalMetadata(delta, ['metadata-revision']).doc).toBe(delta);
    const doc = profile({ name: 'a' });
    expect(accommodateDocument(doc)).toBe(doc);
    const { value, used } = inScope(['metadata-revision'], () => accommodateDocument(doc));
    expect((value as { metadata: unknown }).metadata).toEqual({ name: 'a', revision: 1 });
    expect(used).toEqual(['metadata-revision']);
  });

  it('a case about an aspect keeps it plain', () => {
    expect(accommodationsFor(['metadata-revision', 'append-by-index', 'pin-profile-digest'], ['optional-metadata', 'pin'])).toEqual([
      'append-by-index',
    ]);
  });
});

describe('deltas at the apply_delta boundary', () => {
  const onDisk = (revision: number | undefined, facts: number): DeltaTarget => ({
    doc: {
      metadata: { name: 'p', ...(revision === undefined ? {} : { revision }) },
      state: { facts: Array.from({ length: facts }, (_, i) => ({ id: `f${i}`, text: 't' })) },
    },
    profileDigest: () => 'sha256:profile',
    specDigest: () => 'sha256:spec',
  });
  const add = (id: string, collection = 'facts') => ({ op: 'add', path: `/state/${collection}/-`, value: { id, text: id } });
  const delta = (operations: unknown[], target: Record<string, unknown> = { name: 'p', revision: 1 }) => ({ target, operations });
  const paths = (d: Record<string, unknown>) => (d['operations'] as { path: string }[]).map((o) => o.path);

  it('appends at the next index, following adds and removes op by op', () => {
    const { value, used, inputs } = inScope(['append-by-index'], () =>
      accommodateDelta(
        delta([
          add('a'),
          { op: 'remove', path: '/state/facts/0' },
          add('b'),
          add('p', 'preferences'),
          { op: 'remove', path: '/state/facts/id:f1' },
          add('c'),
        ]),
        () => onDisk(1, 2),
      ),
    );
    expect(paths(value)).toEqual([
      '/state/facts/2',
      '/state/facts/0',
      '/state/facts/2',
      '/state/preferences/0',
      '/state/facts/id:f1',
      '/state/facts/2',
    ]);
    expect(used).toEqual(['append-by-index']);
    expect(inputs).toEqual(['delta as sent']);
  });

  it('appends at id:<the entry id>, and a whole collection replaced resets the count', () => {
    const { value } = inScope(['append-by-id'], () => accommodateDelta(delta([add('a')]), () => onDisk(1, 2)));
    expect(paths(value)).toEqual(['/state/facts/id:a']);
    const { value: replaced } = inScope(['append-by-index'], () =>
      accommodateDelta(delta([{ op: 'replace', path: '/state/facts', value: [{ id: 'x', text: 'x' }] }, add('a')]), () => onDisk(1, 5)),
    );
    expect(paths(replaced)).toEqual(['/state/facts', '/state/facts/1']);
  });

  it.each([
    ['the profile digest', 'pin-profile-digest', onDisk(1, 0), { name: 'p', revision: 1 }, 'sha256:profile'],
    ['the spec digest', 'pin-spec-digest', onDisk(undefined, 0), { name: 'p', revision: 1 }, 'sha256:spec'],
    ['no pin for a stale delta (a conflict case)', 'pin-profile-digest', onDisk(4, 0), { name: 'p', revision: 3 }, undefined],
    ['a digest given is kept', 'pin-profile-digest', onDisk(1, 0), { name: 'p', revision: 1, digest: 'sha256:given' }, 'sha256:given'],
  ] as const)('pins by %s', (_, pin, target, t, expected) => {
    const { value } = inScope([pin], () => accommodateDelta(delta([], t), () => target));
    expect((value['target'] as { digest?: string }).digest).toBe(expected);
  });

  it('sends the delta as it is outside a scope or when nothing applies', () => {
    const d = delta([add('a')]);
    expect(accommodateDelta(d, () => onDisk(1, 0))).toBe(d);
    expect(inScope(['metadata-revision'], () => accommodateDelta(d, () => onDisk(1, 0))).value).toBe(d);
  });
});

describe('the order calibration tries forms in', () => {
  it('plain first, then one accommodation at a time in ladder order, then two', () => {
    expect(
      formsInOrder([
        [[], ['append-by-index'], ['append-by-id']],
        [[], ['pin-profile-digest']],
      ]),
    ).toEqual([
      [],
      ['pin-profile-digest'],
      ['append-by-index'],
      ['append-by-id'],
      ['append-by-index', 'pin-profile-digest'],
      ['append-by-id', 'pin-profile-digest'],
    ]);
  });
});

const issue = (category: AdapterIssueT['category'], pointer: string): AdapterIssueT => ({ category, pointer, message: 'm' });

describe('which ID judges a refusal', () => {
  it.each([
    ['profile', [issue('schema', '/metadata/revision')], 'L1-P2', true],
    ['profile', [issue('other', '/extends/0')], 'L3-E1', true],
    ['profile', [issue('schema', '/spec/tools/mcp_servers/0')], 'L3-M1', true],
    ['profile', [issue('digest-mismatch', '/spec/tools/skills/0/digest')], 'L3-K1', true],
    ['profile', [issue('digest-mismatch', '/extends/0')], 'L3-G2', true],
    ['profile', [issue('path-escape', '/spec/context/files/0')], 'L1-I5', true],
    ['profile', [issue('path-escape', '/spec/context/working_directory')], 'ADV-working-directory-escape', true],
    ['profile', [issue('other', '/spec/role')], 'L1-P2', false],
    ['profile', [], 'L1-P2', false],
    ['delta', [issue('digest-mismatch', '/target/digest')], 'L2-A4', true],

    ['delta', [issue('schema', '/operations')], 'L2-A1', true],
    ['delta', [issue('other', '')], 'L2-A6', false],
  ] as const)('a refused %s citing %j: %s', (input, issues, id, specific) => {
    expect(refusalOwner(input, issues)).toMatchObject({ id, specific });
  });

  it.each([
    ['schema', true],
    ['kind', true],
    ['extends-missing', false],
    ['digest-mismatch', false],
  ] as const)('a profile refused citing %s says it could not read it: %s', (category, reading) => {
    expect(refusalOwner('profile', [issue(category, '/spec')]).formal).toBe(reading);
  });

  it.each([
    ['/state/facts/-', 'add', 'ADV-pointer-paths'],
    ['/state/facts/id:a', 'add', 'L2-A14'],
    // What a replace or remove was refused for is the operation's (a remove of a missing entry, say).
    ['/state/facts/id:gone', 'remove', 'L2-A6'],
    ['/state/facts/7', 'remove', 'L2-A6'],
  ])('an operation refused at its path %s (op %s) is judged by %s', (path, op, id) => {
    const d = { operations: [{ op, path, value: 'x' }] };
    expect(deltaRefusalCause('delta', { outcome: 'rejected', errors: [issue('other', '/operations/0/path')] }, d).id).toBe(id);
  });
});

describe('the refusal rule', () => {
  const judge = (role: 'subject' | 'control', issues: AdapterIssueT[], requirements: string[]) => {
    try {
      inScope([], () => judgeRefusal({ reason: 'r', cause: rejectionCause('subject', issues), role }), requirements);
    } catch (err) {
      return err instanceof CheckFailure ? 'fail' : err instanceof CaseInconclusive ? `inconclusive ${err.causeId}` : 'other';
    }
    return 'returned';
  };
  it.each([
    ['a control refused for another ID is a cause', 'control', [issue('schema', '/metadata/revision')], ['L3-E1'], 'inconclusive L1-P2'],
    ['a subject refused for another ID is a cause', 'subject', [issue('schema', '/metadata/revision')], ['L3-E1'], 'inconclusive L1-P2'],
    ['a refusal the case owns fails it', 'control', [issue('extends-missing', '/extends/0')], ['L3-E1'], 'fail'],
    ['a subject refused citing nothing specific fails the case', 'subject', [issue('other', '')], ['L3-E1'], 'fail'],
    [
      "a subject refused under another ID's rule fails the case (its feature may be at work)",
      'subject',
      [issue('extends-missing', '/extends/0')],
      ['L3-G3'],
      'fail',
    ],
    [
      "a subject in a feature the harness does not read is that feature's",
      'subject',
      [issue('schema', '/extends')],
      ['L3-G3'],
      'inconclusive L3-E1',
    ],
    ['a control refused citing nothing specific is a cause', 'control', [issue('other', '')], ['L3-E1'], 'inconclusive L1-P2'],
  ] as const)('%s', (_, role, issues, requirements, expected) => {
    expect(judge(role, [...issues], [...requirements])).toBe(expected);
  });
});

describe('the inconclusive summary', () => {
  const record = (id: string, cause: string, cause_id?: string): CaseRecord =>
    ({
      id,
      requirements: ['L1-I3'],
      status: 'inconclusive',
      message: 'm',
      cause,
      ...(cause_id ? { cause_id } : {}),
      durationMs: 1,
      title: id,
      clauses: ['L1-I3.tools'],
      level: 1,
      origin: 'fixture',
    }) as CaseRecord;

  it('groups by the judging ID and the issues cited, largest first, one sentence each', () => {
    const s = inconclusiveSummary([
      record('a', 'control (x) rejected: schema at /metadata/revision', 'L1-P2'),
      record('b', 'subject profile rejected: schema at /metadata/revision', 'L1-P2'),
      record('c', 'not judged: instantiate rejected: schema at /metadata/revision (25)', 'L1-P2'),
      record('d', 'discover did not list p1, p2'),
    ]);
    expect(s.total).toBe(4);
    expect(s.groups.map((g) => g.cases.length)).toEqual([3, 1]);
    expect(inconclusiveSentence(s.groups[0]!)).toBe(
      '3 cases could not be judged: the adapter refused valid inputs citing schema at /metadata/revision, see L1-P2',
    );
    expect(inconclusiveSentence(s.groups[1]!)).toBe('1 case could not be judged: discover did not list pN, pN');
  });

  it('reads an index in a cited pointer as any index, and only protocol categories as cited issues', () => {
    const s = inconclusiveSummary([
      record('a', 'delta rejected: other at /operations/0/path', 'ADV-pointer-paths'),
      record('b', 'delta rejected: other at /operations/3/path; append at /-, target by revision', 'ADV-pointer-paths'),
    ]);
    expect(s.groups.map(inconclusiveSentence)).toEqual([
      '2 cases could not be judged: the adapter refused valid inputs citing other at /operations/N/path, see ADV-pointer-paths',
    ]);
  });
});
