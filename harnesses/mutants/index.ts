/** The mutants of the reference harness (MUTANTS.md), each the reference's rules with one rule replaced. */
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { createReferenceAdapter, HARNESS_NAME } from '../reference/index.js';
import { MUTANTS } from './catalogue.js';

export { MUTANTS } from './catalogue.js';
export type { Mutant } from './mutant.js';

export function createMutantAdapter(name: string): InProcessAdapter {
  const mutant = MUTANTS.find((x) => x.name === name);
  if (!mutant) throw new Error(`unknown mutant "${name}"; known mutants: ${MUTANTS.map((x) => x.name).join(', ')}`);
  // A mutant names itself in the handshake, so its result is never read as the reference's.
  return createReferenceAdapter({ rules: mutant.rules, name: `${HARNESS_NAME}+mutant:${mutant.name}` });
}
