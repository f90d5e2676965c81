/**
 * TypeScript declarations of the adapter SDK for adapters written outside this repository.
 *
 * The published package ships the SDK as JavaScript only (dist/adapters/sdk/ts/*.js, no .d.ts),
 * so `import … from 'oap-conform/dist/adapters/sdk/ts/index.js'` would be an untyped module (an
 * error under `strict`). `oap-conform init --lang ts` writes these declarations next to the
 * starter: the protocol types are generated from the zod messages (params as the runner sends
 * them, results as the runner checks them), and the SDK surface below mirrors index.ts.
 * tests/engine/init.test.ts compiles them against the real SDK and fails when they drift.
 */
import { z } from 'zod';
import { PROTOCOL_VERSION, RPC_ERROR, SUPPORTED_PROTOCOL_VERSIONS, methods, type MethodName } from '../../protocol/messages.js';

/** The module specifier the starter imports the SDK from. */
export const SDK_MODULE = 'oap-conform/dist/adapters/sdk/ts/index.js';

type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  description?: string;
};

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function comment(text: string | undefined, pad: string): string {
  return text ? `${pad}/** ${text.replace(/\*\//g, '*\\/')} */\n` : '';
}

/** A TypeScript type for the subset of JSON Schema that z.toJSONSchema emits for the protocol. */
export function schemaToTs(schema: JsonSchema | boolean | undefined, indent = ''): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if ('const' in schema) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((s) => `(${schemaToTs(s, indent)})`).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.map((t) => schemaToTs({ ...schema, type: t }, indent)).join(' | ');
  switch (schema.type) {
    case undefined:
      return 'unknown';
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${schemaToTs(schema.items, indent)}>`;
    case 'object': {
      const inner = `${indent}  `;
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const lines = Object.entries(props).map(([key, sub]) => {
        const name = IDENT.test(key) ? key : JSON.stringify(key);
        return `${comment(sub.description, inner)}${inner}${name}${required.has(key) ? '' : '?'}: ${schemaToTs(sub, inner)};\n`;
      });
      const extra = schema.additionalProperties;
      if (extra !== undefined && extra !== false) {
        const value = schemaToTs(extra, inner);
        const keys = schema.propertyNames?.enum;
        if (keys && lines.length === 0) return `{ [K in ${keys.map((k) => JSON.stringify(k)).join(' | ')}]?: ${value} }`;
        lines.push(`${inner}[key: string]: ${value};\n`);
      }
      return lines.length ? `{\n${lines.join('')}${indent}}` : '{}';
    }
    default:
      return 'unknown';
  }
}

function methodTypes(io: 'input' | 'output', part: 'params' | 'result'): string {
  const names = Object.keys(methods).sort() as MethodName[];
  return names
    .map((name) => {
      const schema = z.toJSONSchema(methods[name][part], { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
      return `    ${name}: ${schemaToTs(schema, '    ')};\n`;
    })
    .join('');
}

/** The text of the declaration file `oap-conform init --lang ts` writes. */
export function sdkDeclarations(): string {
  const rpc = Object.entries(RPC_ERROR)
    .map(([k, v]) => `    readonly ${k}: ${v};\n`)
    .join('');
  return `// Types for ${SDK_MODULE}, written by \`oap-conform init --lang ts\`.
// Generated from the adapter protocol ${PROTOCOL_VERSION}; regenerate after upgrading oap-conform:
//   rm oap-conform-sdk.d.ts && npx oap-conform init --lang ts --sdk-only
// Keep this file in your TypeScript project (tsconfig "include") next to the adapter.
declare module '${SDK_MODULE}' {
  import type { Readable, Writable } from 'node:stream';

  export type MethodName = ${(Object.keys(methods).sort() as MethodName[]).map((m) => `'${m}'`).join(' | ')};

  /** Request params per method, as the runner sends them (fields with a default may be absent). */
  export interface ParamsByMethod {
${methodTypes('input', 'params')}  }

  /** Successful results per method, as the runner checks them. */
  export interface ResultByMethod {
${methodTypes('output', 'result')}  }

  export type Params<M extends MethodName> = ParamsByMethod[M];
  export type Result<M extends MethodName> = ResultByMethod[M];
  export type HandshakeT = Result<'initialize'>;
  export type HarnessPolicyT = Params<'instantiate'>['policy'];
  export type InstantiatedT = Extract<Result<'instantiate'>, { status: 'instantiated' }>;
  export type EffectiveContractT = InstantiatedT['effective'];
  export type AdapterIssueT = Result<'validate'>['errors'][number];
  /** A refusal of the document by \`digest\` or \`write_back\` (the same shape as a refused instantiation). */
  export type RefusedT = Extract<Result<'digest'>, { status: 'rejected' }>;

  export const PROTOCOL_VERSION: ${JSON.stringify(PROTOCOL_VERSION)};
  export const SUPPORTED_PROTOCOL_VERSIONS: readonly [${SUPPORTED_PROTOCOL_VERSIONS.map((v) => JSON.stringify(v)).join(', ')}];
  export const RPC_ERROR: {
${rpc}  };

  /** One handler per protocol method; a method without a handler declines as not implemented. */
  export type AdapterHandlers = {
    [M in MethodName]?: (params: Params<M>) => Promise<Result<M>> | Result<M>;
  };
  export interface InProcessAdapter {
    handle(method: string, params: unknown): Promise<unknown>;
    dispose?(): Promise<void> | void;
  }
  /** A module adapter default-exports a factory of fresh instances. */
  export type AdapterFactory = () => InProcessAdapter | Promise<InProcessAdapter>;
  export interface DefineOptions {
    dispose?: () => Promise<void> | void;
  }
  export function defineAdapter(handlers: AdapterHandlers, options?: DefineOptions): InProcessAdapter;
  /** The answer of a digest or write_back handler whose harness refuses the document (at least one error). */
  export function refused(errors: AdapterIssueT[], warnings?: AdapterIssueT[]): RefusedT;
  /** Is a digest or write_back answer a refusal? */
  export function isRefused(r: object): r is RefusedT;

  export interface ServeOptions {
    input?: Readable;
    output?: Writable;
    maxLineBytes?: number;
  }
  /** Serve over newline-delimited JSON-RPC on stdin/stdout until shutdown or end of input. */
  export function serveStdio(adapter: InProcessAdapter, options?: ServeOptions): Promise<void>;
  /** Is this module the process entry point? \`if (isMain(import.meta.url)) await serveStdio(...)\` */
  export function isMain(moduleUrl: string): boolean;

  /** Decline: 'not-implemented' (the harness lacks the operation) or 'skipped' (this input). Recorded as a skip. */
  export class AdapterDecline extends Error {
    readonly kind: 'not-implemented' | 'skipped';
    readonly reason: string;
    constructor(kind: 'not-implemented' | 'skipped', reason: string);
  }
  /** Answer with a specific JSON-RPC error over stdio, e.g. RPC_ERROR.UNSUPPORTED_PROTOCOL_VERSION. */
  export class RpcError extends Error {
    readonly code: number;
    readonly data?: Record<string, unknown>;
    constructor(code: number, message: string, data?: Record<string, unknown>);
  }

  type RenderedPrompt = InstantiatedT['prompt'];
  export interface StateDelimiters {
    /** The first line of the state section, e.g. \`<untrusted-agent-state>\`. */
    open: string;
    /** The last line of the state section. */
    close: string;
  }
  /** Builds prompt.text and its section map with UTF-8 byte offsets. */
  export class PromptBuilder {
    constructor(separator?: string);
    section(kind: RenderedPrompt['sections'][number]['kind'], text: string, trusted: boolean): this;
    state(body: string, delimiters: StateDelimiters): this;
    raw(text: string): this;
    get byteLength(): number;
    build(state?: RenderedPrompt['state']): RenderedPrompt;
  }
  export function sectionText(prompt: Pick<RenderedPrompt, 'text'>, section: { start: number; end: number }): string;

  /** RFC 8785 canonical JSON. */
  export function canonicalJson(value: unknown): string;
  /** SPEC 2.2 profile digest (sha256:…) of a whole document. */
  export function profileDigest(doc: unknown): string;
  /** SPEC 2.2 spec digest (session.spec_digest): {metadata without revision/updated_at/trust, spec}. */
  export function specDigest(doc: { metadata: Record<string, unknown>; spec: unknown }): string;
  export const SPEC_DIGEST_EXCLUDED_METADATA: readonly string[];
}
`;
}

/** SDK exports the declarations leave out on purpose (framing and dispatch internals). */
export const UNDECLARED_EXPORTS: readonly string[] = [
  'isMethodName',
  'UnknownMethod',
  'InvalidParams',
  'errorFor',
  'LineSplitter',
  'encodeLine',
  'DEFAULT_MAX_LINE_BYTES',
];
