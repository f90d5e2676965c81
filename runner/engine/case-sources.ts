import type { HandshakeT } from '../../adapters/protocol/messages.js';
import type { CaseDef } from '../../suites/framework/types.js';

/**
 * Extra cases for a run, contributed without editing the engine: the fuzzer (`--fuzz N`) and the
 * upstream-fixtures replay (`--fixtures DIR`) register a source at import time, typically from
 * their own CLI command module (runner/cli/main.ts imports every module in commands/ before
 * parsing, so a registration there is in place before `run` executes). A source returns [] when its
 * flag is off. Cases from sources are merged with the suite's, sorted by ID, and must have unique IDs.
 */
export interface CaseSourceOptions {
  seed: number;
  /** The level being judged. */
  level: 1 | 2 | 3;
  fuzz: number;
  fixturesDir?: string;
  /** The run's results directory (fuzz findings are written under it). */
  outDir?: string;
  handshake: HandshakeT;
}

export type CaseSource = (opts: CaseSourceOptions) => Promise<CaseDef[]>;

const sources = new Map<string, CaseSource>();
let anonymous = 0;

/** Register a source; returns a function that unregisters it (for tests). */
export function registerCaseSource(fn: CaseSource, name = `source-${++anonymous}`): () => void {
  sources.set(name, fn);
  return () => {
    if (sources.get(name) === fn) sources.delete(name);
  };
}

export async function collectSourceCases(opts: CaseSourceOptions): Promise<CaseDef[]> {
  const out: CaseDef[] = [];
  for (const [, fn] of [...sources].sort(([a], [b]) => a.localeCompare(b))) out.push(...(await fn(opts)));
  return out;
}
