/**
 * The oap-conform reference harness: a complete OAP 1.0.1 Level 3 implementation behind the
 * adapter protocol, built as a table of rules (./rules.ts). It certifies the suite itself (every
 * check must pass against it), and with one rule replaced it is a mutant every check must be able
 * to kill (harnesses/mutants).
 */
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { ReferenceHarness } from './harness.js';
import type { Rules } from './rules.js';
import { REFERENCE_RULES } from './rules/index.js';

export { HarnessRpcError, ReferenceHarness } from './harness.js';
export { HARNESS_NAME } from './delta-generate.js';
export type { RuleName, Rules } from './rules.js';
export { REFERENCE_RULES } from './rules/index.js';

/**
 * A fresh harness instance with its own session table, running on `rules` (default: the
 * reference's). `name` is the implementation name its handshake reports (default
 * `oap-conform-reference`): a variant names itself, so its results are never mistaken for the
 * reference's.
 */
export function createReferenceAdapter(opts: { rules?: Readonly<Rules>; name?: string } = {}): InProcessAdapter {
  return new ReferenceHarness(opts.rules ?? REFERENCE_RULES, opts.name);
}
