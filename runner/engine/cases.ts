/**
 * Every case a run can have, composed in this one place: the fixture suites of the three levels,
 * the upstream-layout replay (`--fixtures DIR`) and the fuzzer (`--fuzz N`).
 */
import type { HandshakeT } from '../../protocol/messages.js';
import { fuzzCases } from '../../fuzz/index.js';
import { allCases } from '../../suites/index.js';
import type { CaseDef } from '../../suites/kit/types.js';
import type { UpstreamReplay } from '../../suites/upstream/index.js';

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
