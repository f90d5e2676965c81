import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../reports/html.js';
import type { CaseRecord } from '../../results/model.js';
import { evaluateRun } from '../../results/outcome.js';
import { REQUIREMENTS } from '../../spec/requirements.js';
import { SENTENCES } from '../../spec/sentences.js';
import { makeCase, makeReport } from '../results/make-report.js';
import { chromiumSkipReason, launchChromium } from '../support/chromium.js';

const INJECTION = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

/** A failure with what the engine records for one: differences, inputs, fixture files. */
const budgets = {
  ...makeCase('L1-I3/budgets-take-the-smaller-limit', ['L1-I3'], 'fail', {
    message: 'effective budgets: /budgets/max_tool_calls is not what the narrowing rule gives',
    fixture_files: ['fixtures/level-1/budgets.agent.yaml'],
  }),
  differences: [{ pointer: '/budgets/max_tool_calls', expected: 10, observed: 100 }],
  inputs: { 'file workspace/.agents/budgets.agent.yaml': 'oap: "1.0"\nkind: AgentProfile\n', policy: { budgets: { max_tool_calls: 10 } } },
} as CaseRecord;

const outcome = () =>
  evaluateRun(
    makeReport({
      level: 2,
      statuses: { 'L1-I3': 'fail', 'L2-A5': 'inconclusive', 'L1-D1': 'not-applicable' },
      name: 'harness<b>bold</b>',
      extraCases: [
        budgets,
        makeCase('L1-I6/evil', ['L1-I6'], 'fail', { message: INJECTION, stderr: `</pre>${INJECTION}`, observed: { x: INJECTION } }),
      ],
    }),
  );

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('report.html', () => {
  it('is self-contained, escapes every piece of adapter-supplied text, and allows exactly its one script by hash', () => {
    const html = renderHtml(outcome());
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]![1]!).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html.replace(scripts[0]![0], '')).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//i);
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('harness&lt;b&gt;bold&lt;/b&gt;');
  });

  // Runs wherever Chromium is installed; CI installs it (.ci/run), so there the test never skips.
  const skip = chromiumSkipReason();
  it.skipIf(skip !== undefined)(
    `filters by status, level and search, keeps the filter in the hash, expands cases, shows the rerun line${skip ? ` [skipped: ${skip}]` : ''}`,
    async () => {
      const o = outcome();
      const dir = mkdtempSync(join(tmpdir(), 'oap-html-'));
      dirs.push(dir);
      const file = join(dir, 'report.html');
      writeFileSync(file, renderHtml(o));
      const { context, dir: profile } = await launchChromium();
      dirs.push(profile);
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        const requests: string[] = [];
        const errors: string[] = [];
        page.on('request', (r) => requests.push(r.url()));
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        await page.goto(pathToFileURL(file).href);
        const total = o.report.cases.length;
        expect(await page.locator('#requirements tbody tr').count()).toBe(REQUIREMENTS.filter((q) => q.level <= 2).length);
        expect(await page.locator('#requirements tbody tr[data-id="L1-I3"] td').nth(3).textContent()).toBe('fail');
        expect(await page.locator('#cases > tbody > tr:visible').count()).toBe(total);
        expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();

        // Failures come first, with the difference, the inputs and the line that reruns the case.
        const failures = page.locator('#failures ~ .group').first();
        expect(await page.locator('h2').first().textContent()).toMatch(/^Failures/);
        const group = page.locator('.group', { hasText: 'L1-I3/budgets-take-the-smaller-limit' });
        expect(await group.locator('.diffs td').allTextContents()).toEqual(['/budgets/max_tool_calls', '10', '100']);
        expect(await group.locator('.rerun-line').textContent()).toBe(
          'oap-conform run --adapter builtin:test --level 2 --case L1-I3/budgets-take-the-smaller-limit --seed 42 --out oap-conform-rerun',
        );
        expect(await group.locator('details.input summary').allTextContents()).toEqual([
          'input: file workspace/.agents/budgets.agent.yaml',
          'input: policy',
        ]);
        expect(await failures.count()).toBeGreaterThan(0);

        // Status select: only failing cases; the hash holds the filter.
        await page.selectOption('#fs', 'fail');
        const failing = o.report.cases.filter((c) => c.status === 'fail').length;
        expect(await page.locator('#cases > tbody > tr:visible').count()).toBe(failing);
        expect(decodeURIComponent(new URL(page.url()).hash)).toBe('#q=s:fail');
        // Level select narrows further; the search box takes the same grammar.
        await page.selectOption('#fl', '2');
        expect(await page.locator('#cases > tbody > tr:visible').count()).toBe(0);
        await page.fill('#q', 'evil');
        expect(await page.locator('#cases > tbody > tr:visible').count()).toBe(1);
        expect(await page.locator('#cases > tbody > tr:visible td.id').textContent()).toBe('L1-I6/evil');
        await page.fill('#q', 'r:L2-* !s:pass');
        expect(await page.locator('#cases > tbody > tr:visible').count()).toBe(1);
        expect(await page.locator('#cases > tbody > tr:visible').getAttribute('data-status')).toBe('inconclusive');
        await page.fill('#q', 's:not-applicable');
        expect(await page.locator('#cases > tbody > tr:visible td').nth(1).textContent()).toBe('not-applicable');
        // A pasted link restores the view.
        await page.goto(`${pathToFileURL(file).href}#q=${encodeURIComponent('l:1 s:fail')}`);
        expect(await page.inputValue('#q')).toBe('l:1 s:fail');
        expect(await page.locator('#cases > tbody > tr:visible').count()).toBe(failing);

        // Expanding a case shows its evidence, and its ID goes into the hash.
        await page.fill('#q', '');
        const row = page.locator('#cases > tbody > tr[data-id="L1-I3/budgets-take-the-smaller-limit"]');
        expect(await row.locator('details.case').getAttribute('open')).toBeNull();
        await row.locator('details.case > summary').click();
        expect(await row.locator('details.case').getAttribute('open')).toBe('');
        expect(await row.locator('.rerun-line').isVisible()).toBe(true);
        expect(decodeURIComponent(new URL(page.url()).hash)).toBe('#open=L1-I3/budgets-take-the-smaller-limit');
        // The ID cell never wraps.
        const style = (td: unknown) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { whiteSpace: string } }).getComputedStyle(td).whiteSpace;
        expect(await row.locator('td.id').evaluate(style)).toBe('nowrap');
        // Statuses are shown as themselves, an inconclusive case with its cause.
        const inconclusive = page.locator('#cases > tbody > tr[data-status="inconclusive"]');
        expect(await inconclusive.locator('td').nth(1).textContent()).toBe('inconclusive');
        expect(await inconclusive.locator('.cause').textContent()).toContain('control profile rejected');

        expect(errors).toEqual([]);
        expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it.skipIf(skip !== undefined)(
    `shows the spec sentence by sentence, marked with the run's verdicts, filterable, linked to its cases${skip ? ` [skipped: ${skip}]` : ''}`,
    async () => {
      const o = outcome();
      const dir = mkdtempSync(join(tmpdir(), 'oap-html-'));
      dirs.push(dir);
      const file = join(dir, 'report.html');
      writeFileSync(file, renderHtml(o));
      const { context, dir: profile } = await launchChromium();
      dirs.push(profile);
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(pathToFileURL(file).href);
        const sentences = page.locator('#spec-text .sentence');
        expect(await sentences.count()).toBe(SENTENCES.length);
        // Document order under the headings, each quoted with its verdict.
        expect(await page.locator('#spec-text h3').allTextContents()).toEqual(['SPEC.md', 'security.md', 'conformance.md']);
        const i3 = page.locator('#sentence-CONF-2\\.3-3');
        expect(await i3.getAttribute('data-verdict')).toBe('fail');
        expect(await i3.locator('.mark').textContent()).toBe('fail');
        expect(await i3.locator('q').textContent()).toContain('MUST intersect tools, permissions, filesystem roots');
        expect(await page.locator('#sentence-SPEC-1\\.4-1').getAttribute('data-verdict')).toBe('excluded');
        // A Level 3 sentence in a Level 2 run was not observed, and says why.
        const e1 = page.locator('#sentence-CONF-4-1');
        expect(await e1.getAttribute('data-verdict')).toBe('not-observed');
        expect(await e1.textContent()).toContain("is above the run's (2)");
        // The verdict select and the search box filter; the hash keeps it beside the case filter.
        await page.selectOption('#sv', 'fail');
        const failing = o.sentences.filter((v) => v.verdict === 'fail').length;
        expect(await page.locator('#spec-text .sentence:visible').count()).toBe(failing);
        expect(decodeURIComponent(new URL(page.url()).hash)).toBe('#sq=v:fail');
        await page.fill('#sq', 'v:fail f:security.md');
        expect(await page.locator('#spec-text .sentence:visible').count()).toBe(
          o.sentences.filter((v) => v.verdict === 'fail' && v.sentence.source === 'security.md').length,
        );
        await page.selectOption('#sv', 'pass');
        expect(await page.inputValue('#sq')).toBe('f:security.md v:pass');
        expect(await page.locator('#spec-text .sentence:visible').count()).toBe(
          o.sentences.filter((v) => v.verdict === 'pass' && v.sentence.source === 'security.md').length,
        );
        // A sentence's case link filters the case table to the cases that observe it.
        await page.fill('#sq', 'CONF-2.3-3');
        await i3.locator('a', { hasText: /cases?$/ }).click();
        expect(await page.inputValue('#q')).toBe('t:CONF-2.3-3');
        const shown = await page.locator('#cases > tbody > tr:visible td.id').allTextContents();
        expect(shown.sort()).toEqual(o.sentences.find((v) => v.sentence.id === 'CONF-2.3-3')!.caseIds.sort());
        expect(decodeURIComponent(new URL(page.url()).hash)).toBe('#q=t:CONF-2.3-3');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it.skipIf(skip !== undefined)(
    `with scripts off, shows every case, expandable, and hides the filter${skip ? ` [skipped: ${skip}]` : ''}`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'oap-html-'));
      dirs.push(dir);
      const file = join(dir, 'report.html');
      const o = outcome();
      writeFileSync(file, renderHtml(o));
      const { context, dir: profile } = await launchChromium({ javaScriptEnabled: false });
      dirs.push(profile);
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        await page.goto(`${pathToFileURL(file).href}#q=s:fail`);
        expect(await page.locator('#filter').isVisible()).toBe(false);
        expect(await page.locator('#spec-filter').isVisible()).toBe(false);
        expect(await page.locator('#spec-text .sentence:visible').count()).toBe(SENTENCES.length);
        expect(await page.locator('#cases > tbody > tr:visible').count()).toBe(o.report.cases.length);
        const row = page.locator('#cases > tbody > tr[data-id="L1-I6/evil"]');
        await row.locator('details.case > summary').click();
        expect(await row.locator('details.case').getAttribute('open')).toBe('');
      } finally {
        await context.close();
      }
    },
  );
});
