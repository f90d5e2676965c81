/**
 * The harness writer: a logical document back into its file's own encoding. The writer works on
 * the logical value, so every annotation (any key, any string value, JSON text included) passes
 * through untouched; YAML strings that look like numbers, booleans or JSON are quoted by the yaml
 * package so they read back as the same strings.
 */
import { stringify as yamlStringify } from 'yaml';
import type { Encoding, JsonObject } from './document.js';
import { isObject } from './document.js';
import type { Quirks } from './quirks.js';

export function serializeProfile(doc: JsonObject, encoding: Encoding, quirks: Quirks): string {
  const value = applyWriteQuirks(doc, quirks);
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

/** Mutant deviations on the write path (L1-R1, L1-R2); the reference writes the value as it is. */
function applyWriteQuirks(doc: JsonObject, quirks: Quirks): JsonObject {
  const deviations = [
    'drops-unknown-annotations',
    'annotation-json-reformatted',
    'empty-annotations-dropped',
    'structured-annotations-dropped',
  ] as const;
  if (!deviations.some((q) => quirks.has(q))) return doc;
  const copy = structuredClone(doc);
  const meta = copy['metadata'];
  const ann = isObject(meta) ? meta['annotations'] : undefined;
  if (!isObject(meta) || !isObject(ann)) return copy;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(ann)) {
    if (quirks.has('drops-unknown-annotations') && !k.startsWith('oap-conform.dev/')) continue;
    // L1-R1 mutants: a truthiness filter that loses "", and a writer that keeps only one-line plain words.
    if (quirks.has('empty-annotations-dropped') && !v) continue;
    if (quirks.has('structured-annotations-dropped') && typeof v === 'string' && (v.includes('\n') || /^\s*[[{]/.test(v))) continue;
    out[k] = quirks.has('annotation-json-reformatted') && typeof v === 'string' ? compactJson(v) : v;
  }
  meta['annotations'] = out;
  return copy;
}

function compactJson(v: string): string {
  if (!/^\s*[[{]/.test(v)) return v;
  try {
    return JSON.stringify(JSON.parse(v));
  } catch {
    return v;
  }
}
