/**
 * Why the engine could not run, or could not finish starting, a run: a usage problem (a bad
 * selection, an unusable --out or --fixtures tree, a --resume stream that is not this run's), an
 * adapter that cannot be run, or an interrupt before the adapter was ready. One line with a stable
 * code. The engine knows no exit codes: the CLI, the composition root, maps the kind to one
 * (runner/exit-codes.ts).
 */
export type EngineErrorKind = 'usage' | 'adapter' | 'interrupted';

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
