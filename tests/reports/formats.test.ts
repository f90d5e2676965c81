import { describe, expect, it } from 'vitest';
import { buildBadge } from '../../reports/badge.js';
import { renderHtml } from '../../reports/html.js';
import { renderTerminalSummary } from '../../reports/terminal.js';
import { renderJunit } from '../../reports/junit.js';
import { renderMarkdown } from '../../reports/markdown.js';
import { buildSarif } from '../../reports/sarif.js';
import { evaluateRun } from '../../results/outcome.js';
import { REQUIREMENTS } from '../../spec/requirements.js';
import { makeCase, makeReport } from '../results/make-report.js';
import { findAll, parseXml } from './xml.js';

const mixed = () =>
  evaluateRun(
    makeReport({
      level: 2,
      statuses: {
        'L1-I3': 'fail',
        'L1-P6': 'error',
        'L2-A5': 'inconclusive',
        'L2-A12': 'timeout',
        'L2-G5': 'skipped',
        'L1-D1': 'not-applicable',
      },
      extraCases: [
        makeCase('L1-I6/evil', ['L1-I6', 'L1-I9'], 'fail', {
          message: 'saw <script>alert(1)</script> & "quotes" | pipe \u001b[31mred\u0007',
          stderr: 'bad bytes \u0000\u0001 and ]]> end',
          expected: { decision: 'deny' },
          observed: { decision: 'allow' },
        }),
      ],
    }),
  );

describe('JUnit XML', () => {
  it('parses as XML with one suite per judged level and distinct failure/error/skip counts', () => {
    const o = mixed();
    const root = parseXml(renderJunit(o));
    expect(root.name).toBe('testsuites');
    const suites = findAll(root, 'testsuite');
    expect(suites.map((s) => s.attrs.name)).toEqual(['OAP 1.0.1 Level 1 (Read)', 'OAP 1.0.1 Level 2 (Read/Write)']);
    const [l1, l2] = suites;
    const l1Count = REQUIREMENTS.filter((q) => q.level === 1).length + 1;
    expect(l1!.attrs).toMatchObject({ tests: String(l1Count), failures: '2', errors: '1', skipped: '1' });
    expect(l2!.attrs).toMatchObject({ failures: '0', errors: '2', skipped: '1' });
    expect(root.attrs).toMatchObject({ tests: String(o.report.cases.length), failures: '2', errors: '3', skipped: '2' });
    const evil = findAll(root, 'testcase').find((t) => t.attrs.name?.startsWith('L1-I6/evil'))!;
    expect(evil.attrs.name).toBe('L1-I6/evil [L1-I6, L1-I9]');
    expect(findAll(evil, 'property').find((p) => p.attrs.name === 'requirements')!.attrs.value).toBe('L1-I6,L1-I9');
    const failure = findAll(evil, 'failure')[0]!;
    expect(failure.attrs.message).toBe('saw <script>alert(1)</script> & "quotes" | pipe red');
    expect(failure.text).toContain('"decision": "allow"');
    expect(findAll(evil, 'system-err')[0]!.text).toBe('bad bytes  and ]]> end');
    const crash = findAll(root, 'testcase').find((t) => t.attrs.name?.startsWith('L2-A5/'))!;
    expect(findAll(crash, 'error')[0]!.attrs.type).toBe('inconclusive');
  });
});

describe('SARIF', () => {
  it('has one rule per requirement ID and one result per failing case', () => {
    const sarif = buildSarif(mixed()) as {
      version: string;
      $schema: string;
      runs: {
        tool: { driver: { name: string; rules: { id: string; defaultConfiguration: { level: string } }[] } };
        results: { ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: unknown[] }[];
      }[];
    };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.$schema).toMatch(/sarif-2\.1\.0/);
    expect(sarif.runs).toHaveLength(1);
    const run = sarif.runs[0]!;
    expect(run.tool.driver.name).toBe('oap-conform');
    expect(run.tool.driver.rules.map((r) => r.id).slice(0, REQUIREMENTS.length)).toEqual(REQUIREMENTS.map((q) => q.id));
    expect(run.tool.driver.rules.find((r) => r.id === 'L2-G5')!.defaultConfiguration.level).toBe('warning');
    expect(run.results.map((r) => r.ruleId).sort()).toEqual(['L1-I3', 'L1-I6']);
    for (const r of run.results) {
      expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
      expect(r.locations.length).toBeGreaterThan(0);
      expect(r.message.text).not.toMatch(/\u001b/);
    }
  });
});

describe('badge', () => {
  it('shows the attained level or "not conformant"', () => {
    expect(buildBadge(evaluateRun(makeReport({ level: 3 })))).toEqual({
      schemaVersion: 1,
      label: 'OAP 1.0.1',
      message: 'Level 3',
      color: 'brightgreen',
    });
    expect(buildBadge(evaluateRun(makeReport({ level: 3, statuses: { 'L3-B2': 'skipped' } })))).toMatchObject({
      message: 'Level 2',
      color: 'green',
    });
    expect(buildBadge(mixed())).toEqual({ schemaVersion: 1, label: 'OAP 1.0.1', message: 'not conformant', color: 'red' });
    expect(buildBadge(evaluateRun(makeReport({ level: 1, dirty: true })))).toMatchObject({ message: 'not conformant' });
    expect(buildBadge(evaluateRun(makeReport({ level: 1, dirty: true }), { allowDirty: true }))).toMatchObject({ message: 'Level 1' });
  });
});

describe('Markdown summary', () => {
  it('has the verdict line, attained level and one row per judged requirement ID', () => {
    const md = renderMarkdown(mixed());
    const lines = md.split('\n');
    expect(lines[0]).toBe('## ❌ FAIL: testharness 1.2.3 does not meet OAP 1.0.1 level 2 (attained level none)');
    expect(md).toContain('**Attained level:** none');
    const rows = lines.filter((l) => /^\| L[123]-[A-Z]\d+ \|/.test(l));
    expect(rows).toHaveLength(REQUIREMENTS.filter((q) => q.level <= 2).length);
    expect(rows.find((r) => r.startsWith('| L1-I3 |'))).toMatch(/\| ❌ fail \| 0 \| 1 \| 0 \| 0 \|/);
    expect(rows.find((r) => r.startsWith('| L1-P6 |'))).toContain('errored');
  });

  it('neutralises adapter text in table cells', () => {
    const md = renderMarkdown(mixed());
    const evilRow = md.split('\n').find((l) => l.startsWith('| L1-I6/evil'))!;
    expect(evilRow).toContain('&lt;script&gt;');
    expect(evilRow).not.toContain('<script>');
    // The escaped pipe keeps the row at four cells.
    expect(evilRow.split(/(?<!\\)\|/).length - 2).toBe(4);
    expect(evilRow).not.toMatch(/\u001b/);
  });
});

describe('advisories in every format', () => {
  const ADV = 'ADV-vars-undefined';
  const o = () =>
    evaluateRun(makeReport({ level: 1, extraCases: [makeCase(`${ADV}/empty-string`, [ADV], 'fail', { message: 'became ""' })] }));

  it('each format shows the advisory apart, with the sentence it rests on; none counts it as a failure', () => {
    const outcome = o();
    expect(outcome.certified).toBe(true);
    expect(outcome.result.failed).toEqual([]);
    const terminal = renderTerminalSummary(outcome);
    expect(terminal).toMatch(
      new RegExp(`Advisories \\(spec MUSTs without a requirement ID: reported, never gating\\):\\n {2}${ADV} {2}fail`),
    );
    expect(terminal).toContain('rests on SPEC 3.6: "Undefined variables are an error, not an empty string."');
    expect(renderMarkdown(outcome)).toMatch(
      new RegExp(`### Advisories[\\s\\S]*\\| ${ADV} \\| fail \\| .* \\| SPEC 3\\.6: "Undefined variables are an error`),
    );
    const html = renderHtml(outcome);
    expect(html).toMatch(new RegExp(`<td class="id">${ADV}</td><td>1</td><td class="fail">fail</td>`));
    expect(html).toContain('Undefined variables are an error, not an empty string.');
    const junit = parseXml(renderJunit(outcome));
    const suite = findAll(junit, 'testsuite').find((s) => s.attrs.name?.startsWith('OAP 1.0.1 advisories'))!;
    const tc = findAll(suite, 'testcase')[0]!;
    expect(findAll(tc, 'failure')[0]!.attrs.type).toBe('advisory');
    expect(findAll(tc, 'property').find((p) => p.attrs.name === 'gating')!.attrs.value).toBe('false');
    // The failing advisory case is shown under its advisory, with its evidence, and in no level's suite.
    expect(findAll(tc, 'failure')[0]!.text).toContain(`case ${ADV}/empty-string: became ""`);
    for (const level of findAll(junit, 'testsuite').filter((s) => s.attrs.name?.startsWith('OAP 1.0.1 Level'))) {
      expect(findAll(level, 'testcase').map((t) => t.attrs.name)).not.toContainEqual(expect.stringContaining(ADV));
      expect(findAll(level, 'failure')).toEqual([]);
    }
  });
});
