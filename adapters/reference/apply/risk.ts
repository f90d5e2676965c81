/**
 * Proposal risk (SPEC §6.4, L2-A8). A proposal that widens `spec.tools`, `spec.permissions`,
 * `spec.memory` or `spec.runtime.subagents` is high risk whatever the document says. "Widens" is
 * read conservatively: any change under those paths is widening unless it is provably narrowing,
 * and only these shapes are recognised as provably narrowing:
 *   - adding entries to `spec.tools.deny` (add to /spec/tools/deny/- or a replace of the whole
 *     list with a superset of the current one);
 *   - replacing a permission decision with one no higher than the current one (missing = allow);
 *   - replacing `spec.memory.mode` with a mode no higher than the current one.
 * Other proposals keep the document's `risk`, or `medium` when it gives none.
 */
import { isObject, type JsonObject } from '../document.js';
import { parsePointer } from '../../../spec/document/issue.js';
import { decisionExceeds, modeExceeds, type Decision, type MemoryMode } from '../decisions.js';

export type Risk = 'low' | 'medium' | 'high';

const GUARDED = [
  ['spec', 'tools'],
  ['spec', 'permissions'],
  ['spec', 'memory'],
  ['spec', 'runtime', 'subagents'],
];

export function proposalRisk(proposal: JsonObject, profile: JsonObject): Risk {
  const path = String(proposal['path']);
  const tokens = safeTokens(path);
  const guarded = GUARDED.some((g) => g.every((t, i) => tokens[i] === t)) || isAncestorOfGuarded(tokens);
  const declared = (proposal['risk'] as Risk | undefined) ?? 'medium';
  if (!guarded) return declared;
  return provablyNarrowing(tokens, (proposal['op'] as string | undefined) ?? 'replace', proposal['value'], profile) ? declared : 'high';
}

/** `/spec` or `/spec/runtime` replace a guarded section wholesale. */
function isAncestorOfGuarded(tokens: string[]): boolean {
  return GUARDED.some((g) => tokens.length < g.length && tokens.every((t, i) => g[i] === t));
}

function safeTokens(path: string): string[] {
  try {
    return parsePointer(path);
  } catch {
    return [];
  }
}

function valueAt(doc: unknown, tokens: string[]): unknown {
  let cur: unknown = doc;
  for (const t of tokens) {
    if (!isObject(cur)) return undefined;
    cur = cur[t];
  }
  return cur;
}

const DECISIONS = ['allow', 'ask', 'deny'];
const MODES = ['off', 'read_only', 'read_write'];

function provablyNarrowing(tokens: string[], op: string, value: unknown, profile: JsonObject): boolean {
  const key = tokens.join('/');
  if (key === 'spec/tools/deny/-' && op === 'add') return true;
  if (key === 'spec/tools/deny' && (op === 'replace' || op === 'add') && Array.isArray(value)) {
    const current = valueAt(profile, tokens);
    const before = Array.isArray(current) ? current : [];
    return before.every((d) => value.includes(d));
  }
  const perm = /^spec\/permissions\/(default|shell|edit|network)$/.exec(key);
  if (perm && op === 'replace' && typeof value === 'string' && DECISIONS.includes(value)) {
    const perms = valueAt(profile, ['spec', 'permissions']);
    const current = (isObject(perms) ? (perms[perm[1]!] ?? perms['default']) : undefined) as Decision | undefined;
    return !decisionExceeds(value as Decision, current ?? 'allow');
  }
  if (key === 'spec/memory/mode' && op === 'replace' && typeof value === 'string' && MODES.includes(value)) {
    const current = (valueAt(profile, tokens) as MemoryMode | undefined) ?? 'read_only';
    return !modeExceeds(value as MemoryMode, current);
  }
  return false;
}
