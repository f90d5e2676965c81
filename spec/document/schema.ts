import { readFileSync } from 'node:fs';
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

// Compilation costs milliseconds and validation microseconds, so there is one Ajv instance and
// each schema is compiled the first time it is needed, then reused for the life of the process.
function validator(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (fn === undefined) {
    ajv ??= createAjv({ allErrors: true, strict: false });
    const schema = JSON.parse(readFileSync(fromRoot('spec', 'schemas', 'oap-1.0.1', SCHEMA_FILES[name]), 'utf8')) as object;
    fn = ajv.compile(schema);
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
export function mapAjvError(e: ErrorObject): OapIssue | undefined {
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
