/**
 * The reference harness as a table of rules. A rule is one decision the harness makes, named for
 * the decision (which roots a session is granted, whether a revision conflicts, how a file is
 * replaced), and kept as small and as pure as the decision allows: it receives the context it
 * needs as arguments, and a rule that acts through other rules receives the table itself (`rules`)
 * as its last argument, so an override of one of those is seen. The harness's modules do the
 * plumbing (reading files, walking documents, assembling protocol answers) and ask the table for
 * every decision; `REFERENCE_RULES` (./rules/index.ts) is the table OAP 1.0.1 asks for.
 *
 * A mutant is this table with exactly one rule replaced (harnesses/mutants, MUTANTS.md), so a
 * check that kills it tests exactly that decision.
 */
import type { AdapterIssueT, AdjustmentT, EffectiveContractT, EvidenceT, HarnessPolicyT, PromptSectionT } from '../../protocol/messages.js';
import type { OapIssue } from '../../spec/document/issue.js';
import type {
  Budget,
  BudgetKey,
  Decision,
  Eviction,
  MemoryMode,
  ModelChoice,
  ModelRequest,
  PermissionKey,
  RequestedPermissions,
  Retention,
  ToolPolicy,
  Writeback,
} from '../../spec/semantics/index.js';
import type { DeltaOperation, OpResult } from './apply/operation.js';
import type { Ceiling } from './ceiling.js';
import type { Digests, Encoding, JsonObject, Read } from './json.js';
import type { Containment } from './paths.js';
import type { DiscoveryRootsT, RootDir, RootKind, Trust } from './roots.js';

/** Whose narrowing a ceiling stands for: the harness policy (a top-level session) or a parent session (a subagent). */
export type Origin = Ceiling['origin'];
type SectionKind = PromptSectionT['kind'];
type Collision = { name: string; scope: 'across-roots'; paths: string[]; winner: string };
/** Why the harness looks for profiles: the discover method, a by-name selection, an extends base, the root of a file given by path. */
export type RootPurpose = 'discover' | 'select' | 'extends' | 'locate';
/** The fields `${{ vars.KEY }}` may appear in; `state` is one SPEC §3.6 excludes. */
type VariableTarget = 'instructions' | 'objectives' | 'constraints' | 'state';
/** Where a generated delta's text comes from (the redaction pass covers all of them). */
type EvidenceField = 'statement' | 'decision' | 'thread-title' | 'proposal-value' | 'rationale';
export type Risk = 'low' | 'medium' | 'high';
export type RootKey = 'read_roots' | 'write_roots';

/** A state entry as eviction sees it: pinned ones never go; the summary goes last; a smaller key goes first under a strategy. */
export interface StateEntry {
  pinned: boolean;
  last: boolean;
  key(eviction: Eviction): number;
}

/** The state block's framing: how one entry is written inside it, and how the kept entries are enclosed. */
interface StateFraming {
  line(body: string): string;
  block(kept: ReadonlyArray<{ body: string; line: string }>, notice: string | null): string;
}

/** The filesystem roots a profile asks for, as written, with the document findings at them. */
export interface RootsRequest {
  read_roots?: unknown[];
  write_roots?: unknown[];
  /** Errors the document layer reported at the roots of the profile's own file. */
  findings: AdapterIssueT[];
}

type RootsGrant = { read_roots: string[]; write_roots: string[]; adjustments: AdjustmentT[] } | { errors: AdapterIssueT[] };

/** What a rule that grants part of a contract hands back: the value and the adjustments to record (L1-I9). */
export interface Granted<T> {
  value: T;
  adjustments: AdjustmentT[];
}

export interface Rules {
  // ---------------------------------------------------------------- reading and validating documents

  /** The harness's reader: text or bytes in one encoding to a value, or the issues that prevent one. */
  readDocument(input: string | Uint8Array, encoding: Encoding): Read;
  /** The harness's profile validator: schema and structural findings (a number's range is the reader's decision). */
  profileIssues(value: unknown, rules: Rules): OapIssue[];
  /** The profile an instantiation loads from a parsed document, and the findings that stop it (SPEC §5.2 step 2). */
  instantiable(value: unknown, rules: Rules): { profile: unknown; issues: OapIssue[] };
  /** Is a `context.files` path inside the workspace (on disk when the workspace is known; by its text otherwise)? */
  contextFile(path: string, workspace?: string): Containment;
  /**
   * Is `context.working_directory` inside the workspace (on disk, absolute only where the policy
   * permits it, when the workspace is known; by its text otherwise)? security.md T6.
   */
  workingDirectory(path: string, workspace?: string, allowAbsolute?: boolean): Containment;
  /** The harness's delta validator (SPEC §5.6 step 1, L2-A1). */
  deltaIssues(delta: unknown): OapIssue[];
  /** How an operation's path is read: the pointer it is, or why it may not be applied (SPEC §5.6 step 4, L2-A2). */
  operationPath(path: unknown): { path: string } | { error: string };
  /** How `validate` writes where a validation finding is (RFC 6901, L1-P6). */
  reportedPointer(pointer: string): string;
  /** The waits before reading a document again after a failed read (none: refusals are final). */
  retryDelays(issues: readonly OapIssue[]): number[];

  // ---------------------------------------------------------------- digests (SPEC §2.2)

  /** What the digest command makes of a document: the harness's own read of it. */
  digestRead(read: Read, source: { text(): string; encoding?: Encoding }): Read;
  /** The digests the digest command reports: JCS over the document and over its spec digest input. */
  reportedDigests(doc: unknown): Digests;

  // ---------------------------------------------------------------- writing files

  /** One annotation as the writer writes it back (undefined drops it): every annotation as it is (L1-R1, L1-R2). */
  writeAnnotation(key: string, value: unknown): unknown;
  /** The document `write_back` writes: the one it read. */
  roundTripDocument(doc: JsonObject): JsonObject;
  /** How a profile file is replaced: temporary file, fsync, rename (SPEC §5.6 step 10, L2-A12). */
  saveProfile(path: string, text: string, writer: 'applicator' | 'round-trip', rules: Rules): void;
  /** Flush a written temporary file before it is renamed over the profile. */
  fsyncBeforeRename(fd: number): void;

  // ---------------------------------------------------------------- discovery (SPEC §5.1)

  /** The directories searched for profiles, in precedence order. */
  discoveryRoots(roots: DiscoveryRootsT, purpose: RootPurpose): RootDir[];
  /** The one definition of a name within one root, or undefined: a collision, and no file wins (L1-D2). */
  withinRootCollision<T extends { path: string }>(name: string, found: readonly T[]): T | undefined;
  /** The record of a name defined in several roots (L1-D3). */
  crossRootCollision(name: string, paths: string[], winner: string): Collision | undefined;
  /** The trust of the profile that wins a name, from the roots defining it in search order (SPEC §7.1: the winner's own root; L1-I4). */
  winnerTrust(winner: RootKind, definedIn: readonly RootKind[]): Trust;
  /** The name a profile is known by (L1-D4). */
  profileName(metadataName: string, fileName: string): string;
  /** What discovery leaves behind in the roots it read: nothing (L1-I11). */
  discoveryFootprint(dirs: readonly string[], names: readonly string[]): void;

  // ---------------------------------------------------------------- resolution (SPEC §5.2, §4)

  /** The trust a loaded profile gets (SPEC §7.1, L1-I4). */
  assignTrust(rootTrust: Trust, fileTrust: unknown): Trust;
  /** What resolution leaves behind: nothing (L1-I11). */
  resolutionFootprint(name: unknown, profilePath: string): void;
  /** May an extends chain reach this depth (bases below the profile)? At most 8. */
  extendsDepthAllowed(depth: number): boolean;
  /** A base found in no root: the issue that rejects the profile, or undefined to go on without it. */
  missingExtendsBase(name: string, pointer: string, profilePath: string): AdapterIssueT | undefined;
  /** Is an extends list that names one base twice refused? No: the base is merged again, which changes nothing (SPEC §4). */
  refusesRepeatedBase(names: readonly string[]): boolean;
  /** Is a base already on the chain that leads to it? */
  extendsCycle(chain: readonly string[], base: string): boolean;
  /** The chain a base's own walk carries. */
  extendsChain(chain: string[], base: string): string[];
  /** The digest a pinned base actually has, when it is not the pin's (the base's spec digest). */
  extendsPinMismatch(pin: string, base: JsonObject, basePath: string): string | undefined;
  /** One value of the extends merge: objects deep-merge, arrays and scalars replace, null deletes (SPEC §4). */
  mergeValue(base: unknown, child: unknown, depth: number, rules: Rules): unknown;
  /** What a base contributes to a merge: everything but identity and learned material. */
  inheritedPart(base: JsonObject): JsonObject;
  /** The fields variables are substituted in (SPEC §3.6): never state. */
  substitutionTargets(): readonly VariableTarget[];
  /** The value of a variable the profile defines (the empty string too: it is defined), or undefined when it defines none of that key. */
  definedVariable(vars: Readonly<Record<string, string>>, key: string): string | undefined;
  /** The text of a variable the profile does not define, or undefined: instantiation fails. */
  undefinedVariable(key: string): string | undefined;
  /** Is an MCP server (as declared) kept when these `${VAR}` references of its env and headers are not set? */
  keepsMcpServer(missing: readonly string[], server: JsonObject): boolean;
  /** The installed skill of a name. */
  installedSkill(name: string, policy: HarnessPolicyT): HarnessPolicyT['skills'][number] | undefined;
  /** Does an installed skill match a profile's digest pin? */
  skillPinMatches(pin: string, installed: HarnessPolicyT['skills'][number]): boolean;
  /** Is a missing skill made present (installed) while loading? Never: it is reported missing. */
  acquireSkill(skill: JsonObject, ctx: { workspace: string; profilePath: string }): boolean;
  /** Does a missing skill, store or hook fail instantiation? When the profile marks it required. */
  refusesMissing(what: 'skill' | 'store' | 'hook', required: boolean): boolean;
  /** What resolution does to a declared memory store beyond checking it is available: nothing (L1-I11). */
  storeFootprint(store: { name: string; kind: string; uri?: string }): void;
  /** Is a store kind beyond `oap-state` one the harness implements? */
  storeKindImplemented(kind: string, policy: HarnessPolicyT): boolean;

  // ---------------------------------------------------------------- narrowing (SPEC §7.2)

  /** The decision the harness policy gives a permission key: the category's own, else the policy's `default`. */
  policyDecision(permissions: HarnessPolicyT['permissions'], key: PermissionKey): Decision;
  /** Does the policy's `tools.grant` select a tool? The protocol's glob dialect: `*` within one segment, braces literal. */
  policyGrants(grant: readonly string[], tool: string): boolean;

  /** What the session is granted of the roots a profile asks for: checked, contained, narrowed. */
  grantRoots(request: RootsRequest, limits: Record<RootKey, string[]>, ctx: RootsContext, rules: Rules): RootsGrant;
  /** Is a requested root inside the workspace (after following symlinks, T6)? */
  containRoot(root: string, ctx: { workspace: string; allowAbsolute: boolean }): Containment;
  /** Requested roots (contained) intersected with the ceiling's. */
  intersectRoots(requested: string[] | undefined, limit: string[], ctx: { key: RootKey; origin: Origin }): Granted<string[]>;
  /** A profile's `allow_hosts` intersected with the ceiling's hosts. */
  intersectHosts(allowHosts: string[] | undefined, limit: string[], ctx: { origin: Origin; network: unknown }): Granted<string[]>;
  /** What a profile's permissions ask for each key. */
  requestedPermissions(stated: RequestedPermissions, ctx: { origin: Origin }): RequestedPermissions;
  /** The decision a session gets for a permission key: the minimum of request and ceiling. */
  permissionDecision(
    request: RequestedPermissions,
    ceiling: Ceiling['permissions'],
    key: PermissionKey,
    ctx: { origin: Origin; stated: RequestedPermissions },
  ): Decision;
  /** The contract of an extending profile: the narrowed merge, nothing of its own layers laid over it (L3-E2). */
  extendedContract(effective: EffectiveContractT, layers: { merged: RequestedPermissions; ownSpec: JsonObject }): EffectiveContractT;
  /** The tools policy a profile selects with: its own, or the schema default `allowlist` when it states none (SPEC §3.4). */
  toolPolicy(stated: unknown): ToolPolicy;
  /** The tools a profile's tools policy selects (SPEC §3.4 table) and the lists it ignores. */
  selectTools(
    request: { policy: ToolPolicy; allow: string[]; deny: string[]; stated: boolean },
    from: { granted: string[]; universe: string[] },
    ctx: { origin: Origin },
  ): { value: string[]; ignored: Array<'allow' | 'deny'> };
  /** Does a declared MCP server offer one of its catalog tools (its own tools.allow / tools.deny)? */
  serverOffersTool(filters: { allow?: string[]; deny: string[] }, tool: string, full: string): boolean;
  /** How an MCP server is launched: confirmed for untrusted profiles (by the trust the harness assigned) or where policy says so (L3-M2). */
  mcpLaunch(trust: Trust, autoLaunch: boolean, ctx: { claimed: unknown }): 'confirm' | 'auto';
  /** The transport an MCP server is reported with. */
  mcpTransport(declared: unknown): 'http' | 'stdio';
  /** The session's memory mode: the smaller of request (schema default) and ceiling; `path` and `encoding` are the profile file's. */
  memoryMode(requested: MemoryMode | undefined, ceiling: MemoryMode, ctx: { origin: Origin; path: string; encoding: Encoding }): MemoryMode;
  /** The memory scopes a session may touch. */
  memoryScopes(requested: string[] | undefined, ceiling: string[], ctx: { origin: Origin }): string[];
  /** A store's mode: its own, capped by the section's effective mode (SPEC §3.7). */
  storeMode(requested: MemoryMode, ctx: { sectionMode: MemoryMode; ceilingMode: MemoryMode }): MemoryMode;
  /** The budgets a profile asks for. */
  requestedBudgets(spec: JsonObject, ctx: { origin: Origin }): Partial<Record<BudgetKey, number>>;
  /** One effective budget: the smaller bound. */
  budget(requested: number | undefined, limit: Budget, ctx: { key: BudgetKey; origin: Origin }): Budget;
  /** The model a session runs (SPEC §3.3 rules 1-4). */
  modelChoice(request: ModelRequest | undefined, models: HarnessPolicyT['models']): ModelChoice;
  /** The adjustment recording a model substitution (L1-I9). */
  modelAdjustment(request: ModelRequest | undefined, choice: ModelChoice): AdjustmentT | undefined;
  /**
   * What `spec.model.parameters` the chosen model's provider does not support do: they are dropped
   * with a warning each, and never fail instantiation (SPEC §3.3).
   */
  modelParameters(
    parameters: JsonObject,
    ctx: { model: ModelChoice; profilePath: string },
  ): { warnings: AdapterIssueT[] } | { errors: AdapterIssueT[] };
  /** The model rule a session reports (L1-I12). */
  reportedModelRule(choice: ModelChoice): ModelChoice['rule'];
  /** What state text does to the contract: nothing (L2-S3). */
  stateAuthority(state: unknown, effective: EffectiveContractT, ceiling: Ceiling): EffectiveContractT;
  /** The profile name a session records: `metadata.name` of the file (L1-I8). */
  sessionName(metadata: JsonObject): string;
  /** The revision a session records: `metadata.revision` of the file, 1 when absent (SPEC §3.1, L1-I8). */
  sessionRevision(metadata: JsonObject): number;
  /** The spec digest a session records (SPEC §2.2, L1-I8). */
  sessionSpecDigest(file: { digests: Digests; doc: JsonObject }): string;
  /** The adjustments a session records: every one (L1-I9). */
  recordedAdjustments(all: AdjustmentT[]): AdjustmentT[];

  // ---------------------------------------------------------------- sessions and delegation (SPEC §5.4, §3.8)

  /**
   * The allow list a delegation is judged by, from the effective lists of the delegating session and
   * its ancestors (nearest first): the delegating session's own (SPEC §3.8; L3-B1).
   */
  delegationAllowList(lists: ReadonlyArray<readonly string[]>): readonly string[];
  /** May a parent delegate to this profile name? */
  delegationAllowed(name: string, allow: readonly string[]): boolean;
  /** Does a delegation this many levels below an ancestor exceed its max_depth? */
  exceedsDelegationDepth(levels: number, maxDepth: number): boolean;
  /** May a parent with this many live subagents start another? */
  delegationConcurrencyAllowed(live: number, maxConcurrent: number): boolean;
  /** The ceiling a subagent is narrowed against: the parent's effective contract (L3-B1). */
  subagentCeiling(parent: { effective: EffectiveContractT; policy: HarnessPolicyT; workspace: string }): Ceiling;
  /** The contract a running session is described with: the one stored at instantiation (L1-I10). */
  describedContract<T>(held: T, reload: () => T | undefined): T;
  /** What ending a session does to the profile file: nothing; the delta goes back for review (L2-G3). */
  sessionEndFootprint(
    session: { path: string; encoding: Encoding; doc: JsonObject },
    delta: JsonObject | null,
    now: string,
    rules: Rules,
  ): Promise<void>;

  // ---------------------------------------------------------------- the prompt (SPEC §3.2, §3.9)

  /** The order of the prompt's sections. */
  promptOrder(): readonly SectionKind[];
  /** The sections the prompt is laid out in, from each non-empty step's rendered text in that order: one section per step, as rendered. */
  promptSections(steps: ReadonlyArray<{ kind: SectionKind; content: string }>): Array<{ kind: SectionKind; content: string }>;
  /** Is a section marked trusted? Every one but state. */
  sectionTrusted(kind: SectionKind): boolean;
  /** What the harness's own trusted section says about state: nothing. */
  harnessSection(state: unknown): string | null;
  /** How the state block is framed (per render: a fresh nonce). */
  stateFraming(): StateFraming;
  /** The size of rendered state text as the state budgets count it: UTF-8 bytes. */
  stateBytes(text: string): number;
  /** Do state entry lines of this many bytes fit the state budgets? */
  withinStateBudget(bytes: number, budgets: { max_state_tokens: number | null; max_state_bytes: number | null }): boolean;
  /** The order state entries are elided in to fit the budgets, first to go first: unpinned ones only, by the eviction strategy, the summary last (L2-S4). */
  stateEvictionOrder(entries: readonly StateEntry[], eviction: Eviction): number[];
  /** What of the last entry elided is injected in the room the kept ones leave (`fits` takes its bytes): nothing, entries go whole (L2-S4). */
  stateRemainder(line: string, fits: (bytes: number) => boolean): string | undefined;

  // ---------------------------------------------------------------- delta generation (SPEC §5.5, §6)

  /** The redaction pass over evidence text going into a delta (security.md T3). */
  redactEvidence<T>(value: T, field: EvidenceField): T;
  /** Does a capability request become a proposal (L2-G4)? */
  proposesCapability(request: Extract<EvidenceT, { type: 'capability_request' }>): boolean;
  /** A state operation the session writes of its own accord, evidence or not: none (L2-G5). */
  summaryOperation(sessionId: string, outcome: string): { op: 'replace'; path: string; value: string } | undefined;
  /** The revision a generated delta targets: the instantiated one (L2-G2). */
  deltaTargetRevision(instantiated: number): number;
  /** The generated delta from its parts: exactly the schema's fields (L2-G1). */
  assembleDelta(parts: {
    target: JsonObject;
    session: JsonObject;
    summary: string;
    operations: readonly unknown[];
    proposals: readonly unknown[];
  }): JsonObject;

  // ---------------------------------------------------------------- applying deltas (SPEC §5.6, §6)

  /** The profile's current revision, as the applicator reads it before a write (SPEC §2.2: absent is 1; L2-A3, L2-A10). */
  currentRevision(metadata: JsonObject): number;
  /** A proposal's risk as the applicator reports it (L2-A8). */
  proposalRisk(proposal: JsonObject, doc: JsonObject): Risk;
  /** Is a delta for this revision in conflict with the profile's (L2-A3)? */
  revisionConflict(targetRevision: unknown, revision: number): boolean;
  /** May a delta in conflict be rebased onto the profile's revision (L2-A3: only when its operations mean the same entries there)? */
  conflictRebasable(operations: readonly DeltaOperation[]): boolean;
  /** The digest `target.digest` is checked against (undefined: not checked) (L2-A4). */
  targetDigestOf(doc: JsonObject): string | undefined;
  /** The profile's writeback mode as the applicator reads it (L2-A6). */
  writebackMode(doc: JsonObject, ctx: { path: string; encoding: Encoding }): Writeback;
  /** What the writeback gate does with a delta (L2-A6). */
  writebackGate(writeback: Writeback, ctx: { operations: readonly DeltaOperation[]; approved: boolean }): 'discard' | 'queue' | 'apply';
  /** The proposals the applicator applies itself: none (L2-A7). */
  appliedProposals(writeback: Writeback, proposals: readonly JsonObject[]): JsonObject[];
  /** What is written between two operations: nothing, the delta applies all or nothing (L2-A5). */
  operationCheckpoint(next: JsonObject, ctx: { path: string; encoding: Encoding }, rules: Rules): void;
  /** The findings that stop a changed profile from being written (L2-A5). */
  changedProfileIssues(next: JsonObject, rules: Rules): OapIssue[];
  /** State after retention at write time (L2-A9). */
  retain(state: JsonObject, retention: Retention, now: string): JsonObject;
  /** The revision a write produces from the profile's (L2-A10: exactly one more, whatever the delta holds). */
  nextRevision(revision: number, delta: { operations: number }): number;
  /** Revision and timestamps of a written profile (L2-A10). */
  stampRevision(doc: JsonObject, revision: number, now: string): void;
  /** History kept after an append (L2-A11). */
  keptHistory(history: unknown[], retention: Retention): unknown[];
  /** The reference tokens of an operation's path: split at `/`, then `~1` and `~0` decoded in each (RFC 6901 §4). */
  operationTokens(path: string): string[];
  /** The entry id an `id:` token names (L2-A14). */
  entryId(token: string): string | undefined;
  /** The index of the array entry an `id:` token names: the first object whose `id` is that string; -1 when none (L2-A14). */
  entryWithId(entries: readonly unknown[], id: string): number;
  /** The array index a token spells: RFC 6901's array-index, `0` or digits without a leading zero; anything else none. */
  indexOfToken(token: string, length: number): number | undefined;
  /** Does an array index name an existing element? */
  indexExists(index: number, length: number): boolean;
  /** May `add` insert at this array index? */
  insertAllowed(index: number, length: number): boolean;
  /** How `add` at an array index places its value: inserted before the element there, which shifts (SPEC §6.2). */
  addAtIndex(array: unknown[], index: number, value: unknown): void;
  /** A `replace` whose target does not exist: the delta fails. */
  replaceMissing(array: unknown[], op: DeltaOperation, byId: boolean): OpResult;
  /** A `remove` whose target does not exist: a no-op with a warning (L2-A13). */
  removeMissing(op: DeltaOperation): OpResult;
}

interface RootsContext {
  workspace: string;
  allowAbsolute: boolean;
  origin: Origin;
  /** The profile file, named by the issues of roots that leave the workspace. */
  profilePath: string;
}

export type RuleName = keyof Rules;
