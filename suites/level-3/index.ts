import type { CaseDef } from '../framework/types.js';

/** Level 3 cases, each naming the requirement IDs it proves. */
export const cases: CaseDef[] = [];
