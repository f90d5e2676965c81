/**
 * The oap-conform reference harness: a complete OAP 1.0.1 Level 3 implementation behind the
 * adapter protocol, used to certify the suite itself (every check must pass against it) and, with
 * quirks, as the family of mutants every check must be able to kill (./mutants.ts).
 */
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { ReferenceHarness } from './harness.js';
import { Quirks } from './quirks.js';

export { HarnessRpcError, ReferenceHarness } from './harness.js';
export { HARNESS_NAME } from './delta-generate.js';
export { QUIRK_NAMES, type QuirkName } from './quirks.js';

/**
 * A fresh harness instance with its own session table. `name` is the implementation name its
 * handshake reports (default `oap-conform-reference`): a variant names itself, so its results are
 * never mistaken for the reference's.
 */
export function createReferenceAdapter(opts: { quirks?: ReadonlySet<string>; name?: string } = {}): InProcessAdapter {
  return new ReferenceHarness(new Quirks(opts.quirks ?? []), opts.name);
}
