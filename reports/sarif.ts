import { REQUIREMENTS } from '../suites/requirements.js';
import type { RunOutcome } from '../results/outcome.js';
import { stripControl } from './text.js';

/**
 * results.sarif (SARIF 2.1.0): one rule per requirement ID, one result per failing case (status
 * `fail`; errors are not findings about the implementation). A case has no source location in the
 * harness's repository, so each result carries a logical location (the case ID) and, when the case
 * used fixtures, their IDs as artifact locations relative to the suite's fixtures/ directory.
 */
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export function buildSarif(o: RunOutcome): Record<string, unknown> {
  const { header } = o.report;
  const ruleIndex = new Map(REQUIREMENTS.map((q, i) => [q.id as string, i]));
  const rules = REQUIREMENTS.map((q) => ({
    id: q.id,
    name: q.id.replace('-', ''),
    shortDescription: { text: q.title },
    fullDescription: { text: `OAP 1.0.1 conformance.md ${q.id} (${q.strength}, level ${q.level}, ${q.area}): ${q.title}` },
    defaultConfiguration: { level: q.strength === 'MUST' ? 'error' : 'warning' },
    properties: { level: q.level, strength: q.strength, area: q.area },
  }));
  const results = o.report.cases
    .filter((c) => c.status === 'fail')
    .map((c) => {
      const ruleId = c.requirements[0]!;
      const result: Record<string, unknown> = {
        ruleId,
        level: REQUIREMENTS.find((q) => q.id === ruleId)?.strength === 'SHOULD' ? 'warning' : 'error',
        message: { text: stripControl(`${c.id}: ${c.message ?? 'failed'}`) },
        locations: [
          {
            logicalLocations: [{ fullyQualifiedName: c.id, kind: 'test' }],
            ...(c.fixtures?.[0]
              ? { physicalLocation: { artifactLocation: { uri: encodeURI(c.fixtures[0]), uriBaseId: 'OAPFIXTURES' } } }
              : {}),
          },
        ],
        partialFingerprints: { caseId: c.id },
        properties: { requirements: c.requirements, caseId: c.id, origin: c.origin, expected: c.expected, observed: c.observed },
      };
      const index = ruleIndex.get(ruleId);
      if (index !== undefined) result.ruleIndex = index;
      return result;
    });
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'oap-conform',
            version: header.runner.version,
            rules,
          },
        },
        originalUriBaseIds: { OAPFIXTURES: { description: { text: 'The oap-conform fixtures/ directory' } } },
        invocations: [{ executionSuccessful: o.report.footer?.complete === true, endTimeUtc: o.report.footer?.finished_at }],
        results,
        properties: {
          implementation: header.adapter.handshake.implementation,
          level: header.level,
          attainedLevel: o.attained,
          fixtureRevision: header.fixture_revision,
        },
      },
    ],
  };
}

export const renderSarif = (o: RunOutcome): string => `${JSON.stringify(buildSarif(o), null, 2)}\n`;
