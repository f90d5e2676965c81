import type { CaseDef } from '../framework/types.js';

/** Level 1 cases, each naming the requirement IDs it proves. */
export const cases: CaseDef[] = [];
