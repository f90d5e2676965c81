import type { CaseDef } from '../kit/types.js';
import { applicatorCases } from './applicator.js';
import { crashCases } from './crash-and-races.js';
import { deltaBoundCases } from './delta-bounds.js';
import { generationCases } from './generation.js';
import { persistCases } from './persist.js';
import { stateInjectionCases } from './state-injection.js';

/** Level 2 cases, each naming the requirement IDs it proves (conformance.md section 3, tests 6-10). */
export const cases: CaseDef[] = [
  ...stateInjectionCases,
  ...generationCases,
  ...applicatorCases,
  ...deltaBoundCases,
  ...persistCases,
  ...crashCases,
];
