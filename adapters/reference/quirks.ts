/**
 * Quirks are deliberate, minimal deviations from OAP 1.0.1 that turn the reference harness into a
 * mutant (see ./mutants.ts and MUTANTS.md). The reference itself runs with no quirk set. Every
 * quirk is checked at exactly one place in the code, so a mutant differs from the reference by one
 * decision and a conformance check that kills it is testing exactly that decision.
 */
export const QUIRK_NAMES = [
  'json-claimed-not-accepted',
  'instantiates-schema-invalid',
  'accepts-unknown-major',
  'accepts-higher-minor',
  'accepts-unknown-kind',
  'schema-errors-without-pointer',
  'ignores-project-root',
  'within-root-collision-silent',
  'cross-root-collision-unreported',
  'file-name-wins',
  'prompt-constraints-before-instructions',
  'denylist-ignored',
  'permission-profile-wins',
  'union-tools',
  'trust-from-file',
  'context-path-unchecked',
  'literal-secret-accepted',
  'required-skill-missing-ignored',
  'session-records-profile-digest',
  'no-adjustment-record',
  'reload-mid-session',
  'creates-cache-file-on-resolve',
  'model-rule-unreported',
  'drops-unknown-annotations',
  'annotation-json-reformatted',
  'state-after-postamble',
  'state-no-delimiter-escape',
  'state-grants-authority',
  'state-budget-ignored',
  'state-vars-substituted',
  'delta-extra-field',
  'target-revision-next',
  'writes-profile-on-end',
  'capability-request-dropped',
  'evidence-free-summary',
  'skips-delta-validation',
  'ops-outside-state-applied',
  'blind-write-on-conflict',
  'ignores-target-digest',
  'non-atomic-ops',
  'writeback-default-auto',
  'proposals-applied-under-auto',
  'proposal-risk-from-document',
  'retention-not-enforced',
  'state-updated-at-not-set',
  'history-not-trimmed',
  'write-in-place',
  'remove-missing-is-error',
  'no-id-pointers',
  'array-concat-extends',
  'inherited-permissions-not-narrowed',
  'mcp-server-tool-deny-ignored',
  'mcp-auto-launch-untrusted',
  'skill-digest-unverified',
  'store-mode-above-memory-mode',
  'subagent-from-harness-default',
  'subagent-concurrency-unbounded',
  'md-both-instructions-accepted',
  'extends-pin-unverified',
  'digest-not-canonical',
  'ignores-plugin-root',
  // Case-level sensitivity mutants (tests/support/sensitivity.ts): each kills checks no earlier mutant did.
  'error-pointers-jsonpath',
  'allowlist-deny-ignored',
  'inherit-applies-lists',
  'ungranted-tools-outside-allowlist',
  'roots-not-intersected',
  'hosts-not-intersected',
  'budgets-profile-wins',
  'memory-scopes-not-narrowed',
  'required-store-missing-ignored',
  'discovery-writes-index',
  'state-section-marked-trusted',
  'evidence-not-redacted',
  'writeback-off-ignored',
  'propose-approval-ignored',
  'auto-needs-approval',
  'extends-depth-uncapped',
  'extends-depth-capped-at-seven',
  'extends-cycle-undetected',
  'extends-diamond-as-cycle',
  'extends-missing-base-ignored',
  'extends-nested-objects-replaced',
  'null-not-deleting',
  'extends-inherits-state',
  'child-override-after-narrowing',
  'null-delete-unrestricted',
  'mcp-env-unresolved',
  'mcp-http-as-stdio',
  'skill-installed-on-load',
  'memory-scope-request-ignored',
  'store-mode-uncapped',
  'subagent-allow-ignored',
  'subagent-depth-unbounded',
  'non-finite-accepted',
  'extends-pin-over-file-bytes',
  'tier-before-exact',
  'installed-skills-unrecognized',
  'external-store-kinds-unsupported',
  // issue 17 (crash points, every write path atomic, side effects where they happen)
  'rename-without-fsync',
  'write-back-in-place',
  'writes-xdg-config-on-resolve',
] as const;

export type QuirkName = (typeof QUIRK_NAMES)[number];

export class Quirks {
  private readonly set: ReadonlySet<string>;

  constructor(names: Iterable<string> = []) {
    const set = new Set(names);
    for (const n of set) {
      if (!(QUIRK_NAMES as readonly string[]).includes(n)) throw new Error(`unknown reference-harness quirk "${n}"`);
    }
    this.set = set;
  }

  has(name: QuirkName): boolean {
    return this.set.has(name);
  }

  static readonly none = new Quirks();
}
