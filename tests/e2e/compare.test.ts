/**
 * `oap-conform compare` over three runs of Level 1 (the reference and two mutants, each breaking
 * one ID; the budgets mutant also leaves one L1-I9 case with nothing narrowed to record, so L1-I9 is
 * inconclusive there): the matrix puts the three disagreeing IDs first, shows each run's level, attained level,
 * fixture revision and runner, and links each verdict to that run's cases; tested in Chromium.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium } from '../support/chromium.js';
import { runCli } from '../support/cli.js';
import { REFERENCE_SEED, referenceLevel1 } from '../support/reference-run.js';

const dir = mkdtempSync(join(tmpdir(), 'oap-compare-'));
/** The mutants, run at the seed of the reference's shared run (tests/support/reference-run.ts). */
const MUTANT_RUNS = [
  { adapter: 'builtin:mutant/budgets-profile-wins', out: 'budgets' }, // breaks L1-I3
  { adapter: 'builtin:mutant/trust-from-file', out: 'trust' }, // breaks L1-I4
];

/** The CLI in this process (tests/support/cli.ts); `at` makes a path under `dir` absolute. */
const cli = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  const r = await runCli(args);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const at = (...p: string[]): string => join(dir, ...p);

let compared: Awaited<ReturnType<typeof cli>>;
let reference: string;
beforeAll(async () => {
  reference = await referenceLevel1();
  for (const r of MUTANT_RUNS)
    await cli([
      'run',
      '--adapter',
      r.adapter,
      '--level',
      '1',
      '--fuzz',
      '0',
      '--seed',
      REFERENCE_SEED,
      '--quiet',
      '--allow-dirty',
      '--out',
      at(r.out),
    ]);
  // One run named by its directory, one by its result.json, one by its report.json.
  compared = await cli(['compare', reference, at('budgets', 'result.json'), at('trust', 'report.json'), '--out', at('compare')]);
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compare', () => {
  it('says what it compared and writes the page and the Markdown table', () => {
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toMatch(/^compared 3 runs: 3 of \d+ IDs get different verdicts/);
    const md = readFileSync(join(dir, 'compare', 'compare.md'), 'utf8');
    const rows = md.split('\n').filter((l) => /^\| (⚠ )?L1-/.test(l));
    expect(rows.slice(0, 3).map((l) => l.split(' | ')[0])).toEqual(['| ⚠ L1-I3', '| ⚠ L1-I4', '| ⚠ L1-I9']);
    expect(rows[0]).toMatch(/\| pass \| fail \| pass \|$/);
    expect(rows[1]).toMatch(/\| pass \| pass \| fail \|$/);
    expect(rows[2]).toMatch(/\| pass \| inconclusive \| pass \|$/);
  });

  it('puts the normative sentences side by side, the ones the runs observe differently first', () => {
    const md = readFileSync(join(dir, 'compare', 'compare.md'), 'utf8');
    const rows = md.split('\n').filter((l) => /^\| (⚠ )?(SPEC|SEC|CONF)-/.test(l));
    expect(rows).toHaveLength(143);
    const flagged = rows.map((l) => l.startsWith('| ⚠'));
    expect(flagged.indexOf(false)).toBeGreaterThan(0);
    expect(flagged.slice(flagged.indexOf(false)).includes(true)).toBe(false);
    // SPEC 3.1: the trust value in the file is discarded (L1-I4), which the trust mutant breaks.
    expect(rows.find((l) => l.startsWith('| ⚠ SPEC-3.1-1 '))).toMatch(/\| observed pass \| observed pass \| fail \|$/);
  });

  it('refuses what is not a result, in one line', async () => {
    const r = await cli(['compare', reference, join(reference, 'summary.md'), '--out', at('refused')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^oap-conform: bad-json: .*summary\.md is not valid JSON/);
  });

  const skip = chromiumSkipReason();
  it.skipIf(skip !== undefined)(
    `renders the matrix in Chromium, disagreements first, linked to each run's evidence${skip ? ` [skipped: ${skip}]` : ''}`,
    async () => {
      const { context, dir: profile } = await launchChromium();
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        await page.goto(pathToFileURL(join(dir, 'compare', 'compare.html')).href);
        const heads = await page.locator('#matrix thead th').allTextContents();
        expect(heads.slice(2)).toEqual([
          expect.stringMatching(/^oap-conform-reference \d/),
          expect.stringMatching(/^oap-conform-reference\+mutant:budgets-profile-wins /),
          expect.stringMatching(/^oap-conform-reference\+mutant:trust-from-file /),
        ]);
        expect(await page.locator('#runs tbody td.attained').allTextContents()).toEqual(['1', 'none', 'none']);
        const revision = (await page.locator('#runs tbody tr').first().locator('td').nth(4).textContent())!;
        expect(revision).toMatch(/^[0-9a-f]{40}$/);
        const ids = await page
          .locator('#matrix tbody tr[data-id]')
          .evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { id: string } }).dataset.id));
        expect(ids.slice(0, 3)).toEqual(['L1-I3', 'L1-I4', 'L1-I9']);
        expect(await page.locator('#matrix tbody tr.disagree').count()).toBe(3);
        const i3 = page.locator('#matrix tbody tr[data-id="L1-I3"] td');
        expect((await i3.allTextContents()).slice(2).map((t) => t.split(' ')[0])).toEqual(['pass', 'fail', 'pass']);
        // The failing cell links to the failing case; the verdict to the run's cases of the ID, filtered.
        expect(await i3.nth(3).locator('small a').allTextContents()).toContain('L1-I3/budgets-take-the-smaller-limit');
        await i3.nth(3).locator('a').first().click();
        await page.waitForURL(/budgets\/report\.html#q=r%3AL1-I3$/);
        const shown = await page
          .locator('#cases > tbody > tr:visible')
          .evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { reqs: string } }).dataset.reqs));
        expect(shown.length).toBeGreaterThan(1);
        expect(shown.every((reqs) => reqs.split(' ').includes('L1-I3'))).toBe(true);
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    },
  );
});
