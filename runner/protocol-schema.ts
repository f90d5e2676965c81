/**
 * Generates the JSON Schemas of the adapter protocol from the zod types in messages.ts, one file
 * per message: `<method>.params.schema.json`, `<method>.result.schema.json`, plus the JSON-RPC
 * envelopes. The files are committed so adapter authors in any language can validate against them;
 * tests/engine/protocol-schema.test.ts regenerates them in memory and fails on drift.
 *
 *   node dist/runner/protocol-schema.js            # write protocol/schema/
 *   node dist/runner/protocol-schema.js --check    # exit 1 when the files drifted
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { fromRoot } from '../spec/package-root.js';
import { PROTOCOL_VERSION, RpcRequest, RpcResponse, methods } from '../protocol/messages.js';

export const SCHEMA_DIR = fromRoot('protocol', 'schema');
const ID_BASE = `https://oap-conform.dev/protocol/${PROTOCOL_VERSION}/`;

function toSchema(name: string, title: string, type: z.ZodType): Record<string, unknown> {
  // 'input': the schema describes what is accepted on the wire, where defaulted fields may be absent.
  const generated = z.toJSONSchema(type, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: `${ID_BASE}${name}`, title, ...rest };
}

/** File name -> pretty-printed JSON text, in a stable order. */
export function generateProtocolSchemas(): Map<string, string> {
  const out = new Map<string, string>();
  const add = (file: string, title: string, type: z.ZodType): void => {
    out.set(file, `${JSON.stringify(toSchema(file, title, type), null, 2)}\n`);
  };
  add('rpc-request.schema.json', 'JSON-RPC 2.0 request envelope', RpcRequest);
  add('rpc-response.schema.json', 'JSON-RPC 2.0 response envelope', RpcResponse);
  for (const name of Object.keys(methods).sort() as (keyof typeof methods)[]) {
    add(`${name}.params.schema.json`, `${name} request params`, methods[name].params);
    add(`${name}.result.schema.json`, `${name} response result`, methods[name].result);
  }
  return out;
}

/** Files that differ from, are missing from, or are extra in `dir`. */
export function schemaDrift(dir = SCHEMA_DIR): string[] {
  const expected = generateProtocolSchemas();
  const drift: string[] = [];
  for (const [file, text] of expected) {
    const path = join(dir, file);
    if (!existsSync(path)) drift.push(`missing ${file}`);
    else if (readFileSync(path, 'utf8') !== text) drift.push(`changed ${file}`);
  }
  if (existsSync(dir)) for (const file of readdirSync(dir)) if (file.endsWith('.json') && !expected.has(file)) drift.push(`extra ${file}`);
  return drift;
}

export function writeProtocolSchemas(dir = SCHEMA_DIR): string[] {
  mkdirSync(dir, { recursive: true });
  const expected = generateProtocolSchemas();
  for (const file of readdirSync(dir)) if (file.endsWith('.json') && !expected.has(file)) rmSync(join(dir, file));
  for (const [file, text] of expected) writeFileSync(join(dir, file), text);
  return [...expected.keys()];
}

if (process.argv[1] && fileURLToPath(import.meta.url).replace(/\.ts$/, '.js') === process.argv[1].replace(/\.ts$/, '.js')) {
  if (process.argv.includes('--check')) {
    const drift = schemaDrift();
    for (const d of drift) process.stderr.write(`protocol schema drift: ${d}\n`);
    process.exitCode = drift.length ? 1 : 0;
  } else {
    const files = writeProtocolSchemas();
    process.stdout.write(`wrote ${files.length} schema files to ${SCHEMA_DIR}\n`);
  }
}
