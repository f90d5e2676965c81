/**
 * Issue 24 item 6, the terminal: the duration at the end, a --case run listing only the IDs it
 * reached, an interrupted run saying INTERRUPTED (never FAIL beside "N/N passed"), and rerun lines
 * that start with the command as it was invoked (`npx oap-conform` under npm exec). The live line's
 * elapsed time and estimate are tests/reports/progress.test.ts's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderTerminalSummary } from '../../reports/terminal.js';
import { evaluateRun } from '../../results/outcome.js';
import { makeReport, withFooter } from '../results/make-report.js';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'oap-terminal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the terminal summary', () => {
  it('a --case run invoked through npx lists only the ID it reached, says how long it took, and reruns with npx', async () => {
    const r = await runCli(
      [
        'run',
        '--adapter',
        'builtin:mutant/denylist-ignored',
        '--level',
        '1',
        '--case',
        'L1-I2/denylist-minus-deny',
        '--fuzz',
        '0',
        '--quiet',
        '--allow-dirty',
        '--out',
        join(dir, 'case'),
      ],
      { env: { CI: 'true', npm_command: 'exec' } },
    );
    expect(r.status).toBe(1);
    const table = r.stdout.slice(r.stdout.indexOf('Level 1'), r.stdout.indexOf('Cases:'));
    expect(table.match(/^ {2}L1-\w+ /gm)).toEqual(['  L1-I2 ']);
    expect(r.stdout).toMatch(/^Cases: 1 total, .*; took \d/m);
    expect(r.stdout).toContain('Required (MUST) IDs reached by this partial run: 0/1 passed');
    expect(r.stdout).toMatch(
      /rerun: npx oap-conform run --adapter builtin:mutant\/denylist-ignored --level 1 --case L1-I2\/denylist-minus-deny /,
    );
  }, 60_000);

  it('an interrupted run says INTERRUPTED, not FAIL, and judges no level', () => {
    const base = makeReport({ level: 1 });
    const stopped = withFooter({ header: base.header, cases: base.cases.slice(0, 5) }, { interrupted: true, complete: false });
    const text = renderTerminalSummary(evaluateRun(stopped));
    expect(text).toMatch(/^INTERRUPTED: testharness 1\.2\.3: the run was stopped after 5 case\(s\), so no level is judged/m);
    expect(text).not.toMatch(/^FAIL:/m);
    expect(text).not.toMatch(/Attained level/);
    expect(text).toContain('Required (MUST) IDs judged before the run was stopped (5 case(s) ran): 5/5 passed');
  });
});
