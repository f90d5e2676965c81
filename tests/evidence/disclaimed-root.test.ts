/**
 * Issue 24 item 6, the false failure: a harness that declares the project and user roots but also
 * reads a managed root when given one (builtin:hider/disclaims-managed-root). The probe notices it;
 * the cases then judge with the root the probe found, so no L1-D3 case fails and L1-I4 is not left
 * inconclusive, and the terminal says what was found.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHiderAdapter } from '../../harnesses/hiders/index.js';
import { renderTerminalSummary } from '../../reports/terminal.js';
import { evaluateRun } from '../../results/outcome.js';
import type { CaseOutcome } from '../../results/record.js';
import { computeVerdicts } from '../../results/verdicts.js';
import { makeReport } from '../results/make-report.js';
import { recordsOf, runSuiteInProcess } from '../support/run-suite.js';

let outcomes: CaseOutcome[];
beforeAll(async () => {
  outcomes = await runSuiteInProcess(async () => createHiderAdapter('disclaims-managed-root'), {
    level: 1,
    filter: (c) => c.requirements.some((id) => id === 'L1-D3' || id === 'L1-I4'),
  });
}, 120_000);

describe('a harness that disclaims the managed root but reads it', () => {
  it('declares only the user and project roots', async () => {
    const hs = (await createHiderAdapter('disclaims-managed-root').handle('initialize', {
      protocol_versions: ['1.0'],
      runner: { name: 't', version: '0' },
    })) as { discovery_roots: string[] };
    expect(hs.discovery_roots).not.toContain('managed');
    expect(hs.discovery_roots).toEqual(expect.arrayContaining(['user', 'project']));
  });

  it('fails no L1-D3 case, and L1-I4 passes: the cases judge with the root the probe found', () => {
    const d3 = outcomes.filter((o) => o.requirements.includes('L1-D3'));
    expect(d3.length).toBeGreaterThanOrEqual(3);
    expect(d3.filter((o) => o.status !== 'pass').map((o) => `${o.id}: ${o.status}`)).toEqual([]);
    const verdicts = computeVerdicts(recordsOf(outcomes));
    expect(verdicts.byId.get('L1-D3')?.verdict).toBe('pass');
    expect(verdicts.byId.get('L1-I4')?.verdict).toBe('pass');
  });

  it('notes the root found on each case that used it, and the terminal shows the note', () => {
    const managed = outcomes.filter((o) => /(^|\/|-)(managed-root|over-managed)/.test(o.id));
    expect(managed.length).toBeGreaterThan(0);
    for (const o of managed)
      expect(o.notes?.['capability-present-although-disclaimed'], o.id).toEqual([
        'discover listed a profile placed only in the managed root',
      ]);
    const text = renderTerminalSummary(evaluateRun({ ...makeReport({ level: 1 }), cases: recordsOf(outcomes) }));
    expect(text).toMatch(
      /Declared absent in the handshake but present .*\n {2}discover listed a profile placed only in the managed root: \d+ cases \(L1-D3\//,
    );
  });
});
