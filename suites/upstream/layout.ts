/**
 * Reading a directory laid out like the OAP specification repository (conformance.md §5.1):
 *
 *   examples/*.agent.yaml                valid profiles
 *   examples/json/*.agent.json           valid, logically identical to the YAML of the same name
 *   examples/invalid/*.agent.yaml        must be rejected; the leading comment names the rule
 *   tests/deltas/*.delta.yaml            valid deltas that apply cleanly to the named profile
 *   tests/deltas/invalid/*.delta.yaml    must be rejected
 *
 * Only `examples/` with at least one `*.agent.yaml` is mandatory; the other directories are
 * replayed when present.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseDocument } from '../../spec/document/index.js';

export class UpstreamLayoutError extends Error {
  readonly code = 'fixtures.layout';
  constructor(message: string) {
    super(message.replace(/\s*\n\s*/g, ' '));
    this.name = 'UpstreamLayoutError';
  }
}

export interface UpstreamFile {
  /** Absolute path. */
  path: string;
  /** `/`-separated path relative to the upstream root (the case ID suffix). */
  rel: string;
  text: string;
  /** The logical document as the oracle reads it; undefined when it does not parse to an object. */
  doc: Record<string, unknown> | undefined;
  /** The leading comment block, without `#` markers, joined by spaces. */
  comment: string;
}

export interface UpstreamTree {
  root: string;
  examples: UpstreamFile[];
  json: UpstreamFile[];
  invalid: UpstreamFile[];
  deltas: UpstreamFile[];
  invalidDeltas: UpstreamFile[];
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function filesIn(root: string, dir: string, pattern: RegExp): UpstreamFile[] {
  const abs = join(root, dir);
  if (!isDir(abs)) return [];
  return readdirSync(abs)
    .filter((n) => pattern.test(n))
    .sort()
    .map((n) => join(abs, n))
    .filter((p) => !isDir(p))
    .map((path) => readUpstreamFile(root, path));
}

export function leadingComment(text: string): string {
  const lines: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' && lines.length === 0) continue;
    if (!line.startsWith('#')) break;
    lines.push(line.replace(/^#+\s?/, ''));
  }
  return lines.join(' ').trim();
}

function readUpstreamFile(root: string, path: string): UpstreamFile {
  const text = readFileSync(path, 'utf8');
  const encoding = path.endsWith('.json') ? 'json' : 'yaml';
  const parsed = parseDocument(text, encoding);
  const doc =
    parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)
      ? (parsed.value as Record<string, unknown>)
      : undefined;
  return { path, rel: relative(root, path).split(sep).join('/'), text, doc, comment: leadingComment(text) };
}

export function readUpstreamTree(root: string): UpstreamTree {
  if (!existsSync(root)) throw new UpstreamLayoutError(`fixtures directory ${root} does not exist`);
  if (!isDir(root)) throw new UpstreamLayoutError(`fixtures path ${root} is not a directory`);
  const examples = filesIn(root, 'examples', /\.agent\.ya?ml$/);
  if (examples.length === 0) {
    throw new UpstreamLayoutError(`${root} is not laid out like the OAP specification repository: no examples/*.agent.yaml`);
  }
  return {
    root,
    examples,
    json: filesIn(root, join('examples', 'json'), /\.agent\.json$/),
    invalid: filesIn(root, join('examples', 'invalid'), /\.agent\.ya?ml$/),
    deltas: filesIn(root, join('tests', 'deltas'), /\.delta\.ya?ml$/),
    invalidDeltas: filesIn(root, join('tests', 'deltas', 'invalid'), /\.delta\.ya?ml$/),
  };
}
