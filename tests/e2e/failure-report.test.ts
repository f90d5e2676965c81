/**
 * A failure a reader can act on, end to end through the CLI: a mutant run's terminal output,
 * summary.md, junit.xml and report.html each show the failing case's difference, its inputs and the
 * line that reruns it; running that line (as printed) reproduces exactly that verdict; with
 * --keep-workspaces the case's workspace is named after its ID and the report links it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord, RunReport } from '../../results/model.js';
import { shellWords } from '../../runner/engine/shell-words.js';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'oap-failure-'));
const out = join(dir, 'results');
const MUTANT = 'budgets-profile-wins'; // breaks exactly L1-I3: the profile's budget replaces the policy's
const CASE = 'L1-I3/budgets-take-the-smaller-limit';

/** The CLI in this process (tests/support/cli.ts), in `dir`, where the rerun line writes its default output. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // CI=true: plain lines, no colour, as a log would have them.
  const r = await runCli(argv, { cwd: dir, env: { CI: 'true' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let first: Awaited<ReturnType<typeof run>>;
beforeAll(async () => {
  first = await run([
    'run',
    '--adapter',
    `builtin:mutant/${MUTANT}`,
    '--level',
    '1',
    // One case, so its failure is the one group every format shows (other L1-I3 budget cases fail too).
    '--case',
    CASE,
    '--fuzz',
    '0',
    '--keep-workspaces',
    '--allow-dirty',
    '--quiet',
    '--out',
    out,
  ]);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const recordOf = (report: RunReport, id: string) => report.cases.find((c) => c.id === id) as CaseRecord;

describe('a failing case in every format', () => {
  it('the terminal shows the difference, the inputs and the rerun line, grouped under check failures', () => {
    expect(first.code, first.stderr).toBe(1);
    const text = first.stdout;
    expect(text).toContain('Check failures:');
    expect(text).toMatch(/\[1\/1\] FAIL L1-I3: effective budgets/);
    expect(text).toContain('/budgets/max_turns: {"atMost":20} vs 50');
    expect(text).toMatch(/input subject file workspace\/\.agents\/budgets-narrowed\.agent\.yaml:\n\s+oap: "1\.0"/);
    expect(text).toContain('input policy:');
    expect(text).toContain(`rerun: oap-conform run --adapter builtin:mutant/${MUTANT} --level 1 --case ${CASE} --seed `);
    // The failures come before the claim.
    expect(text.indexOf('Check failures:')).toBeLessThan(text.indexOf('PARTIAL:'));
  });

  it('summary.md, junit.xml and report.html show them too', () => {
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toContain('/budgets/max\\_turns: {"atMost":20} vs 50');
    expect(md).toContain('<summary>inputs</summary>');
    expect(md).toMatch(
      new RegExp(`\`\`\`sh\\noap-conform run --adapter builtin:mutant/${MUTANT} --level 1 --case ${CASE.replace('/', '\\/')} --seed \\d+`),
    );
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain('/budgets/max_turns: {"atMost":20} vs 50');
    expect(junit).toContain(`--case ${CASE}`);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<td class="nowrap">/budgets/max_turns</td><td>{&quot;atMost&quot;:20}</td><td>50</td>');
    expect(html).toContain('input: policy');
    expect(html).toContain(`--case ${CASE} --seed`);
  });

  it('the kept workspace is named after the case and the report links it', () => {
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    const rec = recordOf(report, CASE);
    expect(rec.workspace).toBeDefined();
    expect(basename(rec.workspace!)).toBe('L1-I3_budgets-take-the-smaller-limit');
    expect(existsSync(join(rec.workspace!, 'workspace', '.agents', 'budgets-narrowed.agent.yaml'))).toBe(true);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(`href="file://${rec.workspace}"`);
  });

  it('running the printed rerun line reproduces exactly that verdict', async () => {
    const line = /rerun: (oap-conform run .*)$/m.exec(first.stdout)![1]!;
    const [command, ...argv] = shellWords(line);
    expect(command).toBe('oap-conform');
    const again = await run([...argv, '--quiet', '--allow-dirty']);
    expect(again.stdout).toContain('[1/1] FAIL L1-I3');
    const before = recordOf(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport, CASE);
    const rerun = JSON.parse(readFileSync(join(dir, 'oap-conform-rerun', 'report.json'), 'utf8')) as RunReport;
    expect(rerun.cases.map((c) => c.id)).toEqual([CASE]);
    const after = recordOf(rerun, CASE);
    const verdict = (c: CaseRecord) => ({
      status: c.status,
      message: c.status === 'pass' ? undefined : c.message,
      differences: c.status === 'fail' ? c.differences : undefined,
      inputs: c.inputs,
    });
    expect(verdict(after)).toEqual(verdict(before));
    expect(rerun.header.options.case).toEqual([CASE]);
    // The full run's results were not touched by the rerun.
    expect(existsSync(join(out, 'report.json'))).toBe(true);
  });
});
