/**
 * The mutants: the reference harness with exactly one quirk switched on. Each violates the named
 * requirement ID(s) and, as far as a black-box check can tell, nothing else; a conformance suite is
 * only as good as the set of mutants it kills. MUTANTS.md documents what a check must observe.
 */
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { createReferenceAdapter, HARNESS_NAME } from './index.js';
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
  m('evidence-not-redacted', ['ADV-delta-redaction'], 'Evidence text goes into the generated delta without the secret-redaction pass.'),
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
  // Issue 14 part B (Level 2 blind spots): each is caught by a check added for that issue.
  m(
    'state-json-line',
    ['L2-S2'],
    'State is rendered as <oap-state>, the entries as one JSON line, </oap-state>: JSON escaping hides line breaks, not the closing tag.',
  ),
  m('writeback-from-annotation', ['L2-A6'], 'An annotation named writeback overrides spec.lifecycle.writeback.'),
  m(
    'writeback-yaml11-off',
    ['L2-A6'],
    'The applicator re-reads a YAML profile with YAML 1.1 booleans, so an unquoted writeback: off is false and read as the default propose.',
  ),
  m(
    'state-snapshot-skips-writeback',
    ['L2-A6'],
    'A delta whose one operation replaces the whole /state is written as a snapshot before the writeback gate (off and propose alike).',
  ),
  m(
    'writeback-off-persisted-at-end',
    ['L2-A6'],
    'writeback off is read as "no review step": end_session applies the session\'s delta to the profile itself.',
  ),
  m(
    'retention-skips-unkeyed-facts',
    ['L2-A9'],
    "Only facts carrying the eviction strategy's key (learned_at, confidence, last_used_at) are eviction candidates; minimal facts are never evicted.",
  ),
  m('fact-ttl-ignored', ['L2-A9'], "lifecycle.retention.fact_ttl_days is not applied at write time (a fact's own expires_at still is)."),
  m('retention-zero-means-unlimited', ['L2-A9'], 'max_facts: 0 and max_open_threads: 0 are read as "no cap" (a falsy check).'),
  m('history-zero-means-unlimited', ['L2-A11'], 'max_history: 0 is read as unset (`max_history || 50`): history is kept up to 50.'),
  m(
    'array-index-off-by-one',
    ['L2-A5'],
    'Array indexes are bounds-checked with <= length: a replace at index == length appends instead of failing the delta.',
  ),
  m('array-add-index-clamped', ['L2-A5'], 'An add at an array index past the end is clamped to an append (splice without a bounds check).'),
  m('replace-by-id-upserts', ['L2-A5'], 'A replace of an id: entry that does not exist adds it (upsert) instead of failing the delta.'),
  m(
    'result-not-validated',
    ['L2-A5'],
    'The changed profile is written without validating it, so a delta can leave a schema-invalid profile.',
  ),
  m(
    'remove-missing-id-is-error',
    ['L2-A13'],
    'A remove whose id: names no entry rejects the delta (a remove of a missing index still warns).',
  ),
  m(
    'target-digest-not-canonical',
    ['L2-A4'],
    "target.digest is compared with the SHA-256 of the document's JSON in the file's key order, not its JCS form.",
  ),
  m(
    'risk-guarded-paths-only',
    ['L2-A8'],
    "Only proposal paths starting with a guarded section's path are classified; /spec/runtime and /spec keep the document's risk.",
  ),
  m(
    'redaction-statements-only',
    ['ADV-delta-redaction'],
    'The redaction pass covers statement and decision texts only: thread titles, proposal values and rationales reach the delta as they are.',
  ),
  // Issue 13 part A: the cases split one thing per case (L3-G1 encodings, L1-I9 dimensions, L2-S3 claims).
  m('md-heading-as-title', ['L3-G1'], 'The Markdown reader takes a leading "# Title" line of the body as a title, not as instructions.'),
  m(
    'md-role-from-body-only',
    ['L3-G1'],
    "The Markdown reader builds spec.role from the body alone: the frontmatter's role supplements are lost.",
  ),
  m(
    'md-frontmatter-state-dropped',
    ['L3-G1'],
    'The Markdown reader keeps only the configuration of the frontmatter: its state is dropped.',
  ),
  m(
    'model-substitution-unrecorded',
    ['L1-I9'],
    'A substituted model is reported with its resolution rule but not recorded as a substituted field.',
  ),
  m(
    'state-system-lines-promoted',
    ['L2-S3'],
    'State entries that start with "SYSTEM:" are also rendered in a trusted harness section (as system messages).',
  ),
  // Issue 14 (Level 1 blind spots and the Level 1 advisories).
  m(
    'env-reference-name-unchecked',
    ['L1-I6'],
    'An mcp_servers env value is accepted when it has the ${VAR} shape, whatever variable it names (FILES_TOKEN: ${HOME_TOKEN}).',
  ),
  m(
    'secret-reference-trailing-newline',
    ['L1-I6'],
    'env and header values are matched with a $ that also matches before a final newline (as Python re does), so "${TOKEN}\\n" passes.',
  ),
  m(
    'allowlist-without-allow-grants-all',
    ['L1-I2'],
    'An allowlist without an allow list is read as "no restriction": every granted tool minus deny.',
  ),
  m('inherit-applies-deny', ['L1-I2'], 'tools.policy inherit subtracts the deny list (as denylist does); allow is ignored.'),
  m(
    'lone-permission-ignored',
    ['L1-I3'],
    "The profile's permission decisions are read only when it states a default: shell: deny alone has no effect.",
  ),
  m(
    'unset-categories-filled-with-ask',
    ['L1-I3'],
    "Categories a profile with a default leaves unset are filled with the harness's own default, ask, instead of the profile's default.",
  ),
  m('profile-hosts-need-network-allow', ['L1-I3'], "The profile's allow_hosts are read only when the profile also says network: allow."),
  m(
    'profile-memory-mode-ignored',
    ['L1-I3', 'L3-Y1'],
    "The session's memory mode is the policy's, whatever lower mode the profile asks for (stores are still capped). Both IDs: L3-Y1 requires spec.memory.mode to be enforced, and no narrower form of the defect exists.",
  ),
  m(
    'profile-timeout-and-context-window-ignored',
    ['L1-I3'],
    "The profile's timeout_seconds and max_context_tokens are not read: the harness's own limits apply.",
  ),
  m('zero-budget-unlimited', ['L1-I3'], 'A budget of 0 (in the profile or the policy) is read as "no limit".'),
  m(
    'budgets-int32',
    ['L1-I3'],
    'Integer budgets are kept in 32-bit signed fields with -1 as "no limit": 2^31 wraps negative and reads as unlimited.',
  ),
  m(
    'fs-root-symlinks-not-resolved',
    ['L1-I3'],
    'permissions.filesystem roots are checked by their text only: a root through a symlink (or a .. after one) that leaves the workspace is granted.',
  ),
  m(
    'fs-roots-taken-as-written',
    ['L1-I3'],
    'permissions.filesystem roots are copied into the session as written: not checked for .., not normalized, not narrowed.',
  ),
  m(
    'context-symlinks-not-resolved',
    ['L1-I5'],
    'context.files paths are checked by their text only: a symlink (or a .. after one) that leaves the workspace is accepted.',
  ),
  m('empty-annotations-dropped', ['L1-R1'], 'The writer drops annotations whose value is the empty string (a truthiness filter).'),
  m(
    'structured-annotations-dropped',
    ['L1-R1'],
    'The writer drops annotations whose value holds a line break or JSON text; one-line plain values survive.',
  ),
  m(
    'digest-keys-code-point-order',
    ['L3-G2'],
    "The digest command sorts keys by Unicode code point (Python's sorted) instead of UTF-16 code units.",
  ),
  m(
    'digest-numbers-python-repr',
    ['L3-G2'],
    "The digest command writes numbers as Python's repr does (1e+16, 2e-05) instead of ECMAScript's form (RFC 8785).",
  ),
  m(
    'digest-non-ascii-escaped',
    ['L3-G2'],
    'The digest command escapes non-ASCII characters as \\uXXXX (ensure_ascii) instead of writing UTF-8.',
  ),
  m(
    'digest-spec-keeps-owned-metadata',
    ['L3-G2'],
    "The digest command's spec digest keeps metadata.revision, updated_at and trust, so writeback and trust assignment change it.",
  ),
  m(
    'digest-non-finite-as-null',
    ['L3-G2'],
    'The digest command reads 1e400 / .inf with a plain parser and canonicalises the resulting Infinity as null (as JSON.stringify does).',
  ),
  m(
    'session-spec-digest-keeps-owned-metadata',
    ['L1-I8'],
    'The session records a spec digest computed with metadata.revision, updated_at and trust still in it.',
  ),
  m(
    'vars-instructions-only',
    ['ADV-vars-role-fields'],
    '${{ vars.KEY }} is substituted in instructions only, not in objectives or constraints.',
  ),
  m(
    'undefined-vars-empty',
    ['ADV-vars-undefined'],
    'An undefined ${{ vars.KEY }} is replaced by the empty string instead of failing instantiation.',
  ),
  m(
    'writer-adds-tools-policy-inherit',
    ['ADV-roundtrip-spec-digest'],
    'The write-back writer serializes its model, whose tools.policy defaults to inherit, so a round trip widens the contract.',
  ),
  m(
    'json-duplicate-keys-last-wins',
    ['ADV-duplicate-keys'],
    'A JSON key written twice is read as its last value (JSON.parse), not refused.',
  ),
  m(
    'yaml-duplicate-keys-last-wins',
    ['ADV-duplicate-keys'],
    'A YAML key written twice is read as its last value (a lenient loader), not refused.',
  ),
  m(
    'limit-refusal-retried-with-backoff',
    ['ADV-hostile-parse-time'],
    'validate takes a resource-limit refusal (alias bomb, deep nesting) for a transient failure and retries with backoff for 7.75 s before answering.',
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
  // A mutant names itself in the handshake, so its result is never read as the reference's.
  return createReferenceAdapter({ quirks: new Set([mutant.name]), name: mutantImplementationName(mutant.name) });
}

/** `oap-conform-reference+mutant:<name>`: the implementation name a mutant's handshake reports. */
function mutantImplementationName(name: string): string {
  return `${HARNESS_NAME}+mutant:${name}`;
}
