/**
 * The reference harness behind the adapter protocol: one instance owns one session table. Each
 * method parses its params with the protocol schema (which also fills defaults), does the work in
 * the module that owns it, and answers in protocol shape. Profile problems become `rejected`
 * outcomes or issue lists; only protocol misuse (unknown session, unsupported protocol version)
 * throws.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  methods,
  PROTOCOL_VERSION,
  RPC_ERROR,
  type AdapterIssueT,
  type HarnessPolicyT,
  type InstantiateOutcomeT,
  type MethodName,
  type Params,
  type RefusedT,
  type Result,
} from '../../protocol/messages.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { encodingFromPath } from '../../spec/document/index.js';
import type { OapIssue } from '../../spec/document/issue.js';
import { packageVersion } from '../../spec/package-root.js';
import { applyDelta } from './apply/applicator.js';
import { ceilingFromPolicy, type Ceiling } from './ceiling.js';
import { generateDelta, HARNESS_NAME } from './delta-generate.js';
import { discover } from './discovery.js';
import { readDocumentFile, readSource } from './document.js';
import { adapterIssue, fromOapIssue, Rejection } from './issues.js';
import { buildSession, type SessionBody } from './instantiate.js';
import { errorsOf, isObject, type JsonObject } from './json.js';
import { resolveProfile, type ProfileSelectorT, type ResolvedProfile } from './resolve.js';
import type { DiscoveryRootsT } from './roots.js';
import type { Rules } from './rules.js';
import { serializeProfile } from './serialize.js';

/** The protocol's refusal of a document: the harness's own error issues, at least one. */
function refusal(issues: readonly OapIssue[], fallback: string): RefusedT {
  const errors = errorsOf(issues).map((i) => fromOapIssue(i));
  return { status: 'rejected', errors: errors.length > 0 ? errors : [adapterIssue('parse', '', fallback)], warnings: [] };
}

/** Sessions kept per adapter instance (see forgetOldSessions). */
const MAX_SESSIONS = 200;

/** An Error carrying a JSON-RPC error code, for the stdio SDK to map. */
export class HarnessRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'HarnessRpcError';
  }
}

interface SessionEntry {
  id: string;
  body: SessionBody;
  resolved: ResolvedProfile;
  policy: HarnessPolicyT;
  workspace: string;
  roots: DiscoveryRootsT;
  selector: ProfileSelectorT;
  depth: number;
  parentId?: string;
  children: Set<string>;
  ended: boolean;
  startedAt: string;
}

type Handlers = { [M in MethodName]: (params: Params<M>) => Promise<Result<M>> | Result<M> };

export class ReferenceHarness implements InProcessAdapter {
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly handlers: Handlers;

  constructor(
    private readonly rules: Readonly<Rules>,
    private readonly implementationName: string = HARNESS_NAME,
  ) {
    this.handlers = {
      initialize: (p) => this.initialize(p),
      validate: (p) => this.validate(p),
      discover: (p) => this.discoverProfiles(p),
      instantiate: (p) => this.instantiate(p),
      describe_session: (p) => this.describeSession(p),
      instantiate_subagent: (p) => this.instantiateSubagent(p),
      end_session: (p) => this.endSession(p),
      apply_delta: (p) => applyDelta(p, this.rules),
      digest: (p) => this.digest(p),
      write_back: (p) => this.writeBack(p),
      shutdown: () => {
        this.sessions.clear();
        return {};
      },
    };
  }

  async handle(method: string, params: unknown): Promise<unknown> {
    if (!Object.hasOwn(methods, method)) throw new HarnessRpcError(RPC_ERROR.METHOD_NOT_FOUND, `unknown method ${method}`);
    const m = method as MethodName;
    const parsed = methods[m].params.safeParse(params ?? {});
    if (!parsed.success) throw new HarnessRpcError(RPC_ERROR.INVALID_PARAMS, `${method}: ${parsed.error.message}`);
    const handler = this.handlers[m] as (p: unknown) => unknown;
    return handler(parsed.data);
  }

  dispose(): void {
    this.sessions.clear();
  }

  // ---------------------------------------------------------------- handshake

  private initialize(p: Params<'initialize'>): Result<'initialize'> {
    if (!p.protocol_versions.includes(PROTOCOL_VERSION)) {
      throw new HarnessRpcError(
        RPC_ERROR.UNSUPPORTED_PROTOCOL_VERSION,
        `protocol ${PROTOCOL_VERSION} not offered (offered: ${p.protocol_versions.join(', ')})`,
      );
    }
    return {
      protocol_version: PROTOCOL_VERSION,
      implementation: { name: this.implementationName, version: packageVersion(), language: 'typescript' },
      level: 3,
      encodings: ['yaml', 'json', 'md'],
      discovery_roots: ['managed', 'user', 'project', 'plugin'],
      unimplemented: [],
    };
  }

  // ---------------------------------------------------------------- documents

  private async validate(p: Params<'validate'>): Promise<Result<'validate'>> {
    const { rules } = this;
    let read = readSource(p.document, rules);
    for (const delay of rules.retryDelays(read.issues)) {
      await new Promise((r) => setTimeout(r, delay));
      read = readSource(p.document, rules);
    }
    const validated = read.value === undefined ? [] : rules.profileIssues(read.value, rules);
    const issues = [...read.issues, ...validated];
    const errors = errorsOf(issues);
    const kind = isObject(read.value) && typeof read.value['kind'] === 'string' ? read.value['kind'] : undefined;
    // The reader's findings keep their pointers; the validator's are written by the reportedPointer rule.
    const report = (i: OapIssue): AdapterIssueT => {
      const out = fromOapIssue(i);
      return validated.includes(i) ? { ...out, pointer: rules.reportedPointer(out.pointer) } : out;
    };
    return {
      valid: errors.length === 0,
      ...(kind !== undefined ? { kind } : {}),
      errors: errors.map(report),
      warnings: issues.filter((i) => !errors.includes(i)).map(report),
    };
  }

  /** A document the harness cannot read is refused with its parse issues (never a protocol error). */
  private digest(p: Params<'digest'>): Result<'digest'> {
    const source = p.document;
    const encoding = 'path' in source ? encodingFromPath(source.path) : source.encoding;
    const read = this.rules.digestRead(readSource(source, this.rules), {
      text: () => ('path' in source ? readFileSync(source.path, 'utf8') : source.content),
      ...(encoding ? { encoding } : {}),
    });
    if (read.value === undefined) return refusal(read.issues, 'the document cannot be read');
    try {
      return this.rules.reportedDigests(read.value);
    } catch (err) {
      // JCS cannot represent a value the reader let through (a reader that reads 1e400 as
      // Infinity): no digest, as SPEC 2.2 asks, rather than an internal error.
      return refusal([], `the document cannot be canonicalized: ${(err as Error).message}`);
    }
  }

  private writeBack(p: Params<'write_back'>): Result<'write_back'> {
    const read = readDocumentFile(p.path, this.rules);
    if (!isObject(read.value) || !read.encoding) return refusal(read.issues, `${p.path} is not a profile the harness can read`);
    const text = serializeProfile(this.rules.roundTripDocument(read.value), read.encoding, this.rules);
    this.rules.saveProfile(p.path, text, 'round-trip', this.rules);
    return { path: p.path };
  }

  private discoverProfiles(p: Params<'discover'>): Result<'discover'> {
    const found = discover(p.roots, this.rules, 'discover');
    this.rules.discoveryFootprint(
      this.rules.discoveryRoots(p.roots, 'discover').map((r) => r.dir),
      found.profiles.map((x) => x.name),
    );
    return found;
  }

  // ---------------------------------------------------------------- sessions

  private instantiate(p: Params<'instantiate'>): InstantiateOutcomeT {
    const policy = methods.instantiate.params.parse(p).policy;
    return this.startSession({ workspace: p.workspace, roots: p.roots, selector: p.profile, policy, depth: 0 }, (resolved) =>
      buildSession(resolved, ceilingFromPolicy(policy, p.workspace, this.rules), policy, this.rules, 'primary'),
    );
  }

  private instantiateSubagent(p: Params<'instantiate_subagent'>): InstantiateOutcomeT {
    const parent = this.liveSession(p.parent_session_id);
    const lists: string[][] = [];
    for (let a: SessionEntry | undefined = parent; a; a = a.parentId ? this.sessions.get(a.parentId) : undefined)
      lists.push(a.body.effective.subagents.allow);
    const allowed = this.rules.delegationAllowList(lists);
    const deny = (category: 'delegation-denied' | 'delegation-depth' | 'delegation-concurrency', message: string): InstantiateOutcomeT => ({
      status: 'rejected',
      errors: [adapterIssue(category, '/spec/runtime/subagents', message)],
      warnings: [],
    });
    const { rules } = this;
    if ('name' in p.profile && !rules.delegationAllowed(p.profile.name, allowed))
      return deny('delegation-denied', `"${p.profile.name}" is not in the parent's subagents.allow`);
    const depth = parent.depth + 1;
    for (let a: SessionEntry | undefined = parent; a; a = a.parentId ? this.sessions.get(a.parentId) : undefined) {
      if (rules.exceedsDelegationDepth(depth - a.depth, a.body.effective.subagents.max_depth))
        return deny(
          'delegation-depth',
          `delegation depth ${depth - a.depth} exceeds max_depth ${a.body.effective.subagents.max_depth} of ${a.body.session.name}`,
        );
    }
    const live = [...parent.children].filter((id) => !this.sessions.get(id)?.ended).length;
    if (!rules.delegationConcurrencyAllowed(live, parent.body.effective.subagents.max_concurrent)) {
      return deny(
        'delegation-concurrency',
        `parent already has ${live} live subagent(s); max_concurrent is ${parent.body.effective.subagents.max_concurrent}`,
      );
    }
    const ceiling: Ceiling = rules.subagentCeiling({
      effective: parent.body.effective,
      policy: parent.policy,
      workspace: parent.workspace,
    });
    const outcome = this.startSession(
      { workspace: parent.workspace, roots: parent.roots, selector: p.profile, policy: parent.policy, depth, parentId: parent.id },
      (resolved) => {
        if (!rules.delegationAllowed(resolved.name, allowed))
          throw new Rejection([
            adapterIssue('delegation-denied', '/spec/runtime/subagents', `"${resolved.name}" is not in the parent's subagents.allow`),
          ]);
        return buildSession(resolved, ceiling, parent.policy, rules, 'subagent', parent.id);
      },
    );
    if (outcome.status === 'instantiated') parent.children.add(outcome.session_id);
    return outcome;
  }

  private startSession(
    ctx: {
      workspace: string;
      roots: DiscoveryRootsT;
      selector: ProfileSelectorT;
      policy: HarnessPolicyT;
      depth: number;
      parentId?: string;
    },
    build: (resolved: ResolvedProfile) => SessionBody,
  ): InstantiateOutcomeT {
    try {
      const resolved = resolveProfile({
        workspace: ctx.workspace,
        roots: ctx.roots,
        selector: ctx.selector,
        policy: ctx.policy,
        rules: this.rules,
      });
      const body = build(resolved);
      const id = `sess_${randomUUID()}`;
      this.sessions.set(id, { id, body, resolved, ...ctx, children: new Set(), ended: false, startedAt: new Date().toISOString() });
      this.forgetOldSessions();
      return { status: 'instantiated', session_id: id, ...body };
    } catch (err) {
      if (err instanceof Rejection) return { status: 'rejected', errors: err.errors, warnings: err.warnings };
      throw err;
    }
  }

  /** The contract stored at instantiation: the file is not read again (SPEC §5.4, L1-I10; the describedContract rule). */
  private describeSession(p: Params<'describe_session'>): Result<'describe_session'> {
    const s = this.session(p.session_id);
    const held = this.rules.describedContract({ body: s.body, resolved: s.resolved }, () => this.rebuild(s));
    s.body = held.body;
    s.resolved = held.resolved;
    return { status: 'instantiated', session_id: s.id, ...s.body };
  }

  /** The session's contract built again from the profile file as it is now (undefined when it no longer resolves). */
  private rebuild(s: SessionEntry): { body: SessionBody; resolved: ResolvedProfile } | undefined {
    try {
      const resolved = resolveProfile({
        workspace: s.workspace,
        roots: s.roots,
        selector: s.selector,
        policy: s.policy,
        rules: this.rules,
      });
      const parent = s.parentId ? this.sessions.get(s.parentId) : undefined;
      const ceiling = parent
        ? this.rules.subagentCeiling({ effective: parent.body.effective, policy: parent.policy, workspace: parent.workspace })
        : ceilingFromPolicy(s.policy, s.workspace, this.rules);
      return { body: buildSession(resolved, ceiling, s.policy, this.rules, parent ? 'subagent' : 'primary', s.parentId), resolved };
    } catch {
      return undefined;
    }
  }

  private async endSession(p: Params<'end_session'>): Promise<Result<'end_session'>> {
    const s = this.liveSession(p.session_id);
    const now = p.now ?? new Date().toISOString();
    const fileDoc = s.resolved.fileDoc;
    const delta = generateDelta(
      {
        sessionId: s.id,
        name: s.resolved.name,
        revision: s.resolved.revision,
        profileDigest: s.resolved.digests.profile_digest,
        state: isObject(fileDoc['state']) ? (fileDoc['state'] as JsonObject) : undefined,
        startedAt: s.startedAt,
        harnessVersion: packageVersion(),
      },
      p.evidence,
      p.outcome ?? 'completed',
      now,
      this.rules,
    );
    s.ended = true;
    await this.rules.sessionEndFootprint({ path: s.resolved.path, encoding: s.resolved.encoding, doc: fileDoc }, delta, now, this.rules);
    return { delta };
  }

  /**
   * Sessions live in one adapter instance for a whole run, and a client only uses a session
   * within the case that created it, so only the most recent MAX_SESSIONS are kept: a run of
   * 100,000 fuzz inputs would otherwise hold 100,000 resolved contracts.
   */
  private forgetOldSessions(): void {
    for (const id of this.sessions.keys()) {
      if (this.sessions.size <= MAX_SESSIONS) break;
      this.sessions.delete(id);
    }
  }

  private session(id: string): SessionEntry {
    const s = this.sessions.get(id);
    if (!s) throw new HarnessRpcError(RPC_ERROR.UNKNOWN_SESSION, `unknown session ${id}`);
    return s;
  }

  private liveSession(id: string): SessionEntry {
    const s = this.session(id);
    if (s.ended) throw new HarnessRpcError(RPC_ERROR.UNKNOWN_SESSION, `session ${id} has ended`);
    return s;
  }
}
