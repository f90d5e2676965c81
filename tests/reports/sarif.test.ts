import { readFileSync } from 'node:fs';
import ajvDraft04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { buildSarif } from '../../reports/sarif.js';
import type { CaseRecord } from '../../results/model.js';
import { evaluateRun } from '../../results/outcome.js';
import { fromRoot } from '../../spec/package-root.js';
import { ADVISORIES } from '../../spec/requirements.js';
import { makeCase, makeReport } from '../results/make-report.js';

/** The SARIF 2.1.0 schema (draft-04), vendored: see SARIF-SCHEMA-NOTICE.md beside it. */
const schema = JSON.parse(readFileSync(fromRoot('tests', 'reports', 'sarif-2.1.0-rtm.5.schema.json'), 'utf8')) as object;
// ajv-draft-04 is CommonJS: under Node's ESM loader the default import is the class itself.
const Ajv04 = ((ajvDraft04 as unknown as { default?: typeof ajvDraft04 }).default ?? ajvDraft04) as unknown as new (
  opts: object,
) => { compile(s: object): ((d: unknown) => boolean) & { errors?: unknown[] | null } };
// The schema's language-tag pattern is not valid with the `u` flag; the SARIF TC wrote it for ECMAScript without it.
const validate = new Ajv04({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false }).compile(schema);

type Sarif = {
  runs: {
    tool: { driver: { rules: { id: string }[] } };
    results: {
      ruleId: string;
      level: string;
      locations: { physicalLocation?: { artifactLocation: { uri: string; uriBaseId: string }; region?: { startLine: number } } }[];
    }[];
  }[];
};

const advisory = ADVISORIES[0]!;
const outcome = () =>
  evaluateRun(
    makeReport({
      level: 2,
      statuses: { 'L1-I3': 'fail', 'L2-G5': 'fail', 'L1-P6': 'error' },
      extraCases: [
        { ...makeCase('L1-P2/fixture', ['L1-P2'], 'fail', { fixture_files: ['fixtures/level-1/invalid/x.agent.yaml'] }) } as CaseRecord,
        makeCase(`${advisory.id}/basic`, [advisory.id as string], 'fail'),
      ],
    }),
  );

describe('results.sarif', () => {
  it('validates against the SARIF 2.1.0 schema', () => {
    const sarif = buildSarif(outcome());
    const ok = validate(sarif);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    // The validator is not vacuous: a result without its message is refused.
    const broken = structuredClone(sarif) as { runs: { results: Record<string, unknown>[] }[] };
    delete broken.runs[0]!.results[0]!.message;
    expect(validate(broken)).toBe(false);
  });

  it('gives every result a physical location: the fixture file, else the line of the manifest that defines its ID', () => {
    const sarif = buildSarif(outcome()) as Sarif;
    const run = sarif.runs[0]!;
    expect(run.results.map((r) => r.ruleId).sort()).toEqual([advisory.id, 'L1-I3', 'L1-P2', 'L2-G5'].sort());
    const manifest = readFileSync(fromRoot('spec', 'requirements.ts'), 'utf8').split('\n');
    for (const r of run.results) {
      const loc = r.locations[0]!.physicalLocation!;
      expect(loc.artifactLocation.uriBaseId).toBe('OAPCONFORM');
      if (loc.artifactLocation.uri === 'spec/requirements.ts') expect(manifest[loc.region!.startLine - 1]).toContain(`'${r.ruleId}'`);
    }
    const byRule = (id: string) => run.results.filter((r) => r.ruleId === id);
    expect(byRule('L1-P2')[0]!.locations[0]!.physicalLocation!.artifactLocation.uri).toBe('fixtures/level-1/invalid/x.agent.yaml');
    expect(byRule('L2-G5')[0]!.level).toBe('warning');
    // An advisory is a note, never an error, and is reported once.
    expect(byRule(advisory.id).map((r) => r.level)).toEqual(['note']);
    expect(run.tool.driver.rules.map((r) => r.id)).toContain(advisory.id);
  });
});
