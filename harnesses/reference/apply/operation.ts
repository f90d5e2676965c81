/** One delta operation as the applicator applies it, and what applying it did (SPEC §6.2). */
export interface DeltaOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

/** An operation that cannot apply: the whole delta is rejected and nothing is written (L2-A5). */
export class OperationError extends Error {}

export type OpResult = { applied: true } | { applied: false; warning: string };
