/**
 * Reading a directory laid out like the OAP specification repository (conformance.md §5.1, and the
 * files the repository's own tests take):
 *
 *   examples/*.agent.{yaml,yml,json,md}    valid profiles, in any of the three encodings (SPEC §2.1)
 *   examples/json/*.agent.json            valid, logically identical to the example of the same name
 *   examples/invalid/*                    every file must be rejected; the leading comment names the rule
 *   tests/deltas/*.delta.{yaml,yml,json}  valid deltas that apply cleanly to the profile they name
 *   tests/deltas/invalid/*.delta.*        must be rejected
 *
 * Only `examples/` with at least one profile is mandatory. A file in a folder that is not what the
 * folder holds (a README, a sub-directory) is skipped, and the reader says which and why. The tree's
 * digest covers every file read or skipped, so a result names exactly what was replayed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { encodingFromPath, parseDocument, type Encoding } from '../../spec/document/index.js';

/** The directory is not laid out like the specification repository (exit 2). */
export class UpstreamLayoutError extends Error {
  readonly code: string = 'fixtures.layout';
  constructor(message: string) {
    super(message.replace(/\s*\n\s*/g, ' '));
    this.name = 'UpstreamLayoutError';
  }
}

/**
 * The fixture set contradicts itself or what oap-conform's oracle reads in it (exit 2, before any
 * case runs): a replay built on it could only produce verdicts that are not the harness's.
 */
export class UpstreamFixtureError extends UpstreamLayoutError {
  override readonly code = 'fixtures.set';
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamFixtureError';
  }
}

export const FOLDERS = ['examples', 'examples/json', 'examples/invalid', 'tests/deltas', 'tests/deltas/invalid'] as const;
export type UpstreamFolder = (typeof FOLDERS)[number];

export interface UpstreamFile {
  /** Absolute path. */
  path: string;
  /** `/`-separated path relative to the upstream root (the case ID suffix). */
  rel: string;
  folder: UpstreamFolder;
  /** The encoding the file name implies; undefined for a name with no OAP extension. */
  encoding: Encoding | undefined;
  text: string;
  /** The logical document as the oracle reads it; undefined when it does not parse to an object. */
  doc: Record<string, unknown> | undefined;
  /** The leading comment block, without comment markers, joined by spaces. */
  comment: string;
}

export interface SkippedFile {
  rel: string;
  reason: string;
}

export interface UpstreamTree {
  root: string;
  examples: UpstreamFile[];
  json: UpstreamFile[];
  invalid: UpstreamFile[];
  deltas: UpstreamFile[];
  invalidDeltas: UpstreamFile[];
  skipped: SkippedFile[];
  /** `sha256:` over every file read or skipped under the five folders (relative path and content). */
  digest: string;
}

const PROFILE = /\.agent\.(?:ya?ml|json|md)$/;
const DELTA = /\.delta\.(?:ya?ml|json)$/;

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The leading comment of a fixture: YAML `#` lines before the document (or right after the opening
 * `---` of Markdown frontmatter), else a first `<!-- ... -->` in a Markdown body. JSON has no
 * comments.
 */
export function leadingComment(text: string, encoding?: Encoding): string {
  const lines: string[] = [];
  const all = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let i = 0;
  if (encoding === 'md' && all[0]?.trim() === '---') i = 1;
  for (; i < all.length; i++) {
    const line = all[i]!.trim();
    if (line === '' && lines.length === 0) continue;
    if (!line.startsWith('#')) break;
    lines.push(line.replace(/^#+\s?/, ''));
  }
  if (lines.length === 0 && encoding === 'md') {
    const html = /<!--([\s\S]*?)-->/.exec(text);
    if (html?.[1]) return html[1].replace(/\s+/g, ' ').trim();
  }
  return lines.join(' ').trim();
}

interface Reader {
  root: string;
  skipped: SkippedFile[];
  hashed: Array<{ rel: string; sha: string }>;
}

function relOf(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

function readFile(r: Reader, path: string, folder: UpstreamFolder): UpstreamFile {
  const bytes = readFileSync(path);
  const rel = relOf(r.root, path);
  r.hashed.push({ rel, sha: createHash('sha256').update(bytes).digest('hex') });
  const text = bytes.toString('utf8');
  const encoding = encodingFromPath(path);
  const parsed = encoding ? parseDocument(text, encoding) : undefined;
  const doc =
    parsed?.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)
      ? (parsed.value as Record<string, unknown>)
      : undefined;
  return { path, rel, folder, encoding, text, doc, comment: leadingComment(text, encoding) };
}

/** The files of one folder: those `accept` takes are read; anything else is skipped with `why`. */
function folder(
  r: Reader,
  name: UpstreamFolder,
  accept: RegExp | undefined,
  why: string,
  subfolders: readonly string[] = [],
): UpstreamFile[] {
  const abs = join(r.root, ...name.split('/'));
  if (!isDir(abs)) return [];
  const out: UpstreamFile[] = [];
  for (const entry of readdirSync(abs).sort()) {
    const path = join(abs, entry);
    const rel = relOf(r.root, path);
    if (isDir(path)) {
      if (!subfolders.includes(entry)) r.skipped.push({ rel: `${rel}/`, reason: 'a directory the upstream layout does not define' });
      continue;
    }
    if (accept && !accept.test(entry)) {
      r.hashed.push({ rel, sha: createHash('sha256').update(readFileSync(path)).digest('hex') });
      r.skipped.push({ rel, reason: why });
      continue;
    }
    out.push(readFile(r, path, name));
  }
  return out;
}

export function readUpstreamTree(dir: string): UpstreamTree {
  const root = resolve(dir);
  if (!existsSync(root)) throw new UpstreamLayoutError(`fixtures directory ${dir} does not exist`);
  if (!isDir(root)) throw new UpstreamLayoutError(`fixtures path ${dir} is not a directory`);
  const r: Reader = { root, skipped: [], hashed: [] };
  const examples = folder(r, 'examples', PROFILE, 'not a profile (expected examples/*.agent.yaml, .yml, .json or .md)', [
    'json',
    'invalid',
  ]);
  if (examples.length === 0) {
    throw new UpstreamLayoutError(
      `${dir} is not laid out like the OAP specification repository: no examples/*.agent.yaml, .yml, .json or .md`,
    );
  }
  const tree = {
    root,
    examples,
    json: folder(r, 'examples/json', /\.agent\.json$/, 'not a JSON profile (expected examples/json/*.agent.json)'),
    // conformance.md: every file of examples/invalid/ must be rejected, whatever its name.
    invalid: folder(r, 'examples/invalid', undefined, ''),
    deltas: folder(r, 'tests/deltas', DELTA, 'not a delta (expected tests/deltas/*.delta.yaml, .yml or .json)', ['invalid']),
    invalidDeltas: folder(r, 'tests/deltas/invalid', DELTA, 'not a delta (expected tests/deltas/invalid/*.delta.yaml, .yml or .json)'),
  };
  const hash = createHash('sha256');
  for (const f of [...r.hashed].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))) hash.update(`${f.rel}\0${f.sha}\n`);
  return { ...tree, skipped: r.skipped, digest: `sha256:${hash.digest('hex')}` };
}
