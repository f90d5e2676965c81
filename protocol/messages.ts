/**
 * The oap-conform adapter protocol, version 1.0: the one source of truth for every message.
 *
 * JSON-RPC 2.0 over newline-delimited JSON on the adapter's stdin/stdout (stderr is its log).
 * The JSON Schemas in protocol/schema/ are generated from these types
 * (`npm run protocol:schema`) and a test fails when they drift. PROTOCOL.md documents them.
 *
 * Design rules (from Bowtie): the runner never sends the expected answer; every request carries
 * only the inputs a real harness would see; all judging happens in the runner.
 */
import { z } from 'zod';
import { ISSUE_CATEGORIES } from './vocabulary.js';

export const PROTOCOL_VERSION = '1.0';
export const SUPPORTED_PROTOCOL_VERSIONS = ['1.0'] as const;

// ---------------------------------------------------------------- shared vocabulary

const Decision = z.enum(['deny', 'ask', 'allow']).describe('Permission decision; ordered deny < ask < allow.');
const Encoding = z.enum(['yaml', 'json', 'md']);
const RootKind = z.enum(['managed', 'user', 'project', 'plugin']);
const Trust = z.enum(['managed', 'user', 'project', 'imported']);
const MemoryMode = z.enum(['off', 'read_only', 'read_write']);
const Level = z.union([z.literal(1), z.literal(2), z.literal(3)]);
const Timestamp = z.string().describe('RFC 3339 date-time');

export const IssueCategory = z.enum(ISSUE_CATEGORIES);

/** A problem an adapter reports. `category` is from the shared vocabulary; `code` is the harness's own. */
const AdapterIssue = z.object({
  category: IssueCategory,
  code: z.string().optional().describe("The harness's native error code, free-form."),
  pointer: z.string().describe('RFC 6901 JSON Pointer into the logical document ("" = whole document).'),
  message: z.string(),
  path: z.string().optional().describe('File the issue is about, when the operation read several.'),
});

const DocumentSource = z.union([
  z.object({ path: z.string().describe('Absolute path of a file the adapter reads itself.') }).strict(),
  z
    .object({
      content: z.string().describe('The document text.'),
      encoding: Encoding,
    })
    .strict(),
]);

const ModelRef = z.object({ provider: z.string(), id: z.string() }).strict();

// ---------------------------------------------------------------- harness policy

/**
 * The spec defines no harness policy format, so the protocol does. An adapter maps this onto its
 * harness's own configuration. Every field is a ceiling the profile can only narrow.
 */
const PolicyRule = z
  .object({
    tool: z.string().default('*'),
    action: z.string().default('*'),
    target: z.string().default('*'),
    decision: Decision,
  })
  .strict();

const HarnessPolicy = z
  .object({
    tools: z
      .object({
        available: z.array(z.string()).describe('Concrete tool names the harness has, MCP tools as mcp/<server>/<tool>.'),
        grant: z.array(z.string()).describe('Globs over `available`: what this user may use in this context.'),
      })
      .strict(),
    permissions: z
      .object({
        default: Decision,
        shell: Decision.optional(),
        edit: Decision.optional(),
        network: Decision.optional(),
        rules: z.array(PolicyRule).default([]).describe('Harness rules; first match wins; evaluated before profile rules can only narrow.'),
      })
      .strict(),
    filesystem: z
      .object({
        read_roots: z.array(z.string()).describe('Workspace-relative roots ("." = the whole workspace).'),
        write_roots: z.array(z.string()),
        allow_absolute: z.boolean().default(false),
      })
      .strict(),
    network: z.object({ allow_hosts: z.array(z.string()).describe('Exact hosts or *.domain patterns.') }).strict(),
    memory: z
      .object({
        mode: MemoryMode,
        scopes: z.array(z.string()),
        store_kinds: z.array(z.string()).describe('Store kinds the harness implements, e.g. oap-state, vector.'),
        stores: z.array(z.object({ name: z.string(), kind: z.string(), reachable: z.boolean() }).strict()),
      })
      .strict(),
    budgets: z
      .object({
        max_turns: z.number().int().optional(),
        max_tool_calls: z.number().int().optional(),
        timeout_seconds: z.number().int().optional(),
        max_cost_usd: z.number().optional(),
        max_context_tokens: z.number().int().optional(),
        max_state_tokens: z.number().int().optional(),
        max_state_bytes: z.number().int().optional(),
      })
      .strict(),
    models: z
      .object({
        available: z.array(ModelRef),
        tiers: z.partialRecord(z.enum(['minimal', 'standard', 'advanced', 'frontier']), ModelRef).default({}),
        default: ModelRef,
      })
      .strict(),
    skills: z
      .array(z.object({ name: z.string(), digest: z.string().optional() }).strict())
      .describe('Skills installed on this machine, with the digest of their content.'),
    hooks: z.array(z.string()).describe('Named hooks registered with the harness.'),
    subagents: z.object({ max_depth: z.number().int(), max_concurrent: z.number().int() }).strict(),
    mcp: z
      .object({
        catalog: z.record(z.string(), z.array(z.string())).describe('Tools each MCP server (by name) advertises when launched.'),
        auto_launch: z.boolean().describe('Whether the harness would launch servers of trusted profiles without asking.'),
      })
      .strict(),
    env: z.record(z.string(), z.string()).describe('Environment visible to ${VAR} resolution.'),
  })
  .strict();

// ---------------------------------------------------------------- effective contract

const EffectiveContract = z
  .object({
    tools: z.array(z.string()).describe('Concrete tool names the session may call, sorted.'),
    permissions: z.object({ default: Decision, shell: Decision, edit: Decision, network: Decision }).strict(),
    rules: z.array(PolicyRule).describe('Effective rules in evaluation order (first match wins).'),
    filesystem: z.object({ read_roots: z.array(z.string()), write_roots: z.array(z.string()), deny_paths: z.array(z.string()) }).strict(),
    hosts: z.array(z.string()),
    memory: z
      .object({
        mode: MemoryMode,
        scopes: z.array(z.string()),
        stores: z.array(z.object({ name: z.string(), kind: z.string(), mode: MemoryMode }).strict()),
      })
      .strict(),
    budgets: z
      .object({
        max_turns: z.number().int().nullable(),
        max_tool_calls: z.number().int().nullable(),
        timeout_seconds: z.number().int().nullable(),
        max_cost_usd: z.number().nullable(),
        max_context_tokens: z.number().int().nullable(),
        max_state_tokens: z.number().int().nullable(),
        max_state_bytes: z.number().int().nullable(),
      })
      .strict()
      .describe('null = unbounded.'),
    model: z
      .object({
        provider: z.string(),
        id: z.string(),
        rule: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).describe('SPEC 3.3 resolution rule applied.'),
      })
      .strict(),
    mcp_servers: z.array(
      z
        .object({
          name: z.string(),
          transport: z.enum(['stdio', 'http']),
          launch: z.enum(['auto', 'confirm']).describe('confirm = needs explicit user confirmation before launch.'),
          tools: z.array(z.string()).describe('Effective mcp/<server>/<tool> names from this server.'),
        })
        .strict(),
    ),
    skills: z.array(z.object({ name: z.string(), status: z.enum(['present', 'missing']) }).strict()),
    subagents: z.object({ allow: z.array(z.string()), max_depth: z.number().int(), max_concurrent: z.number().int() }).strict(),
    writeback: z.enum(['off', 'propose', 'auto']),
  })
  .strict();

const Adjustment = z
  .object({
    pointer: z.string().describe('Where in the resolved profile, e.g. /spec/permissions/shell.'),
    action: z.enum(['dropped', 'narrowed', 'substituted']),
    reason: z.string().min(1),
    requested: z.unknown().optional(),
    effective: z.unknown().optional(),
  })
  .strict();

export const SectionKind = z.enum([
  'preamble',
  'instructions',
  'objectives',
  'persona',
  'constraints',
  'examples',
  'state',
  'postamble',
  'harness',
]);

const PromptSection = z
  .object({
    kind: SectionKind,
    start: z.number().int().describe('UTF-8 byte offset, inclusive.'),
    end: z.number().int().describe('UTF-8 byte offset, exclusive.'),
    trusted: z.boolean(),
  })
  .strict();

const RenderedPrompt = z
  .object({
    text: z.string(),
    sections: z.array(PromptSection).describe('In text order; they do not overlap.'),
    state: z
      .object({
        included: z.array(z.string()).describe('Ids (or summary/glossary:<term>) of state entries injected.'),
        elided: z.array(z.string()),
        notice: z.string().nullable().describe('The text that tells the agent state was elided; must occur in `text`.'),
      })
      .strict(),
  })
  .strict();

const SessionRecord = z
  .object({
    name: z.string(),
    revision: z.number().int(),
    spec_digest: z.string(),
    trust: Trust,
    path: z.string().optional(),
    parent_session_id: z.string().optional(),
  })
  .strict();

const Instantiated = z
  .object({
    status: z.literal('instantiated'),
    session_id: z.string(),
    session: SessionRecord,
    effective: EffectiveContract,
    prompt: RenderedPrompt,
    adjustments: z.array(Adjustment),
    warnings: z.array(AdapterIssue),
  })
  .strict();

const Rejected = z
  .object({ status: z.literal('rejected'), errors: z.array(AdapterIssue).min(1), warnings: z.array(AdapterIssue) })
  .strict();

const InstantiateOutcome = z.discriminatedUnion('status', [Instantiated, Rejected]);

/**
 * The harness refuses the document it was asked to digest or write back: a normal answer with the
 * harness's own issues (the same shape as a refused instantiation), never a protocol error. Adapters
 * written before it existed answer only the success shape, which stays valid.
 */
export const Refused = Rejected.describe('The harness refuses this document; `errors` say why (at least one).');

const DigestResult = z.object({ profile_digest: z.string(), spec_digest: z.string() }).strict();
const WriteBackResult = z.object({ path: z.string() }).strict();

/** Did the adapter answer digest or write_back with a refusal? */
export function isRefused(r: object): r is z.output<typeof Refused> {
  return 'status' in r && (r as { status?: unknown }).status === 'rejected';
}

// ---------------------------------------------------------------- methods

const DiscoveryRoots = z
  .object({
    managed: z.string().optional(),
    user: z.string().optional(),
    project: z.string().optional().describe('The workspace; the adapter looks in <project>/.agents/ (and its native dirs).'),
    plugin: z.array(z.string()).optional(),
  })
  .strict();

const ProfileSelector = z.union([
  z.object({ name: z.string() }).strict().describe('Discover by metadata.name over the roots.'),
  z.object({ path: z.string() }).strict().describe('A file; trust comes from the root that contains it, imported if none.'),
]);

export const methods = {
  initialize: {
    params: z
      .object({
        protocol_versions: z.array(z.string()).min(1),
        runner: z.object({ name: z.string(), version: z.string() }).strict(),
      })
      .strict(),
    result: z
      .object({
        protocol_version: z.string(),
        implementation: z
          .object({ name: z.string().min(1), version: z.string().min(1), language: z.string(), homepage: z.string().optional() })
          .strict(),
        level: Level,
        encodings: z.array(Encoding).min(1),
        discovery_roots: z.array(RootKind).min(1),
        unimplemented: z.array(z.string()).describe('OPTIONAL features not implemented (conformance statement).'),
      })
      .strict(),
  },
  validate: {
    params: z.object({ document: DocumentSource }).strict(),
    result: z
      .object({
        valid: z.boolean(),
        kind: z.string().optional(),
        errors: z.array(AdapterIssue),
        warnings: z.array(AdapterIssue),
      })
      .strict(),
  },
  discover: {
    params: z.object({ workspace: z.string(), roots: DiscoveryRoots }).strict(),
    result: z
      .object({
        profiles: z
          .array(
            z
              .object({
                name: z.string(),
                root: RootKind,
                path: z.string(),
                trust: Trust,
                file_name_matches: z.boolean(),
              })
              .strict(),
          )
          .describe('The winning profile per name.'),
        collisions: z.array(
          z
            .object({
              name: z.string(),
              scope: z.enum(['within-root', 'across-roots']),
              paths: z.array(z.string()).describe('Every file involved.'),
              winner: z.string().nullable().describe('Path that won; null for within-root collisions (an error).'),
            })
            .strict(),
        ),
        errors: z.array(AdapterIssue),
        warnings: z.array(AdapterIssue),
      })
      .strict(),
  },
  instantiate: {
    params: z
      .object({
        workspace: z.string(),
        roots: DiscoveryRoots,
        profile: ProfileSelector,
        policy: HarnessPolicy,
        now: Timestamp.optional(),
      })
      .strict(),
    result: InstantiateOutcome,
  },
  describe_session: {
    params: z.object({ session_id: z.string() }).strict(),
    result: Instantiated,
  },
  instantiate_subagent: {
    params: z.object({ parent_session_id: z.string(), profile: ProfileSelector }).strict(),
    result: InstantiateOutcome,
  },
  end_session: {
    params: z
      .object({
        session_id: z.string(),
        evidence: z.array(
          z.discriminatedUnion('type', [
            z.object({ type: z.literal('user_statement'), text: z.string(), about: z.enum(['fact', 'preference']) }).strict(),
            z.object({ type: z.literal('decision'), text: z.string() }).strict(),
            z
              .object({
                type: z.literal('thread_status'),
                thread_id: z.string(),
                status: z.enum(['open', 'blocked', 'done', 'abandoned']),
                title: z.string().optional(),
              })
              .strict(),
            z
              .object({
                type: z.literal('capability_request'),
                path: z.string().describe('Pointer under /spec or /metadata.'),
                op: z.enum(['add', 'replace', 'remove']),
                value: z.unknown().optional(),
                rationale: z.string(),
              })
              .strict(),
          ]),
        ),
        outcome: z.enum(['completed', 'aborted', 'error', 'timeout']).default('completed'),
        now: Timestamp.optional(),
      })
      .strict(),
    result: z
      .object({ delta: z.record(z.string(), z.unknown()).nullable().describe('The AgentStateDelta, or null when nothing was learned.') })
      .strict(),
  },
  apply_delta: {
    params: z
      .object({
        profile_path: z.string(),
        delta: z.record(z.string(), z.unknown()).describe('The delta document as parsed data; may be invalid on purpose.'),
        approval: z
          .object({
            operations: z.boolean().describe('A human approved the state operations (the propose gate).'),
            approver: z.string().optional(),
          })
          .strict(),
        actor: z.string().optional(),
        now: Timestamp.optional(),
      })
      .strict(),
    result: z
      .object({
        outcome: z.enum(['applied', 'queued', 'rejected', 'conflict', 'discarded']),
        conflict_resolution: z.enum(['rebased', 'queued', 'rejected']).optional(),
        revision: z.number().int().describe('The profile revision on disk afterwards.'),
        errors: z.array(AdapterIssue),
        warnings: z.array(AdapterIssue),
        proposals: z.array(
          z
            .object({
              index: z.number().int(),
              path: z.string(),
              risk: z.enum(['low', 'medium', 'high']),
              status: z.enum(['pending', 'applied']),
            })
            .strict(),
        ),
      })
      .strict(),
  },
  digest: {
    params: z.object({ document: DocumentSource }).strict(),
    result: z.union([DigestResult, Refused]).describe('The two digests, or a refusal of the document with the harness issues.'),
  },
  write_back: {
    params: z.object({ path: z.string() }).strict().describe('Read the profile and write it back through the harness writer.'),
    result: z
      .union([WriteBackResult, Refused])
      .describe('Where the profile was written, or a refusal of the document with the harness issues.'),
  },
  shutdown: {
    params: z.object({}).strict(),
    result: z.object({}).strict(),
  },
} as const;

export type MethodName = keyof typeof methods;
export type Params<M extends MethodName> = z.input<(typeof methods)[M]['params']>;
export type Result<M extends MethodName> = z.output<(typeof methods)[M]['result']>;

export type HarnessPolicyT = z.input<typeof HarnessPolicy>;
export type EffectiveContractT = z.output<typeof EffectiveContract>;
export type InstantiatedT = z.output<typeof Instantiated>;
export type InstantiateOutcomeT = z.output<typeof InstantiateOutcome>;
export type AdapterIssueT = z.output<typeof AdapterIssue>;
export type AdjustmentT = z.output<typeof Adjustment>;
export type PromptSectionT = z.output<typeof PromptSection>;
export type EvidenceT = Params<'end_session'>['evidence'][number];
export type HandshakeT = Result<'initialize'>;
export type DecisionT = z.output<typeof Decision>;
export type RefusedT = z.output<typeof Refused>;

// ---------------------------------------------------------------- JSON-RPC framing

/** JSON-RPC error codes. -32601 and NOT_IMPLEMENTED both mean "not implemented". */
export const RPC_ERROR = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  NOT_IMPLEMENTED: -32001,
  SKIPPED: -32002,
  UNSUPPORTED_PROTOCOL_VERSION: -32003,
  UNKNOWN_SESSION: -32004,
} as const;

export const RpcRequest = z
  .object({ jsonrpc: z.literal('2.0'), id: z.union([z.number().int(), z.string()]), method: z.string(), params: z.unknown().optional() })
  .strict();

export const RpcError = z
  .object({
    code: z.number().int(),
    message: z.string(),
    data: z.object({ reason: z.string().optional() }).passthrough().optional(),
  })
  .strict();

export const RpcResponse = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.number().int(), z.string()]), result: z.unknown() }).strict(),
  z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.number().int(), z.string(), z.null()]), error: RpcError }).strict(),
]);
