/**
 * Level 3's refusal judge: the outcome must be a rejection carrying an error of the category the
 * case expects. Instantiating and the rest of the plumbing are suites/support's.
 */
import type { AdapterIssueT, InstantiateOutcomeT } from '../../../protocol/messages.js';
import { fail } from '../../kit/assert.js';
import { briefIssues } from '../../support/index.js';

export type Rejected = Extract<InstantiateOutcomeT, { status: 'rejected' }>;

/** The outcome must be a rejection carrying at least one error of `category`. */
export function mustReject(out: InstantiateOutcomeT, category: AdapterIssueT['category'], what: string): Rejected {
  if (out.status !== 'rejected') {
    fail(
      `${what}: expected rejection with category ${category}, adapter instantiated it`,
      { status: 'rejected', category },
      { status: out.status },
    );
  }
  if (!out.errors.some((e) => e.category === category)) {
    fail(`${what}: rejected, but no error has category ${category}`, { category }, { errors: briefIssues(out.errors) });
  }
  return out;
}
