import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { messageOf } from '../../results/predicates.js';
import { EngineError } from '../../runner/engine/errors.js';
import { exitCodeForEngineError } from '../../runner/exit-codes.js';
import { manifestDigest } from '../../results/manifest.js';
import { caseMatcher, parseShard, selectShard } from '../../runner/engine/selection.js';
import { FindingFailure } from '../../fuzz/findings.js';
import { rerunCommand } from '../../results/rerun.js';
import { expectTrue } from '../../suites/kit/assert.js';
import type { CaseDef } from '../../suites/kit/types.js';
import { ensureBuilt, isAlive, journalLines, runSynthetic, statuses, synthCases, tempDir, waitDead } from './helpers.js';

beforeAll(() => ensureBuilt(), 120_000);

describe('selection', () => {
  const cases = [
    { id: 'L1-I3/shell', requirements: ['L1-I3'] },
    { id: 'L1-P2/bad', requirements: ['L1-P2', 'L1-P6'] },
    { id: 'L2-A1/x', requirements: ['L2-A1'] },
  ];
  test('filter: glob or substring over case and requirement IDs, comma = or', () => {
    const pick = (p: string): string[] => cases.filter(caseMatcher(p)).map((c) => c.id);
    expect(pick('L1-*')).toEqual(['L1-I3/shell', 'L1-P2/bad']);
    expect(pick('shell')).toEqual(['L1-I3/shell']);
    expect(pick('L1-P6')).toEqual(['L1-P2/bad']);
    expect(pick('L2-A1/*,shell')).toEqual(['L1-I3/shell', 'L2-A1/x']);
  });

  test('shards partition the sorted list exactly', () => {
    const ids = Array.from({ length: 11 }, (_, i) => ({ id: `c${String(i).padStart(2, '0')}` }));
    const shards = [1, 2, 3].map((k) => selectShard(ids, { index: k, count: 3 }).map((c) => c.id));
    expect(shards.flat().sort()).toEqual(ids.map((c) => c.id));
    expect(shards.map((s) => s.length)).toEqual([4, 4, 3]);
    expect(parseShard('2/5')).toEqual({ index: 2, count: 5 });
    expect(() => parseShard('0/2')).toThrow();
    expect(() => parseShard('3/2')).toThrow();
  });

  test('manifest digest: order-independent, changes when a case or its requirements change', () => {
    const a = manifestDigest([
      { id: 'x', requirements: ['L1-P1'] },
      { id: 'y', requirements: ['L1-P2'] },
    ]);
    expect(
      manifestDigest([
        { id: 'y', requirements: ['L1-P2'] },
        { id: 'x', requirements: ['L1-P1'] },
      ]),
    ).toBe(a);
    expect(
      manifestDigest([
        { id: 'x', requirements: ['L1-P1'] },
        { id: 'y', requirements: ['L1-P3'] },
      ]),
    ).not.toBe(a);
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('runs', () => {
  test('--jobs 3: one adapter process per worker, all cases, journal and report sorted by ID', async () => {
    const run = await runSynthetic('builtin:example/ts', synthCases(8), { process: true, jobs: 3 });
    expect(Object.values(statuses(run))).toEqual(Array(8).fill('pass'));
    expect(run.pids).toHaveLength(3);
    expect(run.report.cases.map((c) => c.id)).toEqual(synthCases(8).map((c) => c.id));
    expect(journalLines(run.journalPath).records).toHaveLength(8);
    expect(await waitDead(run.pids)).toEqual([]);
  });

  test('cases above the judged level are neither run nor recorded; filter and shard select', async () => {
    let ran = 0;
    const l2: CaseDef = {
      id: 'Z-L2',
      requirements: ['L2-A1'],
      clauses: ['L2-A1.validated-first'],
      title: 'level 2',
      run: async () => void ran++,
    };
    const run = await runSynthetic('builtin:example/ts', [...synthCases(4), l2]);
    expect(statuses(run)['Z-L2']).toBeUndefined();
    expect(ran).toBe(0);
    const filtered = await runSynthetic('builtin:example/ts', synthCases(6), { filter: 'T-00[1-4]', shard: { index: 2, count: 2 } });
    expect(Object.keys(statuses(filtered))).toEqual(['T-002', 'T-004']);
  });

  test('declines are skipped with the reason, never pass', async () => {
    const c: CaseDef = {
      id: 'D-1',
      requirements: ['L1-P1'],
      clauses: ['L1-P1.accept'],
      title: 'yaml',
      run: async (ctx) => void (await ctx.adapter.call('validate', { document: { content: 'a: 1', encoding: 'yaml' } })),
    };
    const d: CaseDef = {
      id: 'D-2',
      requirements: ['L1-P1'],
      clauses: ['L1-P1.accept'],
      title: 'digest',
      run: async (ctx) => void (await ctx.adapter.call('digest', { document: { path: '/x.json' } })),
    };
    for (const process of [false, true]) {
      const run = await runSynthetic('builtin:example/ts', [c, d], { process });
      expect(statuses(run)).toEqual({ 'D-1': 'skipped', 'D-2': 'skipped' });
      expect(messageOf(run.report.cases[0]!)).toMatch(/reads JSON only/);
      expect(messageOf(run.report.cases[1]!)).toMatch(/not implemented/);
    }
  });

  test('interrupt + --resume: finished cases are kept and not rerun; a different seed is refused', async () => {
    const out = tempDir();
    const runs: Record<string, number> = {};
    const cases = synthCases(5).map((c) => ({
      ...c,
      run: async (ctx: Parameters<CaseDef['run']>[0]) => {
        runs[c.id] = (runs[c.id] ?? 0) + 1;
        return c.run(ctx);
      },
    }));
    const controller = new AbortController();
    const first = await runSynthetic('builtin:example/ts', cases, {
      out,
      signal: controller.signal,
      reporters: [
        {
          onCaseEnd: (r) => {
            if (r.id === 'T-002') controller.abort();
          },
        },
      ],
    });
    expect(first.exitCode).toBe(130);
    expect(first.report.footer).toMatchObject({ complete: false, interrupted: true });
    expect(first.report.cases.map((c) => c.id)).toEqual(['T-001', 'T-002']);
    const second = await runSynthetic('builtin:example/ts', cases, { out, resume: true });
    expect(second.report.cases.map((c) => `${c.id}:${c.status}`)).toEqual([
      'T-001:pass',
      'T-002:pass',
      'T-003:pass',
      'T-004:pass',
      'T-005:pass',
    ]);
    expect(second.report.footer).toMatchObject({ complete: true, interrupted: false });
    expect(runs).toEqual({ 'T-001': 1, 'T-002': 1, 'T-003': 1, 'T-004': 1, 'T-005': 1 });
    const err = await runSynthetic('builtin:example/ts', cases, { out, resume: true, seed: 99 }).catch((e: unknown) => e);
    expect((err as EngineError).code).toBe('resume-mismatch');
    expect((err as EngineError).message).toMatch(/its run differs in seed \(7 there, 99 now\)$/);
    expect(exitCodeForEngineError((err as EngineError).kind)).toBe(2);
  });

  test('the stream ends with its footer; a fuzz finding is a typed field of its record and listed in the footer', async () => {
    const finding: CaseDef = {
      id: 'fuzz/F-1',
      requirements: ['L1-P2'],
      clauses: ['L1-P2.validate'],
      title: 'a fuzz case that wrote a finding',
      origin: 'fuzz',
      run: async () => {
        throw new FindingFailure('narrowing: widened', 'deny', 'allow', '/out/findings/fuzz_F-1.json');
      },
    };
    const run = await runSynthetic('builtin:example/ts', [...synthCases(2), finding], { fuzz: 1, jobs: 2 });
    const record = run.report.cases.find((c) => c.id === 'fuzz/F-1')!;
    expect(record).toMatchObject({ status: 'fail', finding: '/out/findings/fuzz_F-1.json' });
    expect(record.notes).toBeUndefined();
    expect(run.report.footer.fuzz).toEqual({ seed: 7, cases: 1, findings: ['/out/findings/fuzz_F-1.json'] });
    expect(rerunCommand(run.report.header, record)).toBe(
      'oap-conform replay /out/findings/fuzz_F-1.json --adapter builtin:example/ts --timeout 5000',
    );
    const stream = journalLines(run.journalPath);
    expect(stream.footer).toEqual(run.report.footer);
    expect(stream.records).toHaveLength(3);
  });

  test('module adapters: in-process timeout; an exception is an adapter error; .ts without .js is refused', async () => {
    const dir = tempDir();
    const mod = join(dir, 'hangs.mjs');
    writeFileSync(
      mod,
      `export default () => ({ async handle(method, params) {
  if (method === 'initialize') return { protocol_version: '1.0', implementation: { name: 'm', version: '1', language: 'js' }, level: 1, encodings: ['json'], discovery_roots: ['project'], unimplemented: [] };
  if (params.document.content === 'throw') throw new Error('broken inside');
  return new Promise(() => {});
} });\n`,
    );
    const mk = (id: string, content: string): CaseDef => ({
      id,
      requirements: ['L1-P2'],
      clauses: ['L1-P2.validate'],
      title: id,
      run: async (ctx) => void (await ctx.adapter.call('validate', { document: { content, encoding: 'json' } })),
    });
    const run = await runSynthetic(mod, [mk('M-1', '{}'), mk('M-2', 'throw')], { timeoutMs: 300 });
    expect(statuses(run)).toEqual({ 'M-1': 'timeout', 'M-2': 'error' });
    expect(messageOf(run.report.cases[1]!)).toMatch(/rpc\.INTERNAL_ERROR.*broken inside/);
    const ts = join(dir, 'adapter.ts');
    writeFileSync(ts, 'export default () => ({});\n');
    const err = await runSynthetic(ts, synthCases(1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(exitCodeForEngineError((err as EngineError).kind)).toBe(3);
    expect((err as EngineError).message).toMatch(/no compiled \.js/);
  });

  test('spawnAdapter gives a killable, handshaken process; it is killed after the case', async () => {
    let spawnedPid = 0;
    const c: CaseDef = {
      id: 'K-1',
      requirements: ['L1-P2'],
      clauses: ['L1-P2.validate'],
      title: 'kill',
      needs: { process: true },
      run: async (ctx) => {
        expectTrue(!!ctx.spawnAdapter, 'spawnAdapter available');
        const a = await ctx.spawnAdapter!();
        spawnedPid = a.pid;
        const r = await a.call('validate', { document: { content: '{"oap":"2.0"}', encoding: 'json' } });
        expectTrue(!r.valid, 'invalid');
        a.send('validate', { document: { content: '{}', encoding: 'json' } });
      },
    };
    const run = await runSynthetic('builtin:example/ts', [c]);
    expect(statuses(run)).toEqual({ 'K-1': 'pass' });
    expect(spawnedPid).toBeGreaterThan(0);
    expect(isAlive(spawnedPid)).toBe(false);
  });

  test("the adapter process sees none of the runner's environment outside the allowlist", async () => {
    process.env.OAP_CONFORM_TEST_SECRET_CHECK = 'visible';
    process.env.LEAKY_TEST_TOKEN = 'must-not-leak';
    try {
      const dir = tempDir();
      const dump = join(dir, 'env.json');
      // The adapter writes its environment to a file before answering (stderr could arrive after the case ended).
      const script = `process.stdin.on('data', d => { for (const l of d.toString().split('\\n').filter(Boolean)) { const m = JSON.parse(l); if (m.method === 'validate') require('fs').writeFileSync(${JSON.stringify(dump)}, JSON.stringify(process.env)); process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: m.method === 'initialize' ? { protocol_version: '1.0', implementation: { name: 'e', version: '1', language: 'js' }, level: 1, encodings: ['json'], discovery_roots: ['project'], unimplemented: [] } : { valid: true, errors: [], warnings: [] } }) + '\\n'); } });`;
      writeFileSync(join(dir, 'env-adapter.cjs'), script);
      const run = await runSynthetic(`node ${join(dir, 'env-adapter.cjs')}`, synthCases(1));
      expect(statuses(run)).toEqual({ 'T-001': 'pass' });
      const env = JSON.parse(readFileSync(dump, 'utf8')) as Record<string, string>;
      expect(env.OAP_CONFORM_TEST_SECRET_CHECK).toBe('visible');
      expect(env.LEAKY_TEST_TOKEN).toBeUndefined();
      expect(env.HOME).not.toBe(process.env.HOME);
      expect(Object.keys(env).every((k) => /^(PATH|LANG|LC_ALL|TZ|SYSTEMROOT|HOME|TMPDIR|XDG_[A-Z_]+|OAP_.*)$/.test(k))).toBe(true);
    } finally {
      delete process.env.OAP_CONFORM_TEST_SECRET_CHECK;
      delete process.env.LEAKY_TEST_TOKEN;
    }
  });
});
