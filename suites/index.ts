/**
 * Every case a run can have, composed in this one place: the fixture suites of the three levels,
 * the upstream-layout replay (`--fixtures DIR`) and the fuzzer (`--fuzz N`).
 */
import type { HandshakeT } from '../adapters/protocol/messages.js';
import type { CaseDef } from './framework/types.js';
import { fuzzCases } from './fuzz/index.js';
import { cases as level1 } from './level-1/index.js';
import { cases as level2 } from './level-2/index.js';
import { cases as level3 } from './level-3/index.js';
import { isAdvisoryId, REQUIREMENT_IDS } from './requirements.js';
import type { UpstreamReplay } from './upstream/index.js';

/** Every fixture-driven case of the suite, in a stable order. Fuzz and replay cases are built per run. */
export function allCases(): CaseDef[] {
  const all = [...level1, ...level2, ...level3];
  const seen = new Set<string>();
  for (const c of all) {
    if (seen.has(c.id)) throw new Error(`duplicate case ID ${c.id}`);
    seen.add(c.id);
    if (c.requirements.length === 0) throw new Error(`case ${c.id} names no requirement`);
    for (const id of c.requirements) {
      if (!REQUIREMENT_IDS.has(id) && !isAdvisoryId(id)) throw new Error(`case ${c.id} names unknown requirement ${id}`);
    }
    // An advisory never gates, so a case judges either requirements or advisories, never both.
    if (c.requirements.some(isAdvisoryId) && !c.requirements.every(isAdvisoryId))
      throw new Error(`case ${c.id} mixes requirement and advisory IDs`);
  }
  return all;
}

export interface RunCasesOptions {
  seed: number;
  /** Fuzz budget in generated inputs; 0 = no fuzz cases. */
  fuzz: number;
  /** Where fuzz findings are written. */
  findingsDir: string;
  /** The replay of an upstream-layout fixture tree (suites/upstream `loadUpstream`, checked before the run). */
  upstream?: UpstreamReplay;
  handshake: HandshakeT;
}

/** The cases of one run: the fixture suites, then the upstream replay when given, then the fuzz cases. */
export function runCases(opts: RunCasesOptions): CaseDef[] {
  return [
    ...allCases(),
    ...(opts.upstream?.cases ?? []),
    ...(opts.fuzz > 0 ? fuzzCases({ budget: opts.fuzz, seed: opts.seed, findingsDir: opts.findingsDir }) : []),
  ];
}

export { caseLevel } from './requirements.js';
