/**
 * No false failures: a harness that takes, wherever the spec leaves room, the other allowed reading
 * (tests/support/lenient-readings.ts: a literal `..` key, a session id as `history[].by`, an inbox
 * file written during end_session, a filesystem grant stricter than the intersection, a memory
 * store kind other than vector, no profiles from outside every root) fails no case of the whole
 * fixture suite, and the IDs those readings touch pass (or, for the capability it disclaims, are
 * not-applicable after the probe). A delta refused for an unrelated reason leaves L2-A7
 * inconclusive, never failed. A harness that declines one field loses only the cases that use it.
 */
import { describe, expect, it } from 'vitest';
import { AdapterDecline } from '../../protocol/errors.js';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import { loadDocumentFile } from '../../spec/document/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { allCases } from '../../suites/index.js';
import { lenientReadingsAdapter } from '../support/lenient-readings.js';
import { runSuiteInProcess } from '../support/run-suite.js';

const READING_IDS = ['L1-I3', 'L1-I4', 'L2-A2', 'L2-A11', 'L2-G3', 'L3-G1', 'L3-M2', 'L3-Y1'];

describe('a harness taking every other allowed reading', () => {
  it('fails no case of the fixture suite, and passes the IDs its readings touch', async () => {
    // Cases that need a separately spawned adapter end inconclusive in-process; they judge A3/A5/A12.
    const out = await runSuiteInProcess(lenientReadingsAdapter, { level: 3, cases: allCases() });
    expect(
      out.filter((o) => o.status === 'fail' || o.status === 'error').map((o) => `${o.id}: ${'message' in o ? o.message : ''}`),
    ).toEqual([]);
    const touched = out.filter((o) => o.requirements.some((id) => READING_IDS.includes(id)));
    expect(touched.filter((o) => o.status !== 'pass' && o.status !== 'not-applicable').map((o) => `${o.status} ${o.id}`)).toEqual([]);
    expect(out.filter((o) => o.status === 'not-applicable').map((o) => o.id)).toEqual([
      'L1-I4/file-outside-roots-is-imported',
      'L3-M2/imported-profile-launch-confirm',
    ]);
    // The readings were really taken: the non-vector kind, the inbox, the session id, the literal key.
    const note = (id: string, key: string): unknown => out.find((o) => o.id === id)?.notes?.[key];
    expect(note('L3-Y1/external-store-kind-supported', 'external-stores-kept')).toEqual([
      'kb-maggraph (maggraph)',
      'kb-loro-local (loro-local)',
      'kb-loro-shared (loro-shared)',
      'kb-custom (custom)',
    ]);
    expect(note('L2-G3/end-session-writes-nothing-propose', 'other-files-changed')).toMatchObject({
      created: expect.arrayContaining([expect.stringMatching(/^workspace\/\.agents\/\.oap-inbox\//)]),
    });
    expect(note('L2-A11/history-propose-approved-trim-to-4', 'history-by')).toBe('session id');
    expect(note('L2-A2/outside-state-refused-dotdot-into-spec', 'outcome')).toBe('rejected');
  }, 300_000);

  it('a delta refused for an unrelated reason leaves the proposal gate (L2-A7) inconclusive', async () => {
    // The reference, except that it refuses any delta proposing to change the description.
    const picky = (): InProcessAdapter => {
      const ref = createReferenceAdapter();
      return {
        async handle(method, params) {
          const p = params as { delta?: { proposals?: Array<{ path?: string }> }; profile_path?: string };
          if (method === 'apply_delta' && p.delta?.proposals?.some((x) => x.path === '/metadata/description'))
            return {
              outcome: 'rejected',
              revision: 4,
              errors: [{ category: 'other', pointer: '/proposals', message: 'this harness does not take description proposals' }],
              warnings: [],
              proposals: [],
            };
          return ref.handle(method, params);
        },
      };
    };
    const out = await runSuiteInProcess(picky, { level: 3, cases: allCases().filter((c) => c.requirements.includes('L2-A7')) });
    expect(out.map((o) => [o.id, o.status])).toEqual([['L2-A7/proposals-pending-under-auto', 'inconclusive']]);
  });
});

describe('one unsupported field hides only the cases that use it', () => {
  it('a harness declining every profile with spec.memory skips exactly the split cases that ask for memory', async () => {
    const noMemory = (): InProcessAdapter => {
      const ref = createReferenceAdapter();
      return {
        async handle(method, params) {
          const path = (params as { profile?: { path?: string } }).profile?.path;
          const spec = path ? ((loadDocumentFile(path).value as { spec?: Record<string, unknown> } | undefined)?.spec ?? {}) : {};
          if (method === 'instantiate' && 'memory' in spec) throw new AdapterDecline('skipped', 'this harness has no memory section');
          return ref.handle(method, params);
        },
      };
    };
    const split = allCases().filter((c) => /^(L1-I9|L2-S3|L3-G1)\//.test(c.id));
    const out = await runSuiteInProcess(noMemory, { level: 3, cases: split });
    expect(out.filter((o) => o.status !== 'pass').map((o) => `${o.status} ${o.id}`)).toEqual([
      'skipped L1-I9/memory-mode-difference-recorded',
      'skipped L1-I9/memory-scopes-difference-recorded',
      'skipped L1-I9/unreachable-optional-store-recorded',
      'skipped L2-S3/model-and-memory-claim-no-authority',
    ]);
    expect(out.filter((o) => o.status === 'pass').length).toBeGreaterThan(15);
  });
});

describe('a probe confirms a disclaimed root before a case is not-applicable', () => {
  it('a harness that leaves the project root out of its handshake but discovers .agents/ still gets every L1-D3 case run', async () => {
    const underDeclared = (): InProcessAdapter => {
      const ref = createReferenceAdapter();
      return {
        async handle(method, params) {
          const r = await ref.handle(method, params);
          if (method !== 'initialize') return r;
          const hs = r as { discovery_roots: string[] };
          return { ...hs, discovery_roots: hs.discovery_roots.filter((x) => x !== 'project') };
        },
      };
    };
    const cases = allCases().filter((c) => c.requirements.includes('L1-D3'));
    const out = await runSuiteInProcess(underDeclared, { level: 1, cases });
    expect(cases.length).toBeGreaterThan(0);
    expect(out.map((o) => `${o.id}: ${o.status}`).sort()).toEqual(cases.map((c) => `${c.id}: pass`).sort());
  });
});
