/**
 * The Level 2 suite against the reference harness and its mutants:
 *  (a) the reference passes every Level 2 case, crash and race cases included (spawned processes);
 *  (b) every mutant that breaks a Level 2 ID fails exactly its `breaks` at level 2 (whole suite up
 *      to level 2, so Level 1 cases are included);
 *  (c) no mutant makes a Level 2 case fail for an ID it does not break (isolation, L2 cases only);
 *  (d) an adapter that implements nothing passes no Level 2 case;
 * plus coverage: every Level 2 requirement has a case, every one has a mutant, fixtures are used.
 *
 * Crash, race and write-path cases need killable processes: they run through the built host
 * (dist/adapters/host.js, `npm test` builds it first). Without a build those cases are
 * not-applicable here and the in-process checks still run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../adapters/protocol/messages.js';
import { createReferenceAdapter } from '../../adapters/reference/index.js';
import { createMutantAdapter, MUTANTS } from '../../adapters/reference/mutants.js';
import type { InProcessAdapter } from '../../adapters/sdk/ts/types.js';
import { hostScript } from '../../runner/engine/adapter-spec.js';
import { adapterEnv } from '../../runner/engine/env.js';
import { handshake } from '../../runner/engine/handshake.js';
import { StdioAdapterClient } from '../../runner/engine/stdio-client.js';
import { AdapterCrashed, AdapterDecline } from '../../suites/framework/errors.js';
import type { KillableAdapter } from '../../suites/framework/types.js';
import { cases as level2 } from '../../suites/level-2/index.js';
import { allFixtureIds } from '../../suites/level-2/support/fixtures.js';
import { REQUIREMENTS } from '../../suites/requirements.js';
import { failedIds, runSuiteInProcess } from '../support/run-suite.js';

const L2_IDS = REQUIREMENTS.filter((r) => r.level === 2).map((r) => r.id);
const isL2 = (id: string): boolean => id.startsWith('L2-');
const host = hostScript();
const scratch = mkdtempSync(join(tmpdir(), 'oap-l2-test-'));
const live = new Set<StdioAdapterClient>();

afterAll(async () => {
  await Promise.all([...live].map((c) => c.kill().catch(() => {})));
  rmSync(scratch, { recursive: true, force: true });
});

/** A spawnAdapter for builtin `spec`, as the engine's worker provides: spawned and handshaken. */
function spawner(spec: string): (() => Promise<KillableAdapter>) | undefined {
  if (!host) return undefined;
  let n = 0;
  return async () => {
    const client = await StdioAdapterClient.start({
      argv: [process.execPath, host, spec],
      env: adapterEnv(join(scratch, `${spec.replace(/\W+/g, '-')}-${n++}`)),
      timeoutMs: 60_000,
    });
    live.add(client);
    void client.exited.then(() => live.delete(client));
    // As the engine's worker does: a spawn that cannot handshake is a crash, with the stderr tail.
    await handshake(client, () => client.stderr.tail(2048)).catch(async (err: unknown) => {
      await client.kill().catch(() => {});
      throw new AdapterCrashed(`spawned ${spec}: ${(err as Error).message}`, null, null);
    });
    return client;
  };
}

const processCase = (id: string): boolean => level2.some((c) => c.id === id && (c.needs?.process || /concurrent|write-path/.test(c.id)));

describe('Level 2 suite', () => {
  it('covers every Level 2 requirement and uses every Level 2 fixture', () => {
    const covered = new Set(level2.flatMap((c) => c.requirements));
    expect(L2_IDS.filter((id) => !covered.has(id))).toEqual([]);
    expect(level2.every((c) => c.requirements.length === 1 && c.requirements.every(isL2))).toBe(true);
    const used = new Set(level2.flatMap((c) => c.fixtures ?? []));
    expect(allFixtureIds().filter((id) => !used.has(id))).toEqual([]);
  });

  it('every Level 2 requirement (MUST and SHOULD) has a mutant that breaks it', () => {
    const broken = new Set(MUTANTS.flatMap((m) => m.breaks));
    expect(L2_IDS.filter((id) => !broken.has(id))).toEqual([]);
  });

  it('(a) the reference harness passes every Level 2 case', async () => {
    const out = await runSuiteInProcess(() => createReferenceAdapter(), { level: 2, cases: level2, ...(spawner('builtin:reference') ? { spawnAdapter: spawner('builtin:reference')! } : {}) });
    const notPassed = out.filter((o) => o.status !== 'pass' && !(o.status === 'not-applicable' && !host)).map((o) => ({ id: o.id, status: o.status, message: o.message }));
    expect(notPassed).toEqual([]);
    expect(out).toHaveLength(level2.length);
  }, 300_000);

  const l2Mutants = MUTANTS.filter((m) => m.breaks.some(isL2));
  describe.concurrent('(b) mutants breaking a Level 2 ID', () => {
    it.each(l2Mutants.map((m) => [m.name, m.breaks] as const))('mutant %s fails exactly %j at level 2', async (name, breaks) => {
      const spawn = spawner(`builtin:mutant/${name}`);
      const out = await runSuiteInProcess(() => createMutantAdapter(name), { level: 2, ...(spawn ? { spawnAdapter: spawn } : {}) });
      expect(failedIds(out)).toEqual(breaks.filter((b) => !b.startsWith('L3-')).sort());
    }, 600_000);
  });

  it('(c) no mutant makes a Level 2 in-process case fail for an ID it does not break', async () => {
    // The process cases for every mutant run in (b) for L2 mutants; here the rest, in-process only.
    const stray: Array<{ mutant: string; failed: string[]; breaks: string[] }> = [];
    for (const m of MUTANTS.filter((x) => !x.breaks.some(isL2))) {
      const out = await runSuiteInProcess(() => createMutantAdapter(m.name), { level: 2, cases: level2.filter((c) => !processCase(c.id)) });
      const failed = failedIds(out);
      if (failed.length > 0) stray.push({ mutant: m.name, failed, breaks: m.breaks });
    }
    expect(stray).toEqual([]);
  }, 900_000);

  it('(d) an adapter that implements nothing passes no Level 2 case', async () => {
    const nothing = (): InProcessAdapter => ({
      async handle(method: string) {
        if (method !== 'initialize') throw new AdapterDecline('not-implemented', `${method} is not implemented`);
        return {
          protocol_version: PROTOCOL_VERSION,
          implementation: { name: 'nothing', version: '0', language: 'ts' },
          level: 2,
          encodings: ['yaml', 'json', 'md'],
          discovery_roots: ['managed', 'user', 'project', 'plugin'],
          unimplemented: [],
        };
      },
    });
    const out = await runSuiteInProcess(nothing, { level: 2, cases: level2 });
    expect(out.filter((o) => o.status === 'pass').map((o) => o.id)).toEqual([]);
    expect(out.filter((o) => o.status === 'fail').map((o) => o.id)).toEqual([]);
  });
});
