import { LEVEL_NAMES, type RunOutcome } from '../results/outcome.js';
import type { CaseRecord } from '../results/model.js';
import { isAdvisoryCase, messageOf } from '../results/predicates.js';
import { rerunCommand } from '../results/rerun.js';
import { differencesOf, failureText } from './failure.js';
import { stripControl } from './text.js';

/**
 * ctrf-report.json: the Common Test Report Format (CTRF, specification 0.0.0), which the common CI
 * test reporters render, from the same result model as junit.xml: one test per case, in a suite per
 * level (`OAP 1.0.1 Level N (Name)`, then its first requirement ID), a case of advisories alone in
 * the advisories suite. fail -> failed; error, timeout and inconclusive -> other (none is a verdict
 * on the adapter's answer; `rawStatus` keeps ours); skipped and not-applicable -> skipped. A failing
 * advisory case is `other` too: an advisory never gates, so it is never a failed test. A failure's
 * message is the record's, its trace the same text as the JUnit body (differences, inputs, rerun
 * line), and `extra` carries the differences and the rerun line as data.
 */
type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other';

const ADVISORY_SUITE = 'OAP 1.0.1 advisories (spec MUSTs without a requirement ID; never gating)';

function statusOf(c: CaseRecord): CtrfStatus {
  if (isAdvisoryCase(c) && c.status === 'fail') return 'other';
  switch (c.status) {
    case 'pass':
      return 'passed';
    case 'fail':
      return 'failed';
    case 'error':
    case 'timeout':
    case 'inconclusive':
      return 'other';
    case 'skipped':
    case 'not-applicable':
      return 'skipped';
    default: {
      const unhandled: never = c;
      throw new Error(`unhandled status ${(unhandled as CaseRecord).status}`);
    }
  }
}

export function buildCtrf(o: RunOutcome): Record<string, unknown> {
  const { header, footer } = o.report;
  const impl = header.adapter.handshake.implementation;
  const cases = o.report.cases.filter((c) => c.level <= header.level);
  const tests = cases.map((c) => {
    const status = statusOf(c);
    const message = messageOf(c);
    const diffs = differencesOf(c);
    const suite = isAdvisoryCase(c)
      ? [ADVISORY_SUITE, c.requirements[0]!]
      : [`OAP 1.0.1 Level ${c.level} (${LEVEL_NAMES[c.level]})`, c.requirements[0] ?? 'unknown'];
    return {
      testId: c.id,
      name: `${c.id} [${c.requirements.join(', ')}]`,
      status,
      rawStatus: c.status,
      duration: Math.max(0, Math.round(c.durationMs)),
      suite,
      tags: [...c.requirements],
      labels: { level: c.level, origin: c.origin, ...(c.clauses.length > 0 ? { clauses: [...c.clauses] } : {}) },
      ...(c.fixture_files?.length ? { filePath: c.fixture_files[0] } : {}),
      ...(message !== undefined ? { message: stripControl(message) } : {}),
      ...(c.status !== 'pass' && c.status !== 'not-applicable' ? { trace: stripControl(failureText(header, c)) } : {}),
      ...(c.stderr ? { stderr: stripControl(c.stderr).split('\n') } : {}),
      ...(c.status !== 'pass' ? { extra: { ...(diffs.length > 0 ? { differences: diffs } : {}), rerun: rerunCommand(header, c) } } : {}),
    };
  });
  const count = (s: CtrfStatus) => tests.filter((t) => t.status === s).length;
  const start = Date.parse(header.started_at);
  const stop = Date.parse(footer.finished_at);
  return {
    reportFormat: 'CTRF',
    specVersion: '0.0.0',
    timestamp: footer.finished_at,
    generatedBy: `oap-conform ${header.runner.version}`,
    results: {
      tool: { name: 'oap-conform', version: header.runner.version },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: count('pending'),
        other: count('other'),
        suites: new Set(tests.map((t) => t.suite[0])).size,
        start,
        stop,
        duration: Math.max(0, stop - start),
        extra: { level: header.level, attained_level: o.attained, certified: o.certified, interrupted: footer.interrupted },
      },
      tests,
      environment: {
        reportName: `OAP 1.0.1 conformance of ${impl.name} ${impl.version}, level ${header.level}`,
        appName: impl.name,
        appVersion: impl.version,
        extra: { adapter: header.adapter.spec, seed: header.seed, fixture_revision: header.fixture_revision },
      },
    },
  };
}

export const renderCtrf = (o: RunOutcome): string => `${JSON.stringify(buildCtrf(o), null, 2)}\n`;
