import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as mergeCommand from '../../runner/cli/commands/merge.js';
import * as verifyCommand from '../../runner/cli/commands/verify.js';
import { finalizeRun } from '../../runner/finalize.js';
import type { RunReport } from '../../results/model.js';
import { makeReport, sink, withFooter } from './make-report.js';
import { runCommand } from './run-command.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'oap-merge-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Splits an all-cases report into n shards the way `--shard k/n` would (round robin). */
function shardsOf(full: RunReport, n: number): RunReport[] {
  return Array.from({ length: n }, (_, i) =>
    withFooter(
      structuredClone({
        header: { ...full.header, options: { ...full.header.options, shard: { index: i + 1, count: n } } },
        cases: full.cases.filter((_, j) => j % n === i),
      }),
    ),
  );
}
async function writeShards(shards: RunReport[]): Promise<string[]> {
  const out: string[] = [];
  for (const s of shards) {
    const dir = tmp();
    // Shard results alone do not hold a claim (exit 1); only the merged one can.
    await finalizeRun(s, dir, { quiet: true, stdout: sink(), stderr: sink() });
    out.push(dir);
  }
  return out;
}

describe('oap-conform merge', () => {
  it('joins shards into one result equal to an unsharded run', async () => {
    const full = makeReport({ level: 2, statuses: { 'L2-A3': 'fail' } });
    const dirsIn = await writeShards(shardsOf(full, 3));
    const out = tmp();
    const r = await runCommand(mergeCommand, ['merge', ...dirsIn, '--out', out, '--quiet']);
    expect(r.code).toBe(1); // L2-A3 fails
    const merged = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    expect(merged.cases.map((c) => c.id).sort()).toEqual(full.cases.map((c) => c.id).sort());
    expect(merged.header.options.shard).toBeUndefined();
    expect(merged.footer!.counts.total).toBe(full.cases.length);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8'));
    expect(result.failed).toEqual(['L2-A3']);

    const allPass = await writeShards(shardsOf(makeReport({ level: 2 }), 2));
    expect((await runCommand(mergeCommand, ['merge', ...allPass, '--out', tmp(), '--quiet'])).code).toBe(0);
  });

  it.each([
    [
      'fixture_revision',
      (r: RunReport) => {
        r.header.fixture_revision = 'f'.repeat(40);
      },
    ],
    [
      'manifest_digest',
      (r: RunReport) => {
        r.header.manifest_digest = 'sha256:other';
      },
    ],
    [
      'seed',
      (r: RunReport) => {
        r.header.seed = 7;
      },
    ],
    [
      'level',
      (r: RunReport) => {
        r.header.level = 1;
      },
    ],
    [
      'adapter.handshake.implementation.version',
      (r: RunReport) => {
        r.header.adapter.handshake.implementation.version = '9.9.9';
      },
    ],
  ])('refuses shards that differ in %s (exit 2, one line)', async (what, mutate) => {
    const [a, b] = shardsOf(makeReport({ level: 2 }), 2);
    mutate(b!);
    const dirsIn = await writeShards([a!, b!]);
    const r = await runCommand(mergeCommand, ['merge', ...dirsIn, '--out', tmp()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^oap-conform: shard-mismatch: .* differs from .* in ${what.replace(/\./g, '\\.')}: .*\\n$`));
  });

  it('refuses duplicate case IDs', async () => {
    const [a, b] = shardsOf(makeReport({ level: 1 }), 2);
    b!.cases.push(a!.cases[0]!);
    const dirsIn = await writeShards([a!, withFooter(b!)]);
    const r = await runCommand(mergeCommand, ['merge', ...dirsIn, '--out', tmp()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^oap-conform: duplicate-case: case L1-\S+ appears in both .* and .*\n$/);
  });

  it('refuses the same shard twice', async () => {
    const [a] = shardsOf(makeReport({ level: 1 }), 2);
    const dirsIn = await writeShards([a!]);
    const r = await runCommand(mergeCommand, ['merge', dirsIn[0]!, dirsIn[0]!, '--out', tmp()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^oap-conform: duplicate-shard: /);
  });

  it('refuses an incomplete shard set, naming the missing shards (exit 2, nothing written)', async () => {
    const [a] = shardsOf(makeReport({ level: 1 }), 2);
    const dirsIn = await writeShards([a!]);
    const out = tmp();
    const r = await runCommand(mergeCommand, ['merge', ...dirsIn, '--out', out, '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^oap-conform: incomplete-shards: shard\(s\) 2 of 2 missing; /);
    expect(existsSync(join(out, 'result.json'))).toBe(false);
  });

  it('with --allow-partial writes a partial result that never certifies and that verify rejects', async () => {
    const shards = shardsOf(makeReport({ level: 1 }), 4);
    const dirsIn = await writeShards(shards.slice(0, 3));
    const out = tmp();
    const r = await runCommand(mergeCommand, ['merge', ...dirsIn, '--out', out, '--quiet', '--allow-partial']);
    expect(r.code).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { notes: string[] };
    expect(result.notes).toContain('attained_level:0');
    expect(result.notes.some((n) => n.startsWith('partial_run:merged with shard(s) 4 of 4 missing'))).toBe(true);
    const badge = JSON.parse(readFileSync(join(out, 'badge.json'), 'utf8')) as { color: string };
    expect(badge.color).not.toBe('brightgreen');
    const v = await runCommand(verifyCommand, ['verify', join(out, 'result.json')]);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('partial-run');
  });
});
