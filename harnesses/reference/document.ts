/**
 * The reference harness's window onto the document layer (spec/document): parsing, schema and
 * structural validation, digests. Only document-level rules come from there; every harness
 * behaviour (discovery, resolution, narrowing, prompts, deltas) is implemented in this directory.
 *
 * Quirks that make the harness accept documents it must refuse are applied here, as filters over
 * the issues the document layer reports, so the rest of the code sees one verdict.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import {
  encodingFromPath,
  parseDocument,
  profileDigest,
  specDigest,
  specDigestInput,
  validateDocument,
  validationSubject,
} from '../../spec/document/index.js';
import { issue, type OapIssue } from '../../spec/document/issue.js';
import { parsePointer, valueAt } from '../../spec/semantics/index.js';
import type { Quirks } from './quirks.js';

export type Encoding = 'yaml' | 'json' | 'md';
export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function errorsOf(issues: readonly OapIssue[]): OapIssue[] {
  return issues.filter((i) => i.severity !== 'warning');
}

/** Parse text or bytes in an encoding; no validation. */
export function parseText(input: string | Uint8Array, encoding: Encoding, quirks: Quirks): { value?: unknown; issues: OapIssue[] } {
  if (encoding === 'json' && quirks.has('json-claimed-not-accepted')) {
    return { issues: [issue('parse', '', 'this harness does not read JSON documents')] };
  }
  const parsed = parseDocument(input, encoding);
  if (parsed.ok) return { value: encoding === 'md' ? markdownQuirks(parsed.value, quirks) : parsed.value, issues: [] };
  // ADV-duplicate-keys mutants read a key written twice as the last one, as JSON.parse and a lenient YAML loader do.
  const lastWins = encoding === 'json' ? quirks.has('json-duplicate-keys-last-wins') : quirks.has('yaml-duplicate-keys-last-wins');
  if (lastWins && encoding !== 'md' && parsed.issues.every((i) => i.code.startsWith('duplicate-key'))) {
    const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
    return { value: encoding === 'json' ? (JSON.parse(text) as unknown) : (parseYaml(text, { uniqueKeys: false }) as unknown), issues: [] };
  }
  if (quirks.has('non-finite-accepted') && encoding !== 'md' && parsed.issues.every((i) => i.code.startsWith('non-finite'))) {
    // The L3-G2 mutant reads the text with a plain parser, which turns 1e400 / .inf into Infinity.
    const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
    return { value: encoding === 'json' ? (JSON.parse(text) as unknown) : (parseYaml(text) as unknown), issues: [] };
  }
  if (encoding === 'md' && quirks.has('md-both-instructions-accepted') && parsed.issues.every((i) => i.code.startsWith('encoding'))) {
    const lenient = lenientMarkdown(typeof input === 'string' ? input : Buffer.from(input).toString('utf8'));
    if (lenient) return { value: lenient, issues: [] };
  }
  return { issues: parsed.issues };
}

/** Read a file and parse it in the encoding its name implies. */
export function readDocumentFile(path: string, quirks: Quirks): { encoding?: Encoding; value?: unknown; issues: OapIssue[] } {
  const encoding = encodingFromPath(path);
  if (!encoding) return { issues: [issue('encoding', '', `no OAP encoding for file name ${path}`)] };
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    return { encoding, issues: [issue('io', '', `cannot read ${path}: ${(err as Error).message}`)] };
  }
  return { encoding, ...parseText(bytes, encoding, quirks) };
}

/**
 * Validate a profile (schema plus the structural rules). A document that uses `extends` may carry
 * explicit `null`s, which are merge directives (SPEC §4 rule 3) and not values, so they are removed
 * before validation here and the merged result is validated again after the merge.
 */
export function validateProfile(value: unknown, quirks: Quirks, opts: { forInstantiation?: boolean } = {}): OapIssue[] {
  const subject = validationSubject(value);
  const { issues } = validateDocument(subject);
  return filterByQuirks(issues, quirks, opts.forInstantiation ?? false, subject);
}

export function validateDelta(value: unknown, quirks: Quirks): OapIssue[] {
  let all = validateDocument(value).issues;
  // L2-A1 mutant: no validation at all except the /state scope rule (which is L2-A2's).
  if (quirks.has('skips-delta-validation')) all = all.filter((i) => i.code.startsWith('delta-scope'));
  // L2-A2 mutant: no scope rule, including the schema's own /state pattern on operation paths.
  if (quirks.has('ops-outside-state-applied')) {
    all = all.filter(
      (i) => !i.code.startsWith('delta-scope') && !(i.code.startsWith('schema') && /^\/operations\/\d+\/path$/.test(i.pointer)),
    );
  }
  return all;
}

function filterByQuirks(issues: OapIssue[], quirks: Quirks, forInstantiation: boolean, doc: unknown): OapIssue[] {
  const drop = (pred: (i: OapIssue) => boolean): void => {
    issues = issues.filter((i) => !pred(i));
  };
  const cat = (i: OapIssue, c: string): boolean => i.code === c || i.code.startsWith(`${c}.`);
  if (quirks.has('accepts-unknown-major')) drop((i) => cat(i, 'version-major') || (cat(i, 'schema') && i.pointer === '/oap'));
  if (quirks.has('accepts-higher-minor')) drop((i) => cat(i, 'version-minor'));
  if (quirks.has('accepts-unknown-kind')) drop((i) => cat(i, 'kind') || (cat(i, 'schema') && i.pointer === '/kind'));
  if (quirks.has('literal-secret-accepted')) {
    drop(
      (i) =>
        /^\/spec\/tools\/mcp_servers\/\d+\/(env|headers)(\/|$)/.test(i.pointer) &&
        (cat(i, 'schema') || cat(i, 'secret-literal') || cat(i, 'secret-pattern')),
    );
  }
  const mcpValue = (i: OapIssue): { place: string; key: string; value: unknown } | undefined => {
    const m = /^\/spec\/tools\/mcp_servers\/\d+\/(env|headers)\/[^/]+$/.exec(i.pointer);
    const tokens = m ? parsePointer(i.pointer) : undefined;
    return m && tokens ? { place: m[1]!, key: tokens[tokens.length - 1]!, value: valueAt(doc, tokens) } : undefined;
  };
  const reference = /^\$\{[A-Z][A-Z0-9_]{0,63}\}$/;
  // The L1-I6 mutant checks the ${VAR} shape of an env value but not that it names its own key.
  if (quirks.has('env-reference-name-unchecked'))
    drop((i) => cat(i, 'secret-literal') && mcpValue(i)?.place === 'env' && reference.test(String(mcpValue(i)?.value)));
  // The L1-I6 mutant's `$` also matches before a final newline (Python's re), so `${TOKEN}\n` passes both checks.
  if (quirks.has('secret-reference-trailing-newline')) {
    drop((i) => {
      const v = mcpValue(i);
      if (!v || typeof v.value !== 'string' || !v.value.endsWith('\n') || !(cat(i, 'schema') || cat(i, 'secret-literal'))) return false;
      const trimmed = v.value.slice(0, -1);
      return v.place === 'env' ? trimmed === `\${${v.key}}` : /^(Bearer )?\$\{[A-Z][A-Z0-9_]{0,63}\}$/.test(trimmed);
    });
  }
  if (quirks.has('context-path-unchecked')) drop((i) => cat(i, 'path-escape') && /^\/spec\/context\/files\//.test(i.pointer));
  if (quirks.has('non-finite-accepted')) drop((i) => cat(i, 'non-finite'));
  if (forInstantiation && quirks.has('instantiates-schema-invalid')) drop((i) => cat(i, 'schema'));
  if (quirks.has('schema-errors-without-pointer')) issues = issues.map((i) => (cat(i, 'schema') ? { ...i, pointer: '' } : i));
  return issues;
}

export interface Digests {
  profile_digest: string;
  spec_digest: string;
}

/** The digest a harness gets by hashing plain JSON.stringify output: key order as written, so not JCS (the digest mutants). */
export function plainJsonDigest(v: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(v)).digest('hex')}`;
}

export function digestsOf(doc: unknown, quirks: Quirks = noQuirks): Digests {
  if (quirks.has('digest-not-canonical'))
    return { profile_digest: plainJsonDigest(doc), spec_digest: plainJsonDigest(specDigestInput(doc)) };
  // L3-G2 mutants of the digest command, each a canonicaliser that departs from RFC 8785 in one way.
  const variant: Partial<Canonical> = {
    ...(quirks.has('digest-keys-code-point-order') ? { compare: byCodePoints } : {}),
    ...(quirks.has('digest-numbers-python-repr') ? { number: pythonFloatRepr } : {}),
    ...(quirks.has('digest-non-ascii-escaped') ? { string: asciiJson } : {}),
  };
  // The L3-G2 mutant forgets to drop the applicator- and resolver-owned metadata from the spec digest.
  const keepsOwned = quirks.has('digest-spec-keeps-owned-metadata');
  if (Object.keys(variant).length === 0 && !keepsOwned) return { profile_digest: profileDigest(doc), spec_digest: specDigest(doc) };
  const d = doc as JsonObject;
  const specInput = keepsOwned ? { metadata: d['metadata'], spec: d['spec'] } : specDigestInput(doc);
  return { profile_digest: canonicalDigest(doc, variant), spec_digest: canonicalDigest(specInput, variant) };
}

/**
 * Digests the way a harness's own plain reader and canonicaliser would: the L3-G2 mutant whose
 * digest command reads `1e400` / `.inf` as Infinity and, like JSON.stringify, writes it as null.
 */
export function lenientDigests(text: string, encoding: Encoding): Digests | undefined {
  if (encoding === 'md') return undefined;
  const value = (encoding === 'json' ? JSON.parse(text) : parseYaml(text)) as unknown;
  const d = value as JsonObject;
  return { profile_digest: canonicalDigest(value, {}), spec_digest: canonicalDigest(specDigestInput(d), {}) };
}

/** How a canonicaliser writes keys, numbers and strings; the defaults are RFC 8785's (ECMAScript forms, UTF-16 key order). */
interface Canonical {
  compare(a: string, b: string): number;
  number(n: number): string;
  string(s: string): string;
}

const RFC8785: Canonical = {
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  number: (n) => JSON.stringify(n),
  string: (s) => JSON.stringify(s),
};

function canonicalDigest(value: unknown, variant: Partial<Canonical>): string {
  const c = { ...RFC8785, ...variant };
  const write = (v: unknown): string => {
    if (v === null || typeof v === 'boolean') return JSON.stringify(v);
    if (typeof v === 'number') return c.number(v);
    if (typeof v === 'string') return c.string(v);
    if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
    const o = v as JsonObject;
    return `{${Object.keys(o)
      .sort(c.compare)
      .map((k) => `${c.string(k)}:${write(o[k])}`)
      .join(',')}}`;
  };
  return `sha256:${createHash('sha256').update(write(value)).digest('hex')}`;
}

/** Keys sorted by Unicode code point (Python's sorted()), not by UTF-16 code unit as RFC 8785 requires. */
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (ch) => ch.codePointAt(0)!);
  const y = Array.from(b, (ch) => ch.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** Python's repr of a float: exponent notation below 1e-4 and from 1e16 on, with a two-digit exponent. */
function pythonFloatRepr(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 16) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}

/** JSON with every non-ASCII UTF-16 unit escaped (Python's json.dumps default, ensure_ascii). */
function asciiJson(s: string): string {
  return JSON.stringify(s).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const noQuirks = { has: () => false } as unknown as Quirks;

/**
 * The L3-G1 mutants' Markdown readers, each wrong in one way a real reader is: a leading `# Title`
 * line of the body taken as the document's title (not instructions); `spec.role` built from the
 * body alone (the frontmatter's role supplements lost); frontmatter read as configuration only
 * (`state` dropped).
 */
function markdownQuirks(value: unknown, quirks: Quirks): unknown {
  if (!isObject(value)) return value;
  const role = isObject(value['spec']) && isObject(value['spec']['role']) ? (value['spec']['role'] as JsonObject) : undefined;
  if (quirks.has('md-heading-as-title') && role && typeof role['instructions'] === 'string')
    role['instructions'] = role['instructions'].replace(/^# [^\n]*\n+/, '');
  if (quirks.has('md-role-from-body-only') && role) (value['spec'] as JsonObject)['role'] = { instructions: role['instructions'] };
  if (quirks.has('md-frontmatter-state-dropped')) delete value['state'];
  return value;
}

/** The mutant's own Markdown reader: frontmatter, then the body overrides whatever instructions it had. */
function lenientMarkdown(text: string): JsonObject | undefined {
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
