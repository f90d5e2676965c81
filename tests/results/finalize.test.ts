import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { finalizeRun } from '../../runner/finalize.js';
import { reportDigest } from '../../results/digest.js';
import { schemaProblems } from '../../results/schemas.js';
import { fromRoot } from '../../spec/package-root.js';
import { makeReport, sink } from './make-report.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'oap-finalize-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const quiet = () => ({ stdout: sink(), stderr: sink() });

/**
 * The upstream verifier's rules, written here from conformance.md 5.4 and result.schema.json
 * alone (its own Ajv instance on the vendored file, not our code): schema-valid, `failed` empty,
 * full 40-hex fixture revision, and every REQUIRED ID of the claimed level and below in `passed`.
 */
const UPSTREAM_REQUIRED: Record<1 | 2 | 3, string[]> = {
  1: [
    ...['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'D1', 'D2', 'D3', 'D4'],
    ...Array.from({ length: 12 }, (_, i) => `I${i + 1}`),
    'R1',
    'R2',
  ].map((s) => `L1-${s}`),
  2: [...['S1', 'S2', 'S3', 'S4', 'S5', 'G1', 'G2', 'G3', 'G4'], ...Array.from({ length: 13 }, (_, i) => `A${i + 1}`)].map(
    (s) => `L2-${s}`,
  ),
  3: ['E1', 'E2', 'M1', 'K1', 'Y1', 'B1', 'B2', 'G1', 'G2', 'G3'].map((s) => `L3-${s}`),
};
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats = (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);
const upstreamValidate = addFormats(new Ajv2020({ allErrors: true })).compile(
  JSON.parse(readFileSync(fromRoot('spec', 'schemas', 'oap-1.0.1', 'result.schema.json'), 'utf8')) as object,
);
function upstreamAccepts(result: { level: 1 | 2 | 3; failed: string[]; passed: string[]; fixture_revision: string }): boolean {
  if (!upstreamValidate(result)) return false;
  if (result.failed.length > 0) return false;
  if (!/^[0-9a-f]{40}$/.test(result.fixture_revision)) return false;
  const required = ([1, 2, 3] as const).filter((l) => l <= result.level).flatMap((l) => UPSTREAM_REQUIRED[l]);
  return required.every((id) => result.passed.includes(id));
}

describe('finalizeRun', () => {
  it('writes every format by default and an all-pass result satisfies the upstream verifier', async () => {
    const out = tmp();
    const report = makeReport({ level: 3 });
    const { exitCode, result, attainedLevel } = await finalizeRun(report, out, quiet());
    expect(exitCode).toBe(0);
    expect(attainedLevel).toBe(3);
    expect(readdirSync(out).sort()).toEqual([
      'badge.json',
      'ctrf-report.json',
      'junit.xml',
      'report.html',
      'report.json',
      'result.json',
      'results.sarif',
      'statement.json',
      'summary.md',
    ]);
    const written = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8'));
    expect(written).toEqual(result);
    expect(upstreamAccepts(written)).toBe(true);
    expect(written).toMatchObject({
      schema: 'oap.conformance-result.v1',
      oap: '1.0',
      maintenance_release: '1.0.1',
      implementation: 'testharness',
      implementation_version: '1.2.3',
      level: 3,
    });
    expect(written.notes).toContain('attained_level:3');
  });

  it('the upstream check rejects a result with one required ID missing', async () => {
    const { result, exitCode } = await finalizeRun(makeReport({ level: 2, statuses: { 'L2-A12': 'skipped' } }), tmp(), quiet());
    expect(exitCode).toBe(1);
    expect(upstreamAccepts(result)).toBe(false);
    expect(result.passed).not.toContain('L2-A12');
    expect(result.failed).toEqual([]);
    expect(result.notes!.some((n) => n.startsWith('skipped:L2-A12:'))).toBe(true);
  });

  it('binds result.json to report.json by the JCS digest of the report', async () => {
    const out = tmp();
    const { result } = await finalizeRun(makeReport(), out, quiet());
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(schemaProblems('report', report)).toEqual([]);
    expect(result.notes).toContain(`report_jcs_sha256:${reportDigest(report)}`);
  });

  it('writes statement.json in the conformance.md section 1 shape with the attained level', async () => {
    const out = tmp();
    await finalizeRun(makeReport({ level: 2, statuses: { 'L2-A1': 'fail' } }), out, quiet());
    const statement = JSON.parse(readFileSync(join(out, 'statement.json'), 'utf8'));
    expect(statement).toEqual({
      oap: '1.0',
      implementation: 'testharness',
      version: '1.2.3',
      level: 0,
      encodings: ['yaml', 'json'],
      discovery_roots: ['project', 'user'],
      unimplemented: ['extends'],
    });
    expect(schemaProblems('statement', statement)).toEqual([]);
  });

  it('exits 1 and names the IDs when the claim does not hold', async () => {
    const io = quiet();
    const { exitCode, result } = await finalizeRun(makeReport({ level: 1, statuses: { 'L1-I3': 'fail' } }), tmp(), io);
    expect(exitCode).toBe(1);
    expect(result.failed).toEqual(['L1-I3']);
    expect(io.stderr.text()).toMatch(/^oap-conform: claim-not-held: level 1 claim does not hold: L1-I3 failed\n$/);
  });

  it('a dirty fixture checkout writes a marked result and exits 1 unless allowed', async () => {
    const io = quiet();
    const blocked = await finalizeRun(makeReport({ dirty: true }), tmp(), io);
    expect(blocked.exitCode).toBe(1);
    expect(blocked.result.notes!.some((n) => n.startsWith('fixture_dirty:true'))).toBe(true);
    expect(io.stderr.text()).toContain('dirty-fixtures');
    const allowed = await finalizeRun(makeReport({ dirty: true }), tmp(), { ...quiet(), allowDirty: true });
    expect(allowed.exitCode).toBe(0);
    expect(allowed.result.notes!.some((n) => n.startsWith('fixture_dirty:true (allowed'))).toBe(true);
  });

  it('maps adapter failures to 3 and interruptions to 130', async () => {
    expect((await finalizeRun(makeReport({ footer: { complete: false, adapter_error: 'spawn ENOENT' } }), tmp(), quiet())).exitCode).toBe(
      3,
    );
    expect((await finalizeRun(makeReport({ footer: { complete: false, interrupted: true } }), tmp(), quiet())).exitCode).toBe(130);
  });

  it('writes only the selected formats, plus result and report', async () => {
    const out = tmp();
    await finalizeRun(makeReport(), out, { ...quiet(), formats: ['badge,junit'] });
    expect(readdirSync(out).sort()).toEqual(['badge.json', 'junit.xml', 'report.json', 'result.json']);
  });

  it('refuses an unknown format with a code before writing anything', async () => {
    const out = join(tmp(), 'never');
    await expect(finalizeRun(makeReport(), out, { ...quiet(), formats: ['pdf'] })).rejects.toMatchObject({ code: 'unknown-format' });
    expect(() => readdirSync(out)).toThrow();
  });

  it('prints the per-level summary table with the attained level', async () => {
    const io = quiet();
    await finalizeRun(makeReport({ level: 2, statuses: { 'L2-S3': 'fail' } }), tmp(), io);
    const text = io.stdout.text();
    expect(text).toContain('Level 1 (Read)');
    expect(text).toContain('Level 2 (Read/Write)');
    expect(text).not.toContain('Level 3 (Full)');
    expect(text).toMatch(/L2-S3 +MUST +fail +0 +1 +0 +0 /);
    expect(text).toContain('Attained level: none');
    expect(text).toContain('FAIL: testharness 1.2.3 does not meet OAP 1.0.1 level 2');
  });

  it('refuses to write a result the official schema rejects', async () => {
    const report = makeReport();
    report.header.adapter.handshake.implementation.name = '';
    await expect(finalizeRun(report, tmp(), quiet())).rejects.toMatchObject({ code: 'invalid-result' });
  });
});
