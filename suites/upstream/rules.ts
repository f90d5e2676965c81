/**
 * Which requirement a negative upstream fixture proves. An explicit requirement ID in its leading
 * comment (`# Violates L1-P5: ...`) decides; otherwise keywords in the comment, then in the file
 * name, pick a rule; otherwise it is schema validation (L1-P2 for profiles, L2-A1 for deltas). The
 * issue category a correct refusal carries is only recorded as a note, never required (the
 * specification names no categories; see INTERPRETATIONS.md, upstream replay).
 */
import { REQUIREMENT_IDS } from '../requirements.js';

export interface NamedRule {
  requirements: string[];
  /** The protocol category a refusal of this rule usually carries (a note, never judged). */
  category: string;
  /** The rule can only be judged with a workspace and policy (resolve time), not by validate alone. */
  resolveTime: boolean;
  /** How the rule was found: an explicit ID in the comment, a keyword, or neither (schema). */
  source: 'id' | 'keyword' | 'default';
}

export interface NamedDeltaRule extends NamedRule {
  /** Only a fixture that names a revision conflict may be answered `conflict` instead of `rejected`. */
  conflict: boolean;
}

/** Category and resolve-time of each requirement a negative fixture can name. */
const BY_ID: Record<string, { category: string; resolveTime: boolean }> = {
  'L1-P1': { category: 'parse', resolveTime: false },
  'L1-P2': { category: 'schema', resolveTime: false },
  'L1-P3': { category: 'version-major', resolveTime: false },
  'L1-P4': { category: 'version-minor', resolveTime: false },
  'L1-P5': { category: 'kind', resolveTime: false },
  'L1-P6': { category: 'schema', resolveTime: false },
  'L1-D2': { category: 'collision', resolveTime: true },
  'L1-I5': { category: 'path-escape', resolveTime: true },
  'L1-I6': { category: 'secret-literal', resolveTime: false },
  'L1-I7': { category: 'skill-missing', resolveTime: true },
  'L3-E1': { category: 'extends-cycle', resolveTime: true },
  'L3-G1': { category: 'encoding', resolveTime: false },
  'L3-G2': { category: 'digest-mismatch', resolveTime: true },
  'L3-K1': { category: 'digest-mismatch', resolveTime: true },
  'L2-A1': { category: 'schema', resolveTime: false },
  'L2-A2': { category: 'delta-scope', resolveTime: false },
  'L2-A3': { category: 'revision-conflict', resolveTime: false },
  'L2-A4': { category: 'digest-mismatch', resolveTime: false },
};

/** Requirement IDs named in a comment (`L1-P5`, `L2-A12`), in order of appearance, without repeats. */
export function explicitIds(comment: string): string[] {
  return [...new Set([...comment.matchAll(/\bL[1-3]-[A-Z]\d{1,2}\b/g)].map((m) => m[0]))];
}

/** Explicit IDs that conformance.md 1.0.1 does not define (a fixture-set problem, reported before the run). */
export function unknownIds(comment: string): string[] {
  return explicitIds(comment).filter((id) => !REQUIREMENT_IDS.has(id));
}

const PROFILE_KEYWORDS: Array<{ test: RegExp; id: string; category?: string; resolveTime?: boolean }> = [
  { test: /literal|secret|credential|api[ -]?key|token/i, id: 'L1-I6' },
  { test: /travers|escap|outside (the )?workspace|absolute path|\.\.\//i, id: 'L1-I5' },
  { test: /\bmajor\b/i, id: 'L1-P3' },
  { test: /\bminor\b/i, id: 'L1-P4' },
  { test: /\bkinds?\b|bundle|profileindex/i, id: 'L1-P5' },
  { test: /frontmatter|markdown/i, id: 'L3-G1' },
  { test: /\bcycl/i, id: 'L3-E1' },
  { test: /\bdepth\b/i, id: 'L3-E1', category: 'extends-depth' },
  { test: /digest|pinn/i, id: 'L3-G2' },
  { test: /\bskills?\b/i, id: 'L1-I7' },
  { test: /variable|vars\./i, id: 'L1-P2', category: 'variable-undefined', resolveTime: true },
  { test: /\bversion\b/i, id: 'L1-P3' },
];

const DELTA_KEYWORDS: Array<{ test: RegExp; id: string; category?: string }> = [
  {
    test: /outside\s*\/?state|\/spec\b|\/metadata\b|\b(writes?|modif\w*|chang\w*|touch\w*)\W+(the\s+)?(spec|metadata)\b|\bscope\b/i,
    id: 'L2-A2',
  },
  { test: /\b(move|copy|test)\b|reserved/i, id: 'L2-A1', category: 'delta-reserved-op' },
  { test: /\bdigest\b/i, id: 'L2-A4' },
  {
    // A revision conflict, named as such: "revision conflict/mismatch", "conflicts with revision 4",
    // "stale", or a target revision set against the profile's ("target.revision 3 ... revision 4").
    test: /revision\s+(conflict|mismatch)|(conflict|mismatch)\w*\s+(with\s+|on\s+|of\s+)?(the\s+)?(target\s+)?revision|\bstale\b|target\.revision\W+\d+.*\brevision\W+\d+/i,
    id: 'L2-A3',
  },
];

function fromId(ids: string[]): NamedRule {
  const first = BY_ID[ids[0]!];
  return {
    requirements: ids,
    category: first?.category ?? 'other',
    resolveTime: ids.some((id) => BY_ID[id]?.resolveTime ?? true),
    source: 'id',
  };
}

/** The words of a file name (`writes-spec.delta.yaml` → `writes spec`), for keywords when the comment has none. */
function stemWords(fileName: string): string {
  return fileName.replace(/\.(agent|delta)\.[a-z]+$/i, '').replace(/[-_.]+/g, ' ');
}

function byKeyword<T extends { test: RegExp; id: string }>(table: T[], comment: string, fileName: string): T | undefined {
  return table.find((k) => k.test.test(comment)) ?? table.find((k) => k.test.test(stemWords(fileName)));
}

/** The rule a negative profile fixture names. */
export function namedProfileRule(comment: string, fileName = ''): NamedRule {
  const ids = explicitIds(comment);
  if (ids.length > 0) return fromId(ids);
  const k = byKeyword(PROFILE_KEYWORDS, comment, fileName);
  if (!k) return { requirements: ['L1-P2'], category: 'schema', resolveTime: false, source: 'default' };
  const known = BY_ID[k.id]!;
  return {
    requirements: [k.id],
    category: k.category ?? known.category,
    resolveTime: k.resolveTime ?? known.resolveTime,
    source: 'keyword',
  };
}

/** The rule a negative delta fixture names, and whether a `conflict` answer is acceptable. */
export function namedDeltaRule(comment: string, fileName = ''): NamedDeltaRule {
  const ids = explicitIds(comment);
  if (ids.length > 0) return { ...fromId(ids), resolveTime: false, conflict: ids.includes('L2-A3') };
  const k = byKeyword(DELTA_KEYWORDS, comment, fileName);
  if (!k) return { requirements: ['L2-A1'], category: 'schema', resolveTime: false, source: 'default', conflict: false };
  return {
    requirements: [k.id],
    category: k.category ?? BY_ID[k.id]!.category,
    resolveTime: false,
    source: 'keyword',
    conflict: k.id === 'L2-A3',
  };
}
