/**
 * Issue 24 item 2: a diagnosis that matches the evidence. When several observations disagree with
 * the expectation, the message names the first one that does, from the evidence itself. A harness
 * whose `remove` of a missing element path creates the missing container (`open_threads: {}`) still
 * writes the add that follows: the L2-A13 failure names `/state/open_threads`, not "the add is not
 * in the file".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { createHiderAdapter } from '../../harnesses/hiders/index.js';
import { createMutantAdapter } from '../../harnesses/mutants/index.js';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { runSuiteInProcess } from '../support/run-suite.js';

/** The reference, except that a `remove` under a missing `/state/<collection>` leaves that collection behind as `{}`. */
function containerCreatingRemove(): InProcessAdapter {
  const ref = createReferenceAdapter();
  return {
    async handle(method, params) {
      const p = params as { profile_path?: string; delta?: { operations?: { op: string; path: string }[] } };
      const before =
        method === 'apply_delta' && p.profile_path ? (parse(readFileSync(p.profile_path, 'utf8')) as { state?: object }) : undefined;
      const answer = await ref.handle(method, params);
      if (before && p.profile_path) {
        const missing = (p.delta?.operations ?? [])
          .filter((o) => o.op === 'remove')
          .map((o) => /^\/state\/([^/]+)\/\d+$/.exec(o.path)?.[1])
          .filter((name): name is string => name !== undefined && !(name in (before.state ?? {})));
        if (missing.length > 0) {
          const after = parse(readFileSync(p.profile_path, 'utf8')) as { state: Record<string, unknown> };
          for (const name of missing) after.state[name] = {};
          const json = p.profile_path.endsWith('.json');
          writeFileSync(p.profile_path, json ? JSON.stringify(after, null, 2) : stringify(after));
        }
      }
      return answer;
    },
    dispose: () => ref.dispose?.(),
  };
}

describe('a diagnosis that matches the evidence', () => {
  it('L2-A13: the remove that created open_threads: {} is named, although the add is on disk', async () => {
    const [outcome] = await runSuiteInProcess(async () => containerCreatingRemove(), {
      filter: (c) => c.id === 'L2-A13/remove-missing-path-warns',
    });
    expect(outcome?.status).toBe('fail');
    if (outcome?.status !== 'fail') return;
    expect(outcome.message).toBe('state after removes of missing paths and one add: /state/open_threads: (absent) vs {}');
    expect(outcome.message).not.toMatch(/not in the file/);
    expect(outcome.differences).toEqual([{ pointer: '/state/open_threads', observed: {} }]);
  });

  it('the reference passes the same case', async () => {
    const [outcome] = await runSuiteInProcess(async () => createReferenceAdapter(), {
      filter: (c) => c.id === 'L2-A13/remove-missing-path-warns',
    });
    expect(outcome?.status).toBe('pass');
  });
});

describe('what a failure shows (issue 24 item 6, grouping)', () => {
  const CASE = 'L1-I6/env-literal-sk-live';

  it('each input is labelled control or subject, and the last requests sent are shown as the case sent them', async () => {
    const [outcome] = await runSuiteInProcess(async () => createMutantAdapter('literal-secret-accepted'), { filter: (c) => c.id === CASE });
    expect(outcome?.status).toBe('fail');
    const names = Object.keys(outcome?.inputs ?? {});
    expect(names).toEqual(
      expect.arrayContaining([
        'control file workspace/.agents/mcp-reference.agent.yaml',
        'subject file workspace/.agents/mcp-literal.agent.yaml',
        'policy',
      ]),
    );
    const request = Object.entries(outcome?.inputs ?? {})
      .filter(([k]) => /^request \d+: instantiate$/.test(k))
      .at(-1);
    expect(request?.[1]).toMatchObject({
      workspace: 'workspace',
      profile: { path: 'workspace/.agents/mcp-literal.agent.yaml' },
      policy: '(the policy input)',
    });
  });

  it("a refused control names the harness's own error message in the cause", async () => {
    // Without calibration, which would give the control the revision the hider wants.
    const [outcome] = await runSuiteInProcess(async () => createHiderAdapter('requires-revision'), {
      filter: (c) => c.id === CASE,
      calibrate: false,
    });
    expect(outcome?.status).toBe('inconclusive');
    if (outcome?.status !== 'inconclusive') return;
    expect(outcome.cause).toMatch(/rejected: schema at \/metadata\/revision \("metadata\.revision is required here"\)/);
  });
});
