import type { Difference } from '../../spec/document/differences.js';

/**
 * How a check ends when it does not pass. The case runner maps them to statuses: CheckFailure ->
 * fail, CaseNotApplicable -> not-applicable; the adapter's own wire outcomes (protocol/
 * errors.ts) map to skipped, timeout and error; anything else is a suite fault.
 */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly expected?: unknown,
    readonly observed?: unknown,
    /** Where they differ, when the check already knows (a spec rule's differences); else computed from the two. */
    readonly differences?: readonly Difference[],
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

/**
 * The case could not reach the observation it exists for: its control document was refused, its
 * delta was refused for an unrelated reason, its fuzz inputs were all rejected. Never evidence
 * either way; `rootCause` names the one defect that hid the check (e.g. "control profile rejected:
 * /metadata: schema"), so an implementer sees what to fix first.
 */
export class CaseInconclusive extends Error {
  constructor(
    reason: string,
    readonly rootCause?: string,
    /** The requirement ID whose case judges that cause (suites/support/refusal.ts decides it). */
    readonly causeId?: string,
  ) {
    super(reason);
    this.name = 'CaseInconclusive';
  }
}
