/**
 * The harness writer: a logical document back into its file's own encoding. The writer works on
 * the logical value, so every annotation (any key, any string value, JSON text included) passes
 * through untouched; YAML strings that look like numbers, booleans or JSON are quoted by the yaml
 * package so they read back as the same strings.
 */
import { stringify as yamlStringify } from 'yaml';
import { type Encoding, isObject, type JsonObject } from './json.js';
import type { Rules } from './rules.js';

export function serializeProfile(doc: JsonObject, encoding: Encoding, rules: Rules): string {
  const value = writtenAnnotations(doc, rules);
  if (encoding === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  if (encoding === 'yaml') return yamlStringify(value, { version: '1.2', lineWidth: 0 });
  return markdown(value);
}

// Markdown: the frontmatter is the document minus spec.role.instructions, which becomes the body
// (SPEC §2.1). A blank line separates the closing fence from the body.
function markdown(doc: JsonObject): string {
  const copy = structuredClone(doc);
  const spec = copy['spec'];
  const role = isObject(spec) ? spec['role'] : undefined;
  let body = '';
  if (isObject(role) && typeof role['instructions'] === 'string') {
    body = role['instructions'];
    delete role['instructions'];
  }
  return `---\n${yamlStringify(copy, { version: '1.2', lineWidth: 0 })}---\n\n${body}\n`;
}

/** Every annotation as the writeAnnotation rule writes it back (the reference: as it is). */
function writtenAnnotations(doc: JsonObject, rules: Rules): JsonObject {
  const copy = structuredClone(doc);
  const meta = copy['metadata'];
  const ann = isObject(meta) ? meta['annotations'] : undefined;
  if (!isObject(meta) || !isObject(ann)) return copy;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(ann)) {
    const written = rules.writeAnnotation(k, v);
    if (written !== undefined) out[k] = written;
  }
  meta['annotations'] = out;
  return copy;
}
