/**
 * Issue 24 item 1, its acceptance: the mutant that ignores a denylist fails with a difference naming
 * `git/commit` and `write` as extra tools, and no position-by-position list, in JSON, Markdown,
 * HTML, JUnit and SARIF (every format renders the one `differences` list of the record).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../results/model.js';
import { runCli } from '../support/cli.js';
import { parseXml, type XmlElement } from '../reports/xml.js';

const dir = mkdtempSync(join(tmpdir(), 'oap-set-diff-'));
const out = join(dir, 'results');
const CASE = 'L1-I2/denylist-ignores-allow'; // denylist deny: [git/commit, write]; the mutant grants both
const EXTRA = /\/tools: extra "git\/commit", "write"/;

let status: number;
let stdout: string;
beforeAll(async () => {
  const r = await runCli(
    [
      'run',
      '--adapter',
      'builtin:mutant/denylist-ignored',
      '--level',
      '1',
      '--case',
      CASE,
      '--fuzz',
      '0',
      '--allow-dirty',
      '--quiet',
      '--format',
      'result,report,markdown,html,junit,sarif',
      '--out',
      out,
    ],
    { env: { CI: 'true' } },
  );
  status = r.status;
  stdout = r.stdout;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (name: string): string => readFileSync(join(out, name), 'utf8');
/** A pointer into the tools array by index: the position-by-position list the set comparison replaces. */
const BY_POSITION = /\/tools\/\d|"\/\d+"|^\/\d+:/m;

describe('a set-valued dimension differs by its extra members', () => {
  it('report.json: one difference at /tools listing git/commit and write as extra', () => {
    expect(status).toBe(1);
    const report = JSON.parse(read('report.json')) as RunReport;
    const c = report.cases.find((x) => x.id === CASE)!;
    expect(c.status).toBe('fail');
    expect(c.status === 'fail' && c.differences).toEqual([{ pointer: '/tools', extra: ['git/commit', 'write'] }]);
    expect(c.status === 'fail' && c.message).toMatch(EXTRA);
  });

  it('summary.md and the terminal', () => {
    const md = read('summary.md');
    expect(md).toMatch(/- \/tools: extra "git\/commit", "write"/);
    expect(md).not.toMatch(BY_POSITION);
    expect(stdout).toMatch(EXTRA);
    expect(stdout).not.toMatch(/^\s+\/\d+: /m);
    // The failure links the reading it rests on: the glob dialect and the protocol's policy section.
    expect(stdout).toMatch(/^ +reading: INTERPRETATIONS\.md#glob-dialect, .*protocol\/PROTOCOL\.md#51-the-harness-policy/m);
    expect(md).toContain('- reading: `INTERPRETATIONS.md#glob-dialect`');
  });

  it('report.html: the row names the extra members in the observed column', () => {
    const html = read('report.html');
    expect(html).toContain('<td class="nowrap">/tools</td><td></td><td>extra &quot;git/commit&quot;, &quot;write&quot;</td>');
    expect(html).not.toMatch(/<td class="nowrap">\/\d+<\/td>/);
  });

  it('junit.xml: the failure message and body', () => {
    const failures: XmlElement[] = [];
    const walk = (e: XmlElement): void => {
      if (e.name === 'failure') failures.push(e);
      e.children.forEach(walk);
    };
    walk(parseXml(read('junit.xml')));
    const failure = failures.find((f) => f.attrs.message?.includes('git/commit'))!;
    expect(failure.attrs.message).toMatch(EXTRA);
    expect(failure.text).toMatch(/^ {2}\/tools: extra "git\/commit", "write"$/m);
    expect(failure.text).not.toMatch(BY_POSITION);
  });

  it('results.sarif: the result message and its differences property', () => {
    const sarif = JSON.parse(read('results.sarif')) as {
      runs: { results: { ruleId: string; message: { text: string }; properties: { differences?: unknown } }[] }[];
    };
    const result = sarif.runs[0]!.results.find((r) => r.ruleId === 'L1-I2')!;
    expect(result.message.text).toMatch(EXTRA);
    expect(result.properties.differences).toEqual([{ pointer: '/tools', extra: ['git/commit', 'write'] }]);
  });
});
