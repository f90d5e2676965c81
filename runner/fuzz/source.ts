/**
 * The fuzzer as an engine case source, for the lead's `--fuzz N` wiring:
 *   registerCaseSource(fuzzCaseSource({ findingsDir: join(out, 'findings') }), 'fuzz')
 * `--fuzz N` is the budget in generated inputs (see fuzzCases); `--seed S` is the fuzz seed.
 */
import type { CaseSource } from '../engine/case-sources.js';
import { defaultFindingsDir, fuzzCases } from './index.js';

export function fuzzCaseSource(opts: { findingsDir?: string } = {}): CaseSource {
  return async (o) => (o.fuzz > 0 ? fuzzCases({ budget: o.fuzz, seed: o.seed, findingsDir: opts.findingsDir ?? defaultFindingsDir() }) : []);
}
