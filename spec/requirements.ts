/**
 * The requirement manifest: every OAP 1.0.1 requirement ID (conformance.md sections 2-4), its level
 * and strength, a short title in our own words, and its clauses. The runner, the reports and the
 * coverage table all read this one list; the cases that prove each ID are joined in from the suites.
 *
 * Clauses. An ID whose text says several things ("MUST compute profile and spec digests per SPEC
 * §2.2 and MUST support pinning by digest in `extends` and `skills`") is split into one clause per
 * thing it says, and every case names the clause(s) it observes (`CaseDef.clauses`). An ID passes
 * only when each of its clauses has a passing case (results/verdicts.ts), so a harness that was never
 * asked about one part of an ID cannot pass the whole of it. A clause ID is `<ID>.<key>`
 * (`L3-G2.pin-skills`), typed, so a misspelt clause does not compile. The clause texts are ours; the
 * sentences they rest on are in spec/sentences.ts. A SHOULD inside a MUST ID ("and SHOULD warn") is
 * not a clause: it never gates.
 */
const CLAUSES = {
  'L1-P1': {
    accept: 'Accepts at least one of the three encodings',
    document: 'Documents which: every encoding the handshake names is accepted',
  },
  'L1-P2': {
    validate: 'Validates every loaded document against agent-profile.schema.json',
    'refuse-invalid': 'Refuses to instantiate a document that is invalid',
  },
  'L1-P3': { 'reject-major': 'Rejects a document whose oap major version it does not implement' },
  'L1-P4': { 'reject-minor': 'Rejects a higher minor version it does not fully implement' },
  'L1-P5': { 'reject-kind': 'Rejects unknown kind values' },
  'L1-P6': { pointer: 'Reports each validation error with a JSON Pointer to the offending location' },
  'L1-D1': { 'project-root': 'Discovers profiles in the project root (<workspace>/.agents/)' },
  'L1-D2': { 'within-root-error': 'Two profiles with one metadata.name in one root are an error' },
  'L1-D3': {
    precedence: 'A cross-root collision resolves by the SPEC §5.1 precedence order',
    reported: 'A cross-root collision is reported',
  },
  'L1-D4': { 'name-wins': 'metadata.name wins over the file name' },
  'L1-I1': { order: 'The system prompt follows the SPEC §3.2 order, never reordered, harness steps 1 and 8 outside the profile material' },
  'L1-I2': {
    allowlist: 'allowlist (the default): allow ∩ granted, minus deny',
    denylist: 'denylist: granted minus deny',
    inherit: 'inherit: granted, unchanged; allow and deny ignored',
  },
  'L1-I3': {
    tools: 'Tools never beyond what policy alone grants',
    permissions: 'Permission decisions the minimum of profile and policy (deny < ask < allow)',
    'filesystem-roots': 'Filesystem roots within the policy roots',
    'network-hosts': 'Network hosts within the policy hosts',
    memory: 'Memory mode and scopes within the policy',
    budgets: 'Budgets at most the policy budgets',
  },
  'L1-I4': {
    'from-root': 'metadata.trust assigned from the discovery root',
    'discard-file-value': 'A trust value in the file is discarded',
  },
  'L1-I5': { 'reject-outside': 'A context.files path resolving outside the workspace is rejected' },
  'L1-I6': {
    env: 'A literal value in mcp_servers[].env is rejected',
    headers: 'A literal value in mcp_servers[].headers is rejected',
  },
  'L1-I7': {
    skill: 'An unavailable required skill fails instantiation',
    'memory-store': 'An unavailable required memory store fails instantiation',
  },
  'L1-I8': {
    name: 'The session records the profile name',
    revision: 'The session records the revision',
    'spec-digest': 'The session records the spec digest',
  },
  'L1-I9': {
    dropped: 'Every dropped field recorded with a reason',
    narrowed: 'Every narrowed field recorded with a reason',
    substituted: 'Every substituted field recorded with a reason',
  },
  'L1-I10': { 'no-reload': 'No mid-session reload that changes the effective contract' },
  'L1-I11': {
    'no-installs': 'Resolution installs nothing',
    'no-network-writes': 'Resolution sends no network writes',
    'no-file-creation': 'Resolution creates no file',
  },
  'L1-I12': {
    exact: 'Rule 1 (provider and id) when the harness serves that model',
    fallback: 'Rule 2 (the first served fallback) reported when the exact model is not served',
    tier: 'Rule 3 (tier routing) reported when neither exact model nor fallback is served',
    default: 'Rule 4 (the harness default) reported when nothing else applies',
  },
  'L1-R1': { 'unknown-kept': 'Annotations it does not understand survive a read/write cycle' },
  'L1-R2': {
    values: 'Every annotation value survives a read/write cycle unchanged',
    'nested-json': 'Annotation values holding JSON text survive unchanged',
  },
  'L2-S1': { 'position-7': 'State injected at step 7: after the role material, before the postamble' },
  'L2-S2': {
    untrusted: 'Injected state labelled untrusted, agent-authored content',
    delimited: 'Injected state delimited from harness and profile instructions',
  },
  'L2-S3': {
    'tool-access': 'Instruction-like state changes no tool access',
    permissions: 'Instruction-like state changes no permission',
    safety: 'Instruction-like state changes no safety behaviour',
    identity: "Instruction-like state changes no part of the agent's identity",
  },
  'L2-S4': {
    'max-state-tokens': 'spec.context.budget.max_state_tokens respected',
    'max-state-bytes': 'spec.context.budget.max_state_bytes respected',
    'whole-entries': 'Whole entries dropped, none truncated',
    eviction: 'Entries evicted per lifecycle.retention.eviction',
    pinned: 'Pinned entries never evicted',
    'agent-told': 'The agent told that state was elided',
  },
  'L2-S5': { 'no-substitution': 'No ${{ vars.KEY }} substitution inside state' },
  'L2-G1': { 'delta-valid': 'Generated deltas validate against agent-state-delta.schema.json' },
  'L2-G2': { 'target-revision': 'target.revision is the revision the session was instantiated from' },
  'L2-G3': { 'no-profile-write': 'Generating a delta writes nothing to the profile' },
  'L2-G4': {
    metadata: 'Requested /metadata changes only in proposals',
    spec: 'Requested /spec changes only in proposals',
  },
  'L2-G5': { evidence: 'Operations derived from concrete session evidence' },
  'L2-A1': { 'validated-first': 'A delta is validated before anything is applied' },
  'L2-A2': { 'outside-state-rejected': 'An operation whose path is outside /state is rejected' },
  'L2-A3': {
    detect: 'A revision mismatch is detected',
    'no-blind-write': 'A mismatched delta is never blind-written',
    resolution: 'A mismatched delta is rebased, queued or rejected (SPEC §6.3)',
  },
  'L2-A4': { 'verify-digest': 'target.digest verified when present' },
  'L2-A5': { atomic: 'Operations all applied or the profile unchanged' },
  'L2-A6': {
    off: 'writeback off: deltas discarded',
    propose: 'writeback propose: applied only once approved',
    auto: 'writeback auto: state operations applied without approval',
    default: 'writeback absent: propose',
  },
  'L2-A7': { 'proposals-need-approval': 'No proposal applied without explicit human approval, writeback auto included' },
  'L2-A8': {
    tools: 'A proposal widening spec.tools is high risk',
    permissions: 'A proposal widening spec.permissions is high risk',
    memory: 'A proposal widening spec.memory is high risk',
    subagents: 'A proposal widening spec.runtime.subagents is high risk',
  },
  'L2-A9': {
    caps: 'Entry caps (max_facts, max_open_threads) enforced at write time',
    ttl: 'fact_ttl_days enforced at write time',
    eviction: 'Entries over a cap evicted per lifecycle.retention.eviction',
    pinned: 'Pinned entries exempt from eviction',
  },
  'L2-A10': {
    revision: 'metadata.revision incremented by exactly 1',
    'metadata-updated-at': 'metadata.updated_at set',
    'state-updated-at': 'state.updated_at set',
  },
  'L2-A11': {
    append: 'A history entry appended with revision, timestamp, actor, session id, sections and approver',
    trim: 'History trimmed to max_history, oldest first',
  },
  'L2-A12': {
    'temp-same-directory': 'Written to a temporary file in the same directory',
    fsync: 'The temporary file flushed and fsync-ed',
    rename: 'Then renamed over the profile',
  },
  'L2-A13': { 'remove-missing-warns': 'remove on a missing path is a warning, not an error' },
  'L2-A14': { 'id-pointers': '/state/<collection>/id:<entry-id> pointers resolved at apply time' },
  'L3-E1': {
    resolve: 'extends resolves its bases, left to right, the document last; a missing base is an error',
    'deep-merge': 'Objects deep-merge',
    'arrays-replace': 'Arrays replace',
    'null-deletes': 'null deletes the key',
    'not-inherited': 'name, id, revision, state and history never inherited',
    cycles: 'Cycles are an error',
    'depth-cap': 'Depth capped at 8',
  },
  'L3-E2': { 'merged-result': 'Narrowing applied to the merged result' },
  'L3-M1': {
    stdio: 'stdio MCP servers supported',
    http: 'http MCP servers supported',
    'tool-allow-deny': 'Per-server tool allow/deny applied',
  },
  'L3-M2': {
    project: 'Servers of a project profile need confirmation to launch',
    imported: 'Servers of an imported profile need confirmation to launch',
  },
  'L3-K1': {
    support: 'spec.tools.skills supported: present skills present, absent ones reported missing',
    'verify-digest': 'A skill digest pin verified: content other than the pinned is never used',
    'no-install': 'Loading a profile never installs a skill',
  },
  'L3-Y1': {
    'external-store': 'At least one external memory store kind beyond oap-state',
    mode: 'spec.memory.mode enforced',
    scopes: 'spec.memory.scopes enforced',
  },
  'L3-B1': {
    subagents: 'spec.runtime.subagents supported: delegation only to the allowed profiles',
    'parent-ceiling': "A subagent's effective profile intersected with the parent's effective profile",
  },
  'L3-B2': {
    'max-depth': 'max_depth enforced',
    'max-concurrent': 'max_concurrent enforced',
  },
  'L3-G1': {
    yaml: 'YAML profiles supported',
    json: 'JSON profiles supported, read as the same document as their YAML',
    markdown: 'Markdown profiles supported, frontmatter and body, read as the same document',
    'md-both-rejected': 'Instructions in both Markdown frontmatter and body rejected',
  },
  'L3-G2': {
    'profile-digest': 'Profile digest per SPEC §2.2 (JCS, sha256, whole document)',
    'spec-digest': 'Spec digest per SPEC §2.2 (metadata without revision, updated_at and trust, plus spec)',
    'pin-extends': 'Pinning by digest in extends',
    'pin-skills': 'Pinning by digest in skills',
  },
  // The project root is L1-D1's clause at every level; L3-G3 adds the other three.
  'L3-G3': {
    managed: 'The managed discovery root',
    user: 'The user discovery root',
    plugin: 'The plugin discovery root',
  },
  'ADV-vars-role-fields': {
    instructions: '${{ vars.KEY }} substituted in spec.role.instructions',
    objectives: '${{ vars.KEY }} substituted in spec.role.objectives',
    constraints: '${{ vars.KEY }} substituted in spec.role.constraints',
  },
  'ADV-vars-undefined': { error: 'An undefined variable is an error' },
  'ADV-delta-redaction': { 'every-value': 'Secret redaction over every operation value of a generated delta' },
  'ADV-roundtrip-spec-digest': { unchanged: 'A read/write cycle leaves the spec digest unchanged' },
  'ADV-duplicate-keys': {
    json: 'A JSON document with a duplicate key refused',
    yaml: 'A YAML document with a duplicate key refused',
  },
  'ADV-hostile-parse-time': { 'in-time': 'Hostile documents answered within the per-request timeout' },
  'ADV-model-parameters': { 'not-fatal': 'Unsupported model parameters (seed, reasoning_effort) never fail instantiation' },
  'ADV-env-same-name': { 'same-name': 'An mcp_servers env value that references a variable other than its own key is refused' },
  'ADV-working-directory-escape': {
    'reject-outside': 'A context.working_directory that resolves outside the workspace is rejected at resolve time',
  },
  'ADV-pointer-paths': { 'json-pointer': 'Delta operations address /state by RFC 6901 JSON Pointer, `-` appending' },
} as const satisfies Record<string, Readonly<Record<string, string>>>;

type ClauseTable = typeof CLAUSES;
/** Every requirement and advisory ID: the IDs that have clauses. */
type JudgedId = keyof ClauseTable;
export type RequirementId = Extract<JudgedId, `L${number}-${string}`>;
export type AdvisoryId = Extract<JudgedId, `ADV-${string}`>;
/** `<ID>.<key>`, e.g. `L3-G2.pin-skills`. */
export type ClauseId = { [K in JudgedId]: `${K}.${Extract<keyof ClauseTable[K], string>}` }[JudgedId];

export interface Clause {
  id: ClauseId;
  text: string;
}

type Strength = 'MUST' | 'SHOULD';

export interface Requirement {
  id: RequirementId;
  level: 1 | 2 | 3;
  strength: Strength;
  area: string;
  title: string;
  clauses: readonly Clause[];
}

function clausesOfTable(id: JudgedId): Clause[] {
  return Object.entries(CLAUSES[id]).map(([key, text]) => ({ id: `${id}.${key}` as ClauseId, text }));
}

const r = (id: RequirementId, strength: Strength, area: string, title: string): Requirement => ({
  id,
  level: Number(id[1]) as 1 | 2 | 3,
  strength,
  area,
  title,
  clauses: clausesOfTable(id),
});

export const REQUIREMENTS: readonly Requirement[] = [
  r('L1-P1', 'MUST', 'parsing', 'Accepts at least one encoding and documents which'),
  r('L1-P2', 'MUST', 'parsing', 'Validates against the profile schema; never instantiates an invalid document'),
  r('L1-P3', 'MUST', 'parsing', 'Rejects an unimplemented oap major version'),
  r('L1-P4', 'MUST', 'parsing', 'Rejects a higher minor version it does not fully implement'),
  r('L1-P5', 'MUST', 'parsing', 'Rejects unknown kind values'),
  r('L1-P6', 'MUST', 'parsing', 'Reports validation errors with a JSON Pointer'),
  r('L1-D1', 'MUST', 'discovery', 'Supports the project discovery root'),
  r('L1-D2', 'MUST', 'discovery', 'Two profiles with one name in one root is an error'),
  r('L1-D3', 'MUST', 'discovery', 'Cross-root collisions resolve by precedence and are reported'),
  r('L1-D4', 'MUST', 'discovery', 'metadata.name wins over the file name (warning recommended)'),
  r('L1-I1', 'MUST', 'instantiation', 'System prompt assembled in the normative order'),
  r('L1-I2', 'MUST', 'instantiation', 'spec.tools.policy applied per the policy table'),
  r('L1-I3', 'MUST', 'instantiation', 'Narrowing: effective never more permissive than local policy alone'),
  r('L1-I4', 'MUST', 'instantiation', 'Trust assigned from the discovery root; file value discarded'),
  r('L1-I5', 'MUST', 'instantiation', 'context.files paths outside the workspace rejected'),
  r('L1-I6', 'MUST', 'instantiation', 'Literal values in MCP env and headers rejected'),
  r('L1-I7', 'MUST', 'instantiation', 'Missing required skill or memory store fails instantiation'),
  r('L1-I8', 'MUST', 'instantiation', 'Session records name, revision and spec digest'),
  r('L1-I9', 'MUST', 'instantiation', 'Every drop, narrowing and substitution recorded with a reason'),
  r('L1-I10', 'MUST', 'instantiation', 'No mid-session reload that changes the effective contract'),
  r('L1-I11', 'MUST', 'instantiation', 'No installs, network writes or file creation during resolution'),
  r('L1-I12', 'MUST', 'instantiation', 'Model resolution rule reported when the exact model is not used'),
  r('L1-R1', 'MUST', 'round-trip', 'Unknown annotations preserved across read/write'),
  r('L1-R2', 'MUST', 'round-trip', 'All annotation values preserved, including JSON-in-string values'),
  r('L2-S1', 'MUST', 'state injection', 'State injected at position 7 of the assembly order'),
  r('L2-S2', 'MUST', 'state injection', 'State labelled untrusted and delimited'),
  r('L2-S3', 'MUST', 'state injection', 'Instruction-like text in state changes no authority'),
  r('L2-S4', 'MUST', 'state injection', 'State budgets: whole entries dropped by eviction, pinned kept, agent told'),
  r('L2-S5', 'MUST', 'state injection', 'No ${{ vars.KEY }} substitution inside state'),
  r('L2-G1', 'MUST', 'delta generation', 'Generated deltas validate against the delta schema'),
  r('L2-G2', 'MUST', 'delta generation', 'target.revision is the instantiated revision'),
  r('L2-G3', 'MUST', 'delta generation', 'Generating a delta does not write the profile'),
  r('L2-G4', 'MUST', 'delta generation', 'Requested contract changes only in proposals'),
  r('L2-G5', 'SHOULD', 'delta generation', 'Operations derived from concrete session evidence'),
  r('L2-A1', 'MUST', 'applicator', 'Delta validated before applying'),
  r('L2-A2', 'MUST', 'applicator', 'Operations outside /state rejected'),
  r('L2-A3', 'MUST', 'applicator', 'Revision mismatch detected; rebase, queue or reject, never blind-write'),
  r('L2-A4', 'MUST', 'applicator', 'target.digest verified when present'),
  r('L2-A5', 'MUST', 'applicator', 'Operations applied atomically'),
  r('L2-A6', 'MUST', 'applicator', 'lifecycle.writeback honoured, default propose'),
  r('L2-A7', 'MUST', 'applicator', 'Proposals never applied without human approval, even under auto'),
  r('L2-A8', 'MUST', 'applicator', 'Widening proposals classified high risk'),
  r('L2-A9', 'MUST', 'applicator', 'Retention enforced at write time'),
  r('L2-A10', 'MUST', 'applicator', 'Revision +1; metadata.updated_at and state.updated_at set'),
  r('L2-A11', 'MUST', 'applicator', 'History entry appended with its fields and trimmed oldest-first'),
  r('L2-A12', 'MUST', 'applicator', 'File written atomically: temp file in same directory, fsync, rename'),
  r('L2-A13', 'MUST', 'applicator', 'remove on a missing path is a warning'),
  r('L2-A14', 'SHOULD', 'applicator', '/state/<collection>/id:<entry-id> pointers supported'),
  r('L3-E1', 'MUST', 'composition', 'extends merge rules, cycles and depth cap'),
  r('L3-E2', 'MUST', 'composition', 'Narrowing applied to the merged result'),
  r('L3-M1', 'MUST', 'mcp', 'stdio and http MCP servers with per-server tool allow/deny'),
  r('L3-M2', 'SHOULD', 'mcp', 'MCP launch from project/imported profiles needs confirmation'),
  r('L3-K1', 'MUST', 'skills', 'Skills supported, digests verified, never installed on load'),
  r('L3-Y1', 'MUST', 'memory', 'An external memory store kind; memory mode and scopes enforced'),
  r('L3-B1', 'MUST', 'delegation', "Subagent intersected with the parent's effective profile"),
  r('L3-B2', 'MUST', 'delegation', 'max_depth and max_concurrent enforced'),
  r('L3-G1', 'MUST', 'encodings', 'All three encodings; instructions in both Markdown places rejected'),
  r('L3-G2', 'MUST', 'digests', 'Profile and spec digests per SPEC 2.2; digest pinning in extends and skills'),
  r('L3-G3', 'MUST', 'discovery', 'Managed, user, project and plugin discovery roots'),
];

export const REQUIREMENT_IDS: ReadonlySet<string> = new Set(REQUIREMENTS.map((q) => q.id));

/**
 * Advisories: MUSTs of the specification that have no conformance requirement ID. The suite checks
 * and reports them (report.json, every format) with the sentence each rests on, but they never gate
 * a claim and never appear in result.json's `passed` or `failed`: only conformance.md can make a
 * requirement of them.
 */
export interface Advisory {
  id: AdvisoryId;
  level: 1 | 2 | 3;
  area: string;
  title: string;
  /** The normative sentence, quoted, with its section. */
  restsOn: string;
  clauses: readonly Clause[];
}

const ADVISORY_LIST: readonly Omit<Advisory, 'clauses'>[] = [
  {
    id: 'ADV-vars-role-fields',
    level: 1,
    area: 'instantiation',
    title: '${{ vars.KEY }} substituted in instructions, objectives and constraints alike',
    restsOn:
      'SPEC 3.6: "A harness supporting substitution MUST support ${{ vars.KEY }} in spec.role.instructions, objectives, and constraints"',
  },
  {
    id: 'ADV-vars-undefined',
    level: 1,
    area: 'instantiation',
    title: 'An undefined variable is an error, not an empty string',
    restsOn: 'SPEC 3.6: "Undefined variables are an error, not an empty string." (and SPEC 5.2 step 5)',
  },
  {
    id: 'ADV-delta-redaction',
    level: 2,
    area: 'delta generation',
    title: 'Secret redaction over every value of a generated delta',
    restsOn:
      'security.md T3: "Delta generation MUST run the harness\'s secret-redaction pass over every operation value before the delta is written."',
  },
  {
    id: 'ADV-roundtrip-spec-digest',
    level: 1,
    area: 'round-trip',
    title: 'A read/write cycle leaves the spec digest unchanged',
    restsOn:
      'SPEC 2.3: "metadata and spec are authored by humans. Agents may propose changes to them but MUST NOT apply changes to them." A writer that adds or rewrites spec fields changes the contract a reviewer approved.',
  },
  {
    id: 'ADV-duplicate-keys',
    level: 1,
    area: 'parsing',
    title: 'Documents with duplicate keys are refused',
    restsOn:
      'SPEC 2.1: "All three encodings MUST produce identical logical documents." A duplicate key has no single logical value, so readers disagree on what the document says.',
  },
  {
    id: 'ADV-hostile-parse-time',
    level: 1,
    area: 'parsing',
    title: 'Hostile documents are refused within the per-request timeout',
    restsOn:
      'security.md 1: "an attacker can author a profile that a user will load." A document that makes the resolver run unbounded is a denial of service on every harness that loads it.',
  },
  {
    id: 'ADV-model-parameters',
    level: 1,
    area: 'instantiation',
    title: 'Model parameters a provider may not support (seed, reasoning_effort) never fail instantiation',
    restsOn:
      'SPEC 3.3: "A harness MUST NOT fail because a provider does not support `seed` or `reasoning_effort`; it drops the unsupported parameter and warns."',
  },
  {
    id: 'ADV-env-same-name',
    level: 1,
    area: 'instantiation',
    title: 'MCP env values are same-name references: one that names another variable is refused',
    restsOn:
      'SPEC 3.4: "Environment values MUST be same-name `${VARIABLE}` references, never literals". A reference of another name (`FILES_TOKEN: ${HOME_TOKEN}`) is no literal, so L1-I6 ("MUST reject literal values") does not cover it; the same-name rule has no requirement ID (INTERPRETATIONS.md#a-reference-of-another-name).',
  },
  {
    id: 'ADV-working-directory-escape',
    level: 1,
    area: 'instantiation',
    title: 'A context.working_directory that resolves outside the workspace is rejected at instantiate',
    restsOn:
      'security.md T6: "`context.files`, `permissions.filesystem.*`, or `context.working_directory` reach outside the workspace. Mitigation (MUST). Resolve and reject at resolve time [...] Resolve symlinks before the check." L1-I5 names `spec.context.files[].path` only and L1-I3 the filesystem roots; no requirement ID names the working directory (INTERPRETATIONS.md).',
  },
  {
    id: 'ADV-pointer-paths',
    level: 2,
    area: 'applicator',
    title: 'Delta operations address /state by JSON Pointer (RFC 6901), `-` appending',
    restsOn:
      'SPEC 6.2: "An applicator MUST support pointer paths and SHOULD additionally accept the convenience form `/state/facts/id:<entry-id>`" (and "`path` is an RFC 6901 JSON Pointer rooted at `/state`. `-` appends to an array.")',
  },
];

export const ADVISORIES: readonly Advisory[] = ADVISORY_LIST.map((a) => ({ ...a, clauses: clausesOfTable(a.id) }));

export const ADVISORY_IDS: ReadonlySet<string> = new Set(ADVISORIES.map((a) => a.id));

export function isAdvisoryId(id: string): id is AdvisoryId {
  return ADVISORY_IDS.has(id);
}

/** Every clause of every requirement and advisory, in manifest order. */
const CLAUSE_LIST: readonly Clause[] = [...REQUIREMENTS.flatMap((q) => q.clauses), ...ADVISORIES.flatMap((a) => a.clauses)];

const CLAUSE_TEXT: ReadonlyMap<string, string> = new Map(CLAUSE_LIST.map((c) => [c.id, c.text]));

export function isClauseId(id: string): id is ClauseId {
  return CLAUSE_TEXT.has(id);
}

/** The clauses of a requirement or advisory ID; empty for an ID the manifest does not know. */
export function clausesOf(id: string): readonly Clause[] {
  return REQUIREMENTS.find((q) => q.id === id)?.clauses ?? ADVISORIES.find((a) => a.id === id)?.clauses ?? [];
}

/** The requirement or advisory ID a clause belongs to: what comes before its last `.`. */
export function idOfClause(clause: string): string {
  return clause.slice(0, clause.lastIndexOf('.'));
}

export function clauseText(clause: string): string | undefined {
  return CLAUSE_TEXT.get(clause);
}

/**
 * The one clause of an ID that has one: for cases built from a table of requirement IDs (the
 * fixture manifests, the upstream rules) whose IDs each say one thing. Several clauses are a
 * question the caller must answer itself, so they throw.
 */
export function soleClause(id: string): ClauseId {
  const all = clausesOf(id);
  if (all.length !== 1) throw new Error(`${id} has ${all.length} clauses; name the one the case observes`);
  return all[0]!.id;
}

/** The level of a requirement or advisory ID. */
export function levelOfId(id: string): 1 | 2 | 3 {
  const a = ADVISORIES.find((x) => x.id === id);
  return a ? a.level : requirement(id).level;
}

function requirement(id: string): Requirement {
  const found = REQUIREMENTS.find((q) => q.id === id);
  if (!found) throw new Error(`unknown requirement ID ${id}`);
  return found;
}

/** Required (MUST) IDs at `level` and below: what a level claim needs in `passed`. */
export function requiredIdsUpTo(level: 1 | 2 | 3): string[] {
  return REQUIREMENTS.filter((q) => q.level <= level && q.strength === 'MUST').map((q) => q.id);
}

/** The level a case belongs to: the highest level among the IDs it proves. */
export function caseLevel(c: { readonly requirements: readonly string[] }): 1 | 2 | 3 {
  return Math.max(...c.requirements.map(levelOfId)) as 1 | 2 | 3;
}
