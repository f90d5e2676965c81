/**
 * Issue 22: an ID passes only when every clause has a passing case. The reference behind a test
 * quirk that declines every profile pinning a skill by digest (a harness that cannot pin skills,
 * declared the honest way) still passes every other L3-G2 case, so before clauses L3-G2 passed for
 * it; now its `pin-skills` clause has no pass and L3-G2 stays out of `passed`, by name.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import { AdapterDecline } from '../../protocol/errors.js';
import { computeVerdicts, type Verdicts } from '../../results/verdicts.js';
import type { CaseOutcome } from '../../results/record.js';
import { loadDocumentFile } from '../../spec/document/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { recordsOf, runSuiteInProcess } from '../support/run-suite.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Does the profile an instantiate names (by path, or by name in the project root) pin a skill? */
function pinsASkill(params: Obj): boolean {
  const profile = isObj(params['profile']) ? params['profile'] : {};
  const paths =
    typeof profile['path'] === 'string'
      ? [profile['path']]
      : readdirSync(join(String(params['workspace']), '.agents')).map((f) => join(String(params['workspace']), '.agents', f));
  return paths.some((p) => {
    const doc = loadDocumentFile(p).value;
    if (!isObj(doc) || !isObj(doc['metadata']) || !isObj(doc['spec'])) return false;
    if (typeof profile['name'] === 'string' && doc['metadata']['name'] !== profile['name']) return false;
    const tools = doc['spec']['tools'];
    return isObj(tools) && Array.isArray(tools['skills']) && tools['skills'].some((s) => isObj(s) && typeof s['digest'] === 'string');
  });
}

function declinesSkillPins(): InProcessAdapter {
  const inner = createReferenceAdapter({ name: 'reference+declines-skill-pins' });
  return {
    async handle(method, params) {
      if (method === 'instantiate' && isObj(params) && pinsASkill(params))
        throw new AdapterDecline('not-implemented', 'spec.tools.skills digest pinning is not implemented');
      return inner.handle(method, params);
    },
  };
}

let outcomes: CaseOutcome[] = [];
let verdicts: Verdicts;
beforeAll(async () => {
  outcomes = await runSuiteInProcess(declinesSkillPins, { level: 3, filter: (c) => c.requirements.includes('L3-G2') });
  verdicts = computeVerdicts(recordsOf(outcomes));
}, 120_000);

describe('a harness that declines skill pins', () => {
  it('passes every L3-G2 case but the skills one, which it declines', () => {
    const skipped = outcomes.filter((o) => o.status !== 'pass').map((o) => `${o.id}:${o.status}`);
    expect(skipped).toEqual(['L3-G2/skills-pin-by-digest-honoured:skipped']);
  });

  it('does not get L3-G2 into passed, and the reason names the clause', () => {
    const g2 = verdicts.byId.get('L3-G2')!;
    expect(verdicts.passed).not.toContain('L3-G2');
    expect(verdicts.failed).not.toContain('L3-G2');
    expect(g2.verdict).toBe('skipped');
    expect(g2.reason).toMatch(
      /^clause L3-G2\.pin-skills \(Pinning by digest in skills\) skipped: 1 of 1 case\(s\) declined by the adapter/,
    );
    expect(g2.clauses.map((q) => `${q.id}:${q.verdict}`)).toEqual([
      'L3-G2.profile-digest:pass',
      'L3-G2.spec-digest:pass',
      'L3-G2.pin-extends:pass',
      'L3-G2.pin-skills:skipped',
    ]);
  });
});
