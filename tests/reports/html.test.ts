import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../reports/html.js';
import { evaluateRun } from '../../results/outcome.js';
import { REQUIREMENTS } from '../../suites/requirements.js';
import { makeCase, makeReport } from '../results/make-report.js';

const CHROMIUM = '/usr/bin/chromium';
const INJECTION = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

const outcome = () =>
  evaluateRun(
    makeReport({
      level: 2,
      statuses: { 'L1-I3': 'fail', 'L2-A5': 'inconclusive' },
      name: 'harness<b>bold</b>',
      extraCases: [
        makeCase('L1-I6/evil', ['L1-I6'], 'fail', { message: INJECTION, stderr: `</pre>${INJECTION}`, observed: { x: INJECTION } }),
      ],
    }),
  );

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('report.html', () => {
  it('is self-contained and escapes every piece of adapter-supplied text', () => {
    const html = renderHtml(outcome());
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//i);
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('harness&lt;b&gt;bold&lt;/b&gt;');
    expect(html).toContain('Content-Security-Policy');
  });

  // Runs wherever Chromium is installed; CI installs it (.ci/run), so there the test never skips.
  const haveChromium = existsSync(CHROMIUM);
  const skipReason = !haveChromium && process.env.CI !== 'true' ? `${CHROMIUM} is not installed (apt-get install -y chromium)` : undefined;
  it.skipIf(skipReason !== undefined)(
    `renders in headless Chromium with one table row per requirement ID${skipReason ? ` [skipped: ${skipReason}]` : ''}`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'oap-html-'));
      dirs.push(dir);
      const file = join(dir, 'report.html');
      writeFileSync(file, renderHtml(outcome()));
      const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        const requests: string[] = [];
        page.on('request', (r) => requests.push(r.url()));
        await page.goto(pathToFileURL(file).href);
        const rows = await page.locator('#requirements tbody tr').count();
        expect(rows).toBe(REQUIREMENTS.filter((q) => q.level <= 2).length);
        expect(await page.locator('#requirements tbody tr[data-id="L1-I3"] td').nth(3).textContent()).toBe('fail');
        expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
        expect(await page.locator('details.case', { hasText: 'L1-I6/evil' }).textContent()).toContain(
          '<script>window.__pwned = 1</script>',
        );
        // Failing cases are expanded, passing ones collapsed.
        expect(await page.locator('details.case[open]').count()).toBe(3);
        expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
