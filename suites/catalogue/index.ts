/**
 * Fixed cases generated from the boundary catalogue (issue 20 part 2; spec/semantics/catalogue.ts
 * holds the classes and the method). Deterministic: the cases, their IDs and the classes each
 * covers are a function of the catalogue alone, never of the run's seed. `catalogueCoverage` maps
 * every class to the cases that cover it, for COVERAGE.md's dimension-by-class table.
 */
import { CATALOGUE } from '../../spec/semantics/catalogue.js';
import type { CaseDef } from '../kit/types.js';
import { chainCases } from './chain.js';
import { type CatalogueCase, contractCases } from './contract.js';
import { delegationCases } from './delegation.js';
import { operationPathCases } from './delta.js';
import { discoveryCases, trustCases, versionCases } from './documents.js';
import { extendsCases } from './extends.js';
import { launchCases } from './launch.js';
import { promptCases } from './prompt.js';
import { retentionCases } from './retention.js';
import { stateBudgetCases } from './state-budget.js';

function generated(): CatalogueCase[] {
  return CATALOGUE.flatMap((d) => [
    ...contractCases(d),
    ...operationPathCases(d),
    ...retentionCases(d),
    ...stateBudgetCases(d),
    ...delegationCases(d),
    ...discoveryCases(d),
    ...trustCases(d),
    ...versionCases(d),
    ...launchCases(d),
    ...chainCases(d),
    ...promptCases(d),
  ]).concat(extendsCases(CATALOGUE));
}

const GENERATED = generated();

/** The generated cases, in catalogue order. */
export const catalogueCases: CaseDef[] = GENERATED.map((g) => g.def);

/** Class id → the IDs of the generated cases that submit its values. */
export function catalogueCoverage(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const g of GENERATED) for (const c of g.classes) out.set(c, [...(out.get(c) ?? []), g.def.id]);
  return out;
}
