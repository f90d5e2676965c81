/** The readers, validators and writers mutants use in place of the reference's: each wrong in one way a real one is. */
import { parse as parseYaml } from 'yaml';
import type { JsonObject } from '../reference/json.js';
import { isObject } from '../reference/json.js';

export function textOf(input: string | Uint8Array): string {
  return typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
}

/** A Markdown reader: frontmatter, then the body overrides whatever instructions it had. */
export function lenientMarkdown(text: string): JsonObject | undefined {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!m) return undefined;
  const front = parseYaml(m[1] ?? '') as unknown;
  if (!isObject(front)) return undefined;
  if (!isObject(front['spec'])) front['spec'] = {};
  const spec = front['spec'] as JsonObject;
  if (!isObject(spec['role'])) spec['role'] = {};
  const role = spec['role'] as JsonObject;
  role['instructions'] = (m[2] ?? '').replace(/^\r?\n/, '').replace(/\r?\n$/, '');
  return front;
}

/**
 * A profile loaded the way a lenient harness loads one: missing sections get empty defaults and
 * out-of-vocabulary permission values are ignored.
 */
export function withLenientDefaults(value: unknown): unknown {
  if (!isObject(value)) return value;
  const doc = structuredClone(value);
  if (!isObject(doc['metadata'])) doc['metadata'] = {};
  const meta = doc['metadata'] as JsonObject;
  if (typeof meta['name'] !== 'string') meta['name'] = 'unnamed';
  if (!isObject(doc['spec'])) doc['spec'] = {};
  const spec = doc['spec'] as JsonObject;
  if (!isObject(spec['role'])) spec['role'] = {};
  const role = spec['role'] as JsonObject;
  if (typeof role['instructions'] !== 'string') role['instructions'] = '';
  for (const section of Object.keys(spec)) if (!isObject(spec[section])) delete spec[section];
  const perms = isObject(spec['permissions']) ? spec['permissions'] : {};
  for (const f of ['default', 'shell', 'edit', 'network'])
    if (perms[f] !== undefined && !['allow', 'ask', 'deny'].includes(String(perms[f]))) delete perms[f];
  return doc;
}

/** JSON text in an annotation value, re-serialized compactly. */
export function compactJson(v: string): string {
  if (!/^\s*[[{]/.test(v)) return v;
  try {
    return JSON.stringify(JSON.parse(v));
  } catch {
    return v;
  }
}
