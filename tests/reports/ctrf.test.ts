/**
 * Issue 24 item 5: `--format ctrf` writes ctrf-report.json, from the same result model as junit.xml,
 * and it validates against the CTRF schema (vendored from the `ctrf` package, the reference
 * implementation: CTRF-SCHEMA-NOTICE.md). Draft-07, so the default ajv class reads it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCtrf } from '../../reports/ctrf.js';
import { evaluateRun } from '../../results/outcome.js';
import { fromRoot } from '../../spec/package-root.js';
import { makeCase, makeReport } from '../results/make-report.js';
import { runCli } from '../support/cli.js';

const schema = JSON.parse(readFileSync(fromRoot('tests', 'reports', 'ctrf-schema-0.0.json'), 'utf8')) as object;
// ajv-formats is CommonJS with `exports.default` (as spec/document/ajv.ts loads it).
const formats = createRequire(import.meta.url)('ajv-formats') as { default: (ajv: Ajv) => Ajv };
const validate = formats.default(new Ajv({ allErrors: true, strict: false })).compile(schema);
const problems = (doc: unknown): unknown[] => (validate(doc) ? [] : (validate.errors ?? []));

const dir = mkdtempSync(join(tmpdir(), 'oap-ctrf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface CtrfTest {
  testId: string;
  status: string;
  rawStatus: string;
  suite: string[];
  message?: string;
  trace?: string;
  extra?: { differences?: unknown[]; rerun?: string };
}

describe('CTRF JSON', () => {
  it('a mutant run with --format ctrf writes ctrf-report.json that validates against the CTRF schema', async () => {
    const out = join(dir, 'mutant');
    const r = await runCli(
      [
        'run',
        '--adapter',
        'builtin:mutant/denylist-ignored',
        '--level',
        '1',
        '--fuzz',
        '0',
        '--quiet',
        '--allow-dirty',
        '--format',
        'ctrf',
        '--out',
        out,
      ],
      { env: { CI: 'true' } },
    );
    expect(r.status).toBe(1);
    const doc = JSON.parse(readFileSync(join(out, 'ctrf-report.json'), 'utf8')) as {
      results: { summary: Record<string, number>; tests: CtrfTest[] };
    };
    expect(problems(doc)).toEqual([]);
    const failed = doc.results.tests.filter((t) => t.status === 'failed');
    // The hand-written denylist cases and the catalogue's generated tool cases (suites/catalogue) that meet the same defect.
    expect(failed.map((t) => t.testId)).toEqual([
      'L1-I2/catalogue-tools-allow',
      'L1-I2/catalogue-tools-deny',
      'L1-I2/catalogue-tools-policy',
      'L1-I2/denylist-ignores-allow',
      'L1-I2/denylist-minus-deny',
    ]);
    const first = failed.find((t) => t.testId === 'L1-I2/denylist-ignores-allow')!;
    expect(first.suite).toEqual(['OAP 1.0.1 Level 1 (Read)', 'L1-I2']);
    expect(first.message).toMatch(/\/tools: extra "git\/commit", "write"/);
    expect(first.trace).toMatch(/^ {2}\/tools: extra "git\/commit", "write"$/m);
    expect(first.extra?.differences).toEqual([{ pointer: '/tools', extra: ['git/commit', 'write'] }]);
    expect(first.extra?.rerun).toMatch(/--case L1-I2\/denylist-ignores-allow/);
    expect(doc.results.summary.failed).toBe(5);
    expect(doc.results.summary.tests).toBe(doc.results.tests.length);
  }, 120_000);

  it('every status maps as in JUnit; an advisory never fails; the summary counts each', () => {
    const statuses = ['pass', 'fail', 'error', 'timeout', 'skipped', 'inconclusive', 'not-applicable'] as const;
    const o = evaluateRun(
      makeReport({
        level: 1,
        extraCases: [
          ...statuses.map((s) => makeCase(`L1-P1/${s}`, ['L1-P1'], s)),
          makeCase('ADV-vars-undefined/empty-string', ['ADV-vars-undefined'], 'fail', { message: 'became ""' }),
        ],
      }),
    );
    const doc = buildCtrf(o) as { results: { summary: Record<string, number>; tests: CtrfTest[] } };
    expect(problems(doc)).toEqual([]);
    expect(problems({ ...doc, reportFormat: 'JUnit' })).not.toEqual([]); // the schema does judge
    const byId = new Map(doc.results.tests.map((t) => [t.testId, t]));
    expect(statuses.map((s) => [s, byId.get(`L1-P1/${s}`)?.status])).toEqual([
      ['pass', 'passed'],
      ['fail', 'failed'],
      ['error', 'other'],
      ['timeout', 'other'],
      ['skipped', 'skipped'],
      ['inconclusive', 'other'],
      ['not-applicable', 'skipped'],
    ]);
    const advisory = byId.get('ADV-vars-undefined/empty-string')!;
    expect(advisory).toMatchObject({
      status: 'other',
      rawStatus: 'fail',
      suite: [expect.stringMatching(/advisories .*never gating/), 'ADV-vars-undefined'],
    });
    const { summary } = doc.results;
    const by = ['passed', 'failed', 'skipped', 'pending', 'other'].map((k) => summary[k] ?? Number.NaN);
    expect(by.reduce((a, b) => a + b, 0)).toBe(summary.tests);
    expect(summary.failed).toBe(1);
  });
});
