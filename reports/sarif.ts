import { ADVISORIES, isAdvisoryId, REQUIREMENTS } from '../spec/requirements.js';
import type { CaseRecord } from '../results/model.js';
import type { RunOutcome } from '../results/outcome.js';
import { REQUIREMENT_MANIFEST, requirementLine } from '../results/locations.js';
import { rerunCommand } from '../results/rerun.js';
import { differenceLine, differencesOf } from './failure.js';
import { stripControl } from './text.js';

/**
 * results.sarif (SARIF 2.1.0): one rule per requirement ID and per advisory, one result per failing
 * case (status `fail`; errors are not findings about the implementation) and per failing advisory
 * (level `note`: advisories never gate). Every result has a physical location, so code scanning
 * accepts the upload: the case's fixture file, or else the line of the requirement manifest that
 * defines its ID, both relative to the oap-conform package (uriBaseId OAPCONFORM).
 */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

const BASE = 'OAPCONFORM';

function location(c: Pick<CaseRecord, 'fixture_files' | 'requirements'> | undefined, id: string): Record<string, unknown> {
  const fixture = c?.fixture_files?.[0];
  if (fixture) return { physicalLocation: { artifactLocation: { uri: encodeURI(fixture), uriBaseId: BASE } } };
  return {
    physicalLocation: {
      artifactLocation: { uri: REQUIREMENT_MANIFEST, uriBaseId: BASE },
      region: { startLine: requirementLine(id) },
    },
  };
}

export function buildSarif(o: RunOutcome): Record<string, unknown> {
  const { header } = o.report;
  const rules = [
    ...REQUIREMENTS.map((q) => ({
      id: q.id,
      name: q.id.replace('-', ''),
      shortDescription: { text: q.title },
      fullDescription: { text: `OAP 1.0.1 conformance.md ${q.id} (${q.strength}, level ${q.level}, ${q.area}): ${q.title}` },
      defaultConfiguration: { level: q.strength === 'MUST' ? 'error' : 'warning' },
      properties: { level: q.level, strength: q.strength, area: q.area },
    })),
    ...ADVISORIES.map((a) => ({
      id: a.id,
      name: a.id.replace(/-/g, ''),
      shortDescription: { text: a.title },
      fullDescription: { text: `Advisory (a spec MUST without a requirement ID; never gating): ${a.title}. Rests on ${a.restsOn}` },
      defaultConfiguration: { level: 'note' },
      properties: { level: a.level, area: a.area, gating: false },
    })),
  ];
  const ruleIndex = new Map(rules.map((r, i) => [r.id as string, i]));
  const results: Record<string, unknown>[] = o.report.cases
    // A failing case is a result of its first requirement ID; a case of advisories alone is reported
    // once, as its advisory's result below.
    .filter((c) => c.status === 'fail' && c.requirements.some((id) => !isAdvisoryId(id)))
    .map((c) => {
      const ruleId = c.requirements.find((id) => !isAdvisoryId(id))!;
      const diffs = differencesOf(c)
        .slice(0, 5)
        .map((d) => differenceLine(d, 120));
      const result: Record<string, unknown> = {
        ruleId,
        level: REQUIREMENTS.find((q) => q.id === ruleId)?.strength === 'SHOULD' ? 'warning' : 'error',
        message: {
          text: stripControl(`${c.id}: ${c.status === 'fail' ? c.message : 'failed'}${diffs.length ? ` (${diffs.join('; ')})` : ''}`),
        },
        locations: [{ ...location(c, ruleId), logicalLocations: [{ fullyQualifiedName: c.id, kind: 'test' }] }],
        partialFingerprints: { caseId: c.id },
        properties: {
          requirements: c.requirements,
          caseId: c.id,
          origin: c.origin,
          rerun: rerunCommand(header, c),
          ...(c.status === 'fail' ? { differences: c.differences ?? [] } : {}),
        },
      };
      const index = ruleIndex.get(ruleId);
      if (index !== undefined) result.ruleIndex = index;
      return result;
    });
  for (const a of o.report.advisories ?? []) {
    if (a.verdict !== 'fail') continue;
    const first = o.report.cases.find((c) => c.id === a.cases[0]);
    results.push({
      ruleId: a.id,
      ruleIndex: ruleIndex.get(a.id),
      level: 'note',
      message: { text: stripControl(`advisory ${a.id} (never gating): ${a.reason ?? a.title}`) },
      locations: [location(first, a.id)],
      partialFingerprints: { advisory: a.id },
      properties: { gating: false, restsOn: a.rests_on, cases: a.cases },
    });
  }
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'oap-conform',
            version: header.runner.version,
            informationUri: 'https://www.npmjs.com/package/oap-conform',
            rules,
          },
        },
        originalUriBaseIds: { [BASE]: { description: { text: 'The root of the oap-conform package that ran the suite' } } },
        invocations: [
          {
            executionSuccessful: o.report.footer.complete,
            endTimeUtc: o.report.footer.finished_at,
          },
        ],
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
