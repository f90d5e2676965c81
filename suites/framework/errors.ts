/**
 * How a check ends when it does not pass. The case runner maps them to statuses: CheckFailure ->
 * fail, CaseNotApplicable -> not-applicable; the adapter's own wire outcomes (adapters/protocol/
 * errors.ts) map to skipped, timeout and error; anything else is a suite fault.
 */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly expected?: unknown,
    readonly observed?: unknown,
  ) {
    super(message);
    this.name = 'CheckFailure';
  }
}

export class CaseNotApplicable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CaseNotApplicable';
  }
}
