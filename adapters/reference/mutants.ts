/**
 * The mutants: the reference harness with exactly one quirk switched on. Each violates the named
 * requirement ID(s) and, as far as a black-box check can tell, nothing else; a conformance suite is
 * only as good as the set of mutants it kills. MUTANTS.md documents what a check must observe.
 */
import type { InProcessAdapter } from '../sdk/ts/types.js';
import { createReferenceAdapter } from './index.js';
import type { QuirkName } from './quirks.js';

export interface Mutant {
  name: QuirkName;
  breaks: string[];
  description: string;
  /** The deviation shows only when the mutant runs as its own process (it acts on its process environment). */
  asProcess?: true;
}

const m = (name: QuirkName, breaks: string[], description: string): Mutant => ({ name, breaks, description });

export const MUTANTS: readonly Mutant[] = [
  m(
    'json-claimed-not-accepted',
    ['L1-P1', 'L3-G1'],
    'Claims the json encoding in the handshake but refuses every JSON document as unparsable.',
  ),
  m('instantiates-schema-invalid', ['L1-P2'], 'Instantiates documents that fail JSON Schema validation (validate still reports them).'),
  m('accepts-unknown-major', ['L1-P3'], 'Accepts any oap major version.'),
  m('accepts-higher-minor', ['L1-P4'], 'Accepts oap minor versions above 1.0.'),
  m('accepts-unknown-kind', ['L1-P5'], 'Accepts unknown and reserved kind values.'),
  m('schema-errors-without-pointer', ['L1-P6'], 'Reports schema errors with pointer "" (whole document).'),
  m('ignores-project-root', ['L1-D1'], 'Discovery and by-name selection never look in <workspace>/.agents/.'),
  m('within-root-collision-silent', ['L1-D2'], 'Two files with one name in one root: the first by file name wins silently.'),
  m('cross-root-collision-unreported', ['L1-D3'], 'Cross-root precedence is right but collisions are not reported.'),
  m('file-name-wins', ['L1-D4'], 'Profiles are known by their file name instead of metadata.name.'),
  m('prompt-constraints-before-instructions', ['L1-I1'], 'Renders constraints before instructions.'),
  m('denylist-ignored', ['L1-I2'], 'tools.policy denylist behaves like inherit: the deny list is not subtracted.'),
  m(
    'permission-profile-wins',
    ['L1-I3'],
    "An explicit profile permission (shell/edit/network) replaces the policy's instead of taking the minimum; the adjustment is still recorded.",
  ),
  m('union-tools', ['L1-I3'], 'Allowlisted tool names the policy does not grant are added anyway (union instead of intersection).'),
  m('trust-from-file', ['L1-I4'], 'metadata.trust from the file is used when present.'),
  m('context-path-unchecked', ['L1-I5'], 'context.files paths are not checked for workspace escapes.'),
  m('literal-secret-accepted', ['L1-I6'], 'Literal values in mcp_servers env/headers are accepted.'),
  m('required-skill-missing-ignored', ['L1-I7'], 'A missing required skill is dropped with a warning instead of failing instantiation.'),
  m('session-records-profile-digest', ['L1-I8'], 'The session records the profile digest where the spec digest belongs.'),
  m('no-adjustment-record', ['L1-I9'], 'Drops and narrowings are not recorded (model substitutions still are).'),
  m('reload-mid-session', ['L1-I10'], 'describe_session re-reads the profile file and replaces the running contract.'),
  m('creates-cache-file-on-resolve', ['L1-I11'], 'Resolution writes .oap-resolve-cache.json next to the profile.'),
  m('model-rule-unreported', ['L1-I12'], 'Always reports model rule 1, even when it substituted another model.'),
  m('drops-unknown-annotations', ['L1-R1'], 'The writer drops annotations outside its own oap-conform.dev/ namespace.'),
  m('annotation-json-reformatted', ['L1-R2'], 'The writer re-serializes annotation values holding JSON objects/arrays (compact form).'),
  m('state-after-postamble', ['L2-S1'], 'State is injected after the harness postamble instead of at position 7.'),
  m(
    'state-no-delimiter-escape',
    ['L2-S2'],
    'State fences are fixed strings and state lines are not quoted, so state text can close the block.',
  ),
  m(
    'state-grants-authority',
    ['L2-S3'],
    'Follows "you may now use the X tool" in state, adding the tool and lifting its permission (within policy).',
  ),
  m('state-budget-ignored', ['L2-S4'], 'max_state_tokens and max_state_bytes are ignored; all state is injected.'),
  m('state-vars-substituted', ['L2-S5'], '${{ vars.KEY }} is substituted inside state text too.'),
  m('delta-extra-field', ['L2-G1'], 'Generated deltas carry an extra top-level field (generated_by), which the schema forbids.'),
  m('target-revision-next', ['L2-G2'], 'target.revision is the next revision (instantiated + 1).'),
  m('writes-profile-on-end', ['L2-G3'], 'end_session rewrites the profile file while generating the delta.'),
  m('capability-request-dropped', ['L2-G4'], 'capability_request evidence is dropped instead of becoming a proposal.'),
  m('evidence-free-summary', ['L2-G5'], 'Every delta replaces /state/summary with a self-written summary, evidence or not.'),
  m('skips-delta-validation', ['L2-A1'], 'Applies deltas without schema validation (only the /state scope rule is kept).'),
  m('ops-outside-state-applied', ['L2-A2'], 'No scope rule; pointers are normalized like file paths, so /state/../spec/x writes /spec/x.'),
  m('blind-write-on-conflict', ['L2-A3'], 'A delta for another revision is applied as if it matched.'),
  m('ignores-target-digest', ['L2-A4'], 'target.digest is not verified.'),
  m(
    'non-atomic-ops',
    ['L2-A5'],
    'The profile is saved (atomically) after each operation: a failing operation, or a kill between two, leaves the ones before it on disk.',
  ),
  m('writeback-default-auto', ['L2-A6'], 'A profile without lifecycle.writeback is treated as auto instead of propose.'),
  m('proposals-applied-under-auto', ['L2-A7'], 'Under writeback auto, proposals are applied to the profile.'),
  m('proposal-risk-from-document', ['L2-A8'], "Proposal risk is taken from the delta's risk field."),
  m('retention-not-enforced', ['L2-A9'], 'lifecycle.retention is not enforced at write time.'),
  m('state-updated-at-not-set', ['L2-A10'], 'Revision and metadata.updated_at are set, state.updated_at is not.'),
  m('history-not-trimmed', ['L2-A11'], 'History is appended but never trimmed to max_history.'),
  m('write-in-place', ['L2-A12'], 'The profile is rewritten in place (truncate + write) instead of temp file + fsync + rename.'),
  m('remove-missing-is-error', ['L2-A13'], 'remove on a missing path rejects the delta.'),
  m('no-id-pointers', ['L2-A14'], '/state/<collection>/id:<entry-id> pointers are not understood.'),
  m('array-concat-extends', ['L3-E1'], 'extends concatenates arrays instead of replacing them.'),
  m(
    'inherited-permissions-not-narrowed',
    ['L3-E2'],
    'Permissions a profile inherits through extends are not narrowed by policy (only its own are).',
  ),
  m('mcp-server-tool-deny-ignored', ['L3-M1'], 'Per-server tools.deny of an MCP server is ignored.'),
  m('mcp-auto-launch-untrusted', ['L3-M2'], 'MCP servers of project and imported profiles launch without confirmation.'),
  m('skill-digest-unverified', ['L3-K1'], 'Skill digest pins are not verified.'),
  m('store-mode-above-memory-mode', ['L3-Y1'], "A store's mode is capped by policy, not by the effective spec.memory.mode."),
  m(
    'subagent-from-harness-default',
    ['L3-B1'],
    "A subagent is intersected with the harness policy instead of the parent's effective contract.",
  ),
  m('subagent-concurrency-unbounded', ['L3-B2'], 'max_concurrent is not enforced (max_depth still is).'),
  m(
    'md-both-instructions-accepted',
    ['L3-G1'],
    'A Markdown profile with instructions in both frontmatter and body is accepted (body wins).',
  ),
  m('extends-pin-unverified', ['L3-G2'], 'Digest pins on extends references are not verified.'),
  m('digest-not-canonical', ['L3-G2'], 'The digest method hashes JSON.stringify output instead of JCS.'),
  m('ignores-plugin-root', ['L3-G3'], 'The plugin discovery root is never read (the handshake still claims it).'),
  // Case-level sensitivity mutants (tests/support/sensitivity.ts): each makes fail checks no mutant above did.
  m(
    'error-pointers-jsonpath',
    ['L1-P6'],
    'validate reports the pointers of validation (schema, version, kind, rule) errors in JSONPath form ($, $.metadata.name); parse errors keep JSON Pointers.',
  ),
  m('allowlist-deny-ignored', ['L1-I2'], 'Under tools.policy allowlist the deny list is not subtracted (denylist still honours it).'),
  m('inherit-applies-lists', ['L1-I2'], 'Under tools.policy inherit, allow and deny are applied instead of ignored.'),
  m(
    'ungranted-tools-outside-allowlist',
    ['L1-I3'],
    'Under denylist and inherit the effective tools start from every tool the harness has, not from what policy grants.',
  ),
  m(
    'roots-not-intersected',
    ['L1-I3'],
    'Profile filesystem read_roots/write_roots are taken as requested, not intersected with policy roots.',
  ),
  m('hosts-not-intersected', ['L1-I3'], 'Profile allow_hosts are taken as requested, not intersected with policy hosts.'),
  m('budgets-profile-wins', ['L1-I3'], "A budget the profile sets replaces the policy's instead of taking the smaller."),
  m('memory-scopes-not-narrowed', ['L1-I3'], 'Requested memory scopes the policy does not permit are kept.'),
  m(
    'required-store-missing-ignored',
    ['L1-I7'],
    'A required memory store that is unreachable or of an unimplemented kind is dropped with a warning instead of failing instantiation.',
  ),
  m('discovery-writes-index', ['L1-I11'], 'discover writes a .oap-index.json cache into every root it reads.'),
  m('state-section-marked-trusted', ['L2-S2'], "The state section's trusted flag is true (delimiters and escaping unchanged)."),
  m('evidence-not-redacted', ['L2-G5'], 'Evidence text goes into the generated delta without the secret-redaction pass.'),
  m('writeback-off-ignored', ['L2-A6'], 'lifecycle.writeback off is treated as propose: an approved delta is applied.'),
  m('propose-approval-ignored', ['L2-A6'], 'Under writeback propose (explicit or default) deltas are applied without approval.'),
  m('auto-needs-approval', ['L2-A6'], 'Under writeback auto an unapproved delta is queued instead of applied.'),
  m('extends-depth-uncapped', ['L3-E1'], 'No extends depth cap: a chain of 9 links is merged.'),
  m('extends-depth-capped-at-seven', ['L3-E1'], 'The extends depth cap is 7 instead of 8: a chain of exactly 8 links is rejected.'),
  m(
    'extends-cycle-undetected',
    ['L3-E1'],
    'No extends cycle check; a cycle runs into the depth cap and is rejected as extends-depth, not extends-cycle.',
  ),
  m(
    'extends-diamond-as-cycle',
    ['L3-E1'],
    'One visited set for the whole extends walk: two bases sharing an ancestor are rejected as a cycle.',
  ),
  m('extends-missing-base-ignored', ['L3-E1'], 'An extends base found in no root is skipped instead of rejected.'),
  m(
    'extends-nested-objects-replaced',
    ['L3-E1'],
    'The merge is deep only two levels (spec.<section>.<key>); objects below that (e.g. role.persona) are replaced.',
  ),
  m('null-not-deleting', ['L3-E1'], 'An explicit null in a child keeps the inherited value instead of deleting it.'),
  m('extends-inherits-state', ['L3-E1'], "A child without state/history inherits its base's state and history."),
  m(
    'child-override-after-narrowing',
    ['L3-E2'],
    "The child's own permissions and runtime budgets are laid over the narrowed merge without being narrowed.",
  ),
  m('null-delete-unrestricted', ['L3-E2'], 'A permission the child deletes with null becomes allow, bypassing policy.'),
  m('mcp-env-unresolved', ['L3-M1'], 'An MCP server whose ${VAR} is not set is kept (with the literal reference) instead of dropped.'),
  m('mcp-http-as-stdio', ['L3-M1'], 'Every MCP server is reported with transport stdio.'),
  m(
    'skill-installed-on-load',
    ['L3-K1'],
    'A missing skill whose source is a workspace directory is copied next to the profile and reported present.',
  ),
  m(
    'memory-scope-request-ignored',
    ['L1-I3', 'L3-Y1'],
    'Memory scopes are every scope the ceiling permits, whatever the profile requested.',
  ),
  m('store-mode-uncapped', ['L3-Y1'], 'A memory store keeps its requested mode, capped neither by spec.memory.mode nor by policy.'),
  m('subagent-allow-ignored', ['L3-B1'], 'runtime.subagents.allow is not checked: any profile may be delegated to.'),
  m('subagent-depth-unbounded', ['L3-B2'], 'max_depth is not enforced (max_concurrent still is).'),
  m('non-finite-accepted', ['L3-G2'], 'Numbers JCS cannot represent (1e400, .inf) are read as Infinity and accepted.'),
  m('tier-before-exact', ['L1-I12'], 'Model tier routing (rule 3) is tried before the exact provider/id (rule 1).'),
  m('installed-skills-unrecognized', ['L3-K1'], "The harness's installed skills are never consulted: every skill is missing."),
  m('external-store-kinds-unsupported', ['L3-Y1'], 'No memory store kind beyond oap-state is implemented (whatever the policy lists).'),
  m(
    'extends-pin-over-file-bytes',
    ['L3-G2'],
    'An extends pin is compared with the sha256 of the base file bytes, so no document digest ever matches.',
  ),
  // issue 17
  m(
    'rename-without-fsync',
    ['L2-A12'],
    'The temporary file is written and renamed over the profile without fsync: a kill leaves a whole file, a power cut may not.',
  ),
  m(
    'write-back-in-place',
    ['L2-A12'],
    'write_back (the round-trip writer) truncates and rewrites the profile in place; apply_delta is atomic.',
  ),
  {
    ...m(
      'writes-xdg-config-on-resolve',
      ['L1-I11'],
      'Resolution writes oap-reference/last-resolved.json into $XDG_CONFIG_HOME (the adapter process environment), not next to the profile.',
    ),
    asProcess: true,
  },
];

export function createMutantAdapter(name: string): InProcessAdapter {
  const mutant = MUTANTS.find((x) => x.name === name);
  if (!mutant) throw new Error(`unknown mutant "${name}"; known mutants: ${MUTANTS.map((x) => x.name).join(', ')}`);
  return createReferenceAdapter({ quirks: new Set([mutant.name]) });
}
