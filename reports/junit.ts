import junitModule, { type Builder } from 'junit-report-builder';
import { LEVEL_NAMES, judgedLevels, type RunOutcome } from '../results/outcome.js';
import type { CaseRecord } from '../results/model.js';
import { isAdvisoryCase, messageOf } from '../results/predicates.js';
import { xmlSafe } from './text.js';
import { failureText } from './failure.js';

// junit-report-builder is CommonJS whose typings declare an ES default export; under Node's ESM
// loader the default import is the builder itself, under the typings it is the module carrying it.
const junitBuilder: Builder = (junitModule as unknown as { default?: Builder }).default ?? (junitModule as unknown as Builder);

/**
 * junit.xml: one testsuite per level, one testcase per case, named `<case id> [<requirement IDs>]`
 * with the IDs also as properties. fail -> <failure>, error/crash/timeout -> <error> (type says
 * which), skipped/not-applicable -> <skipped> (the reason in a property, as the builder's skipped
 * element takes no message). Advisories, which never gate, have a suite of their own: a case of
 * advisories alone appears there, under its advisory, and never in a level's suite.
 */
export function renderJunit(o: RunOutcome): string {
  const builder = junitBuilder
    .newBuilder()
    .name(`OAP 1.0.1 conformance: ${xmlSafe(o.report.header.adapter.handshake.implementation.name)}`);
  for (const level of judgedLevels(o)) {
    const suite = builder
      .testSuite()
      .name(`OAP 1.0.1 Level ${level} (${LEVEL_NAMES[level]})`)
      .timestamp(new Date(o.report.header.started_at));
    suite.property('level', String(level));
    for (const c of o.report.cases) {
      // A case of advisories alone is reported under its advisory, in the advisories suite: never
      // a <failure> in a level's suite, which CI reporters count against the level.
      if (c.level !== level || isAdvisoryCase(c)) continue;
      const tc = suite
        .testCase()
        .className(`oap.level${level}.${c.requirements[0] ?? 'unknown'}`)
        .name(`${c.id} [${c.requirements.join(', ')}]`)
        .time(c.durationMs / 1000)
        .property('requirements', c.requirements.join(','))
        .property('origin', c.origin)
        .property('status', c.status);
      const message = xmlSafe(messageOf(c) ?? c.status);
      const details = c.status === 'pass' || c.status === 'not-applicable' ? undefined : failureText(o.report.header, c);
      switch (c.status) {
        case 'pass':
          break;
        case 'fail':
          tc.failure(message, 'fail');
          if (details) tc.stacktrace(xmlSafe(details));
          break;
        case 'error':
        case 'timeout':
          tc.error(message, c.status, details ? xmlSafe(details) : undefined);
          break;
        case 'inconclusive':
          // Not evidence either way; JUnit has no such state, so it is an error a reader must look at.
          tc.error(message, c.status, details ? xmlSafe(details) : undefined);
          break;
        case 'skipped':
        case 'not-applicable':
          tc.skipped().property('skip_reason', message);
          break;
        default: {
          const unhandled: never = c;
          throw new Error(`unhandled status ${(unhandled as CaseRecord).status}`);
        }
      }
      if (c.stderr) tc.standardError(xmlSafe(c.stderr));
    }
  }
  // Advisories (spec MUSTs without a requirement ID) in a suite of their own; they never gate.
  const advisories = (o.report.advisories ?? []).filter((a) => a.verdict !== 'untested');
  if (advisories.length > 0) {
    const suite = builder
      .testSuite()
      .name('OAP 1.0.1 advisories (spec MUSTs without a requirement ID; never gating)')
      .timestamp(new Date(o.report.header.started_at));
    for (const a of advisories) {
      const tc = suite
        .testCase()
        .className(`oap.advisory.${a.id}`)
        .name(`${a.id}: ${xmlSafe(a.title)}`)
        .property('gating', 'false')
        .property('rests_on', xmlSafe(a.rests_on))
        .property('verdict', a.verdict);
      if (a.verdict === 'fail') {
        tc.failure(xmlSafe(a.reason ?? 'failed'), 'advisory');
        const failing = o.report.cases.filter((c) => a.cases.includes(c.id) && c.status === 'fail');
        const details = failing.map((c) => `case ${c.id}: ${messageOf(c) ?? ''}\n${failureText(o.report.header, c)}`).join('\n\n');
        if (details) tc.stacktrace(xmlSafe(details));
      } else if (a.verdict !== 'pass') tc.skipped().property('skip_reason', xmlSafe(`${a.verdict}: ${a.reason ?? ''}`));
    }
  }
  return builder.build();
}
