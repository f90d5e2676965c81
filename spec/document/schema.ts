import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from './ajv.js';
import { fromRoot } from '../package-root.js';
import { escapePointerToken } from '../semantics/pointer.js';
import { issue, type OapIssue } from './issue.js';

/** The vendored, unmodified OAP 1.0.1 schemas (see schemas/NOTICE). */
export const SCHEMA_FILES = {
  profile: 'agent-profile.schema.json',
  delta: 'agent-state-delta.schema.json',
  result: 'result.schema.json',
} as const;

type SchemaName = keyof typeof SCHEMA_FILES;

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

/** Standalone validators written at build time by compile-schemas.ts, next to this module. */
export const COMPILED_SCHEMAS_FILE = 'compiled-schemas.cjs';

interface CompiledSchemas {
  digests: Record<string, string>;
  validators: Record<string, () => { default?: ValidateFunction } & ValidateFunction>;
}
let prebuilt: CompiledSchemas | null | undefined;

function loadPrebuilt(): CompiledSchemas | null {
  if (prebuilt === undefined) {
    try {
      prebuilt = createRequire(import.meta.url)(`./${COMPILED_SCHEMAS_FILE}`) as CompiledSchemas;
    } catch {
      prebuilt = null; // not built (tests run from source): compile at run time
    }
  }
  return prebuilt;
}

/** A schema as data, with the sha256 of its file (what a compiled validator was built from). */
export function schemaSource(name: SchemaName): { schema: object; sha256: string } {
  const text = readFileSync(fromRoot('spec', 'schemas', 'oap-1.0.1', SCHEMA_FILES[name]), 'utf8');
  return { schema: JSON.parse(text) as object, sha256: createHash('sha256').update(text).digest('hex') };
}

// Compilation costs a few hundred milliseconds and validation microseconds, so each schema is
// compiled once per process, the first time it is needed: loaded from the build's standalone code
// when that was compiled from the same schema bytes, else compiled by one shared Ajv instance.
function validator(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (fn === undefined) {
    const source = schemaSource(name);
    const built = loadPrebuilt();
    if (built && built.digests[name] === source.sha256) {
      const mod = built.validators[name]!();
      fn = mod.default ?? mod;
    } else {
      ajv ??= createAjv({ allErrors: true, strict: false });
      fn = ajv.compile(source.schema);
    }
    compiled.set(name, fn);
  }
  return fn;
}

/** The compiled `oap.conformance-result.v1` schema, for code that writes or checks results. */
export function resultSchemaValidator(): ValidateFunction {
  return validator('result');
}

export function validateProfileSchema(doc: unknown): OapIssue[] {
  return run('profile', doc);
}

export function validateDeltaSchema(doc: unknown): OapIssue[] {
  return run('delta', doc);
}

export function validateResultSchema(doc: unknown): OapIssue[] {
  return run('result', doc);
}

function run(name: SchemaName, doc: unknown): OapIssue[] {
  const fn = validator(name);
  if (fn(doc)) return [];
  const seen = new Set<string>();
  const out: OapIssue[] = [];
  for (const e of fn.errors ?? []) {
    const mapped = mapAjvError(e);
    if (mapped === undefined) continue;
    const key = `${mapped.code}\u0000${mapped.pointer}\u0000${mapped.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(mapped);
  }
  return out;
}

/**
 * ajv error → `schema.<keyword>` at the instance path, except that `required` and
 * `additionalProperties` point at the missing or extra member rather than at its parent. The
 * `if` errors only say "must match then" and always accompany the real `then` error, so they are
 * dropped.
 */
function mapAjvError(e: ErrorObject): OapIssue | undefined {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'if':
      return undefined;
    case 'required': {
      const missing = String(params.missingProperty);
      return issue('schema.required', `${e.instancePath}/${escapePointerToken(missing)}`, `required property "${missing}" is missing`);
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      return issue('schema.additionalProperties', `${e.instancePath}/${escapePointerToken(extra)}`, `property "${extra}" is not allowed`);
    }
    case 'not':
      // The only `not` in the OAP schemas forbids `value` on a `remove` operation. The pointer
      // stays at the operation (the instance path), as other validators report it.
      return issue(
        'schema.not',
        e.instancePath,
        e.schemaPath.endsWith('/then/not') ? 'a remove operation must not carry a value' : (e.message ?? 'must not match'),
      );
    case 'enum':
      return issue('schema.enum', e.instancePath, `must be one of ${JSON.stringify(params.allowedValues)}`);
    case 'const':
      return issue('schema.const', e.instancePath, `must be ${JSON.stringify(params.allowedValue)}`);
    default:
      return issue(`schema.${e.keyword}`, e.instancePath, e.message ?? `fails ${e.keyword}`);
  }
}
