import { readFileSync } from 'node:fs';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { resultSchemaValidator } from '../spec/document/index.js';
import { createAjv } from '../spec/document/ajv.js';
import { fromRoot } from '../spec/package-root.js';

/**
 * Validators for everything results reads or writes: the official result schema (compiled
 * by the oracle from the vendored, unmodified file) and our own schemas in results-schema/.
 */
const OWN_SCHEMAS = {
  report: 'report.schema.json',
  statement: 'statement.schema.json',
  baseline: 'baseline.schema.json',
  badge: 'badge.schema.json',
  'journal-line': 'journal-line.schema.json',
  'fuzz-finding': 'fuzz-finding.schema.json',
  'validate-output': 'validate-output.schema.json',
  'dsse-envelope': 'dsse-envelope.schema.json',
  'test-result-statement': 'test-result-statement.schema.json',
} as const;

export type SchemaName = keyof typeof OWN_SCHEMAS | 'result';

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

// All our schemas go into one instance up front, so that one can $ref another by $id (the journal
// line schema reuses the report's header and case definitions).
function ownAjv(): Ajv2020 {
  if (!ajv) {
    ajv = createAjv({ allErrors: true, strict: true });
    for (const file of Object.values(OWN_SCHEMAS))
      ajv.addSchema(JSON.parse(readFileSync(fromRoot('results-schema', file), 'utf8')) as object, file);
  }
  return ajv;
}

function validator(name: SchemaName): ValidateFunction {
  if (name === 'result') return resultSchemaValidator();
  let fn = compiled.get(name);
  if (!fn) {
    fn = ownAjv().getSchema(OWN_SCHEMAS[name]);
    if (!fn) throw new Error(`schema ${OWN_SCHEMAS[name]} did not compile`);
    compiled.set(name, fn);
  }
  return fn;
}

/** The parts of a run stream: each line is checked against its part of journal-line.schema.json. */
export type StreamPart = 'header' | 'case' | 'footer';

const streamParts = new Map<StreamPart, ValidateFunction>();

/** Problems of one run stream line read as `part` (the reader knows which part a line must be). */
export function streamLineProblems(part: StreamPart, line: unknown): string[] {
  let fn = streamParts.get(part);
  if (!fn) {
    fn = ownAjv().getSchema(`urn:oap-conform:schema:journal-line.v1#/$defs/${part}`);
    if (!fn) throw new Error(`journal-line.schema.json has no $defs/${part}`);
    streamParts.set(part, fn);
  }
  if (fn(line)) return [];
  return (fn.errors ?? []).map(describe);
}

/** Problems as `<pointer>: <message>` lines; empty when `doc` is valid. */
export function schemaProblems(name: SchemaName, doc: unknown): string[] {
  const fn = validator(name);
  if (fn(doc)) return [];
  return (fn.errors ?? []).map(describe);
}

function describe(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  const where = e.instancePath || '/';
  if (e.keyword === 'additionalProperties') return `${where}: property "${String(params.additionalProperty)}" is not allowed`;
  if (e.keyword === 'required') return `${where}: required property "${String(params.missingProperty)}" is missing`;
  return `${where}: ${e.message ?? e.keyword}`;
}
