/**
 * The fuzzer's public API. `fuzzCases` turns a budget and a seed into a deterministic list of
 * cases (origin 'fuzz'); each case runs one property over `numRuns` generated inputs against the
 * live adapter, shrinks a failure, writes it as a finding file and fails with a CheckFailure that
 * counts against the property's one requirement ID.
 *
 * A case passes only when enough of its inputs were judged (fuzz/check.ts `judgedFloor`);
 * an input the adapter rejected or declined is counted, never taken as holding.
 *
 * Budget = generated inputs (property executions before shrinking), shared between properties by
 * weight; every selected property gets at least one input. Case IDs:
 * `fuzz/<requirement>/<property>#<n>`, e.g. `fuzz/L1-I3/narrowing#0`.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import type { CaseDef } from '../suites/kit/types.js';
import { checkProperty, execEnv, judgeInput, newStats } from './check.js';
import type { Finding } from './findings.js';
import { PROPERTIES, propertyByName } from './registry.js';
import { deriveSeed } from './rng.js';
import { CaseInconclusive, CheckFailure } from '../suites/kit/errors.js';

export { judgedFloor } from './check.js';
export { readFinding, type Finding } from './findings.js';
export { PROPERTIES } from './registry.js';

/**
 * Measured (bench/fuzz.ts, reference adapter, 2-core box under load): 600 inputs = 40 cases cost
 * ~3.3 s CPU in-process (~5.5 ms per input, mostly writing profile files and resolving them), and
 * adding them to `run --level 3` added ~2.5-3 s of runner CPU. At 600, every fuzz-targeted mutant
 * (14 of them) is caught with seeds 1-3; below ~400 the rarer ones (L2-S3, L2-S5) start to slip.
 */
export const DEFAULT_FUZZ_BUDGET = 600;
/** Adapter executions one failing case may spend shrinking. */
const DEFAULT_SHRINK_BUDGET = 150;

export interface FuzzOptions {
  budget: number;
  seed: number;
  /** Where finding files go; default `./oap-conform-results/findings`. */
  findingsDir?: string;
  /** Only properties attributed to these requirement IDs. */
  requirements?: string[];
  shrinkBudget?: number;
}

export interface FuzzCaseDef extends CaseDef {
  origin: 'fuzz';
  fuzz: { property: string; seed: number; caseSeed: number; numRuns: number };
  /** The inputs this case will generate (same values fast-check draws first), for tests and reports. */
  inputs(): unknown[];
}

function defaultFindingsDir(outDir = './oap-conform-results'): string {
  return join(outDir, 'findings');
}

export function fuzzCases(opts: FuzzOptions): FuzzCaseDef[] {
  const seed = opts.seed >>> 0;
  const props = PROPERTIES.filter((p) => !opts.requirements || opts.requirements.includes(p.requirement));
  const budget = Math.max(0, Math.floor(opts.budget));
  if (budget === 0 || props.length === 0) return [];
  const totalWeight = props.reduce((n, p) => n + p.weight, 0);
  const findingsDir = opts.findingsDir ?? defaultFindingsDir();
  const shrinkBudget = opts.shrinkBudget ?? DEFAULT_SHRINK_BUDGET;
  const out: FuzzCaseDef[] = [];
  for (const prop of props) {
    let runs = Math.max(1, Math.round((budget * prop.weight) / totalWeight));
    for (let n = 0; runs > 0; n++) {
      const numRuns = Math.min(prop.runsPerCase, runs);
      runs -= numRuns;
      const id = `fuzz/${prop.requirement}/${prop.name}#${n}`;
      const caseSeed = deriveSeed(seed, id);
      out.push({
        id,
        requirements: [prop.requirement],
        clauses: prop.clauses,
        title: `${prop.title} (${numRuns} generated inputs)`,
        origin: 'fuzz',
        expectation: { property: prop.name, seed, case_seed: caseSeed, runs: numRuns },
        fuzz: { property: prop.name, seed, caseSeed, numRuns },
        inputs: () => fc.sample(prop.arbitrary(), { seed: caseSeed, numRuns }),
        run: (ctx) => checkProperty(ctx, prop, { caseId: id, runSeed: seed, caseSeed, numRuns, shrinkBudget, findingsDir }),
      });
    }
  }
  return out;
}

/**
 * A case that re-runs a finding's stored input once against whatever adapter runs it. It passes
 * when the property now holds (the defect is fixed) and fails with the fresh evidence otherwise.
 */
export function replayCase(finding: Finding): CaseDef {
  const prop = propertyByName(finding.property);
  if (!prop) throw new Error(`finding names unknown fuzz property "${finding.property}"`);
  return {
    id: `replay/${finding.case_id}`,
    requirements: finding.requirements,
    clauses: prop.clauses,
    title: `Replay of ${finding.case_id}: ${prop.title}`,
    origin: 'replay',
    expectation: finding.expected,
    async run(ctx) {
      const stats = newStats();
      let declined: Error | undefined;
      const verdict = await judgeInput(prop, execEnv(ctx, stats), finding.input, (err) => (declined = err));
      if (declined) throw declined;
      ctx.note('replay', { property: prop.name, verdict: verdict.kind, adapter_calls: stats.adapterCalls });
      if (verdict.kind === 'violated')
        throw new CheckFailure(
          `${prop.name}: ${verdict.violation.message}`,
          verdict.violation.expected,
          verdict.violation.observed,
          verdict.violation.differences,
        );
      if (verdict.kind === 'not-judged') throw new CaseInconclusive(`the stored input was not judged (${verdict.cause})`, verdict.reason);
    },
  };
}
