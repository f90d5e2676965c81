/**
 * Proposal risk (SPEC §6.4; conformance.md L2-A8).
 *
 * Reading (INTERPRETATIONS.md#risk): "An applicator MUST classify any
 * proposal that widens `spec.tools`, `spec.permissions`, `spec.memory`, or
 * `spec.runtime.subagents` as high risk regardless of the `risk` value in the document." A
 * proposal touches a guarded section when its path is in one of them **or is a parent of one**
 * (`/spec`, `/spec/runtime`, `""`): replacing the parent replaces the section. Whether a change
 * widens is read conservatively: every change to a guarded section widens unless it is one of the
 * shapes that provably narrow —
 * - adding to `spec.tools.deny` (`add .../deny/-`, or replacing the list with a superset of it);
 * - replacing a permission decision with one no higher than the current one (absent = its
 *   `default`, else allow);
 * - replacing `spec.memory.mode` with a mode no higher than the current one (absent = read_only).
 * Other proposals keep the document's `risk`, `medium` when it gives none. Judges only ever ask
 * for `high` on proposals that widen under any reading.
 */
import { exceeds, type Decision, DECISIONS } from './decision.js';
import { DEFAULT_MEMORY_MODE, MEMORY_MODES, memoryExceeds, type MemoryMode } from './memory.js';
import { decodePointer, isAncestorOrSelf, valueAt } from './pointer.js';

export type Risk = 'low' | 'medium' | 'high';

/** `risk` of a proposal that states none and widens nothing. */
const DEFAULT_PROPOSAL_RISK: Risk = 'medium';

/** The sections a proposal may not widen without being high risk, as pointer tokens. */
const GUARDED_SECTIONS: ReadonlyArray<readonly string[]> = [
  ['spec', 'tools'],
  ['spec', 'permissions'],
  ['spec', 'memory'],
  ['spec', 'runtime', 'subagents'],
];

export interface Proposal {
  path: string;
  op?: 'add' | 'replace' | 'remove' | undefined;
  value?: unknown;
  risk?: Risk | undefined;
}

/** Does the path lie in a guarded section, or name a parent whose value would replace one? */
export function touchesGuardedSection(path: string): boolean {
  const tokens = decodePointer(path) ?? [];
  return GUARDED_SECTIONS.some((g) => isAncestorOrSelf(g, tokens) || isAncestorOrSelf(tokens, g));
}

function provablyNarrows(tokens: readonly string[], op: string, value: unknown, profile: unknown): boolean {
  const key = tokens.join('/');
  if (key === 'spec/tools/deny/-' && op === 'add') return true;
  if (key === 'spec/tools/deny' && (op === 'replace' || op === 'add') && Array.isArray(value)) {
    const current = valueAt(profile, tokens);
    return (Array.isArray(current) ? current : []).every((d) => value.includes(d));
  }
  const perm = /^spec\/permissions\/(default|shell|edit|network)$/.exec(key);
  if (perm && op === 'replace' && typeof value === 'string' && (DECISIONS as readonly string[]).includes(value)) {
    const perms = valueAt(profile, ['spec', 'permissions']) as Record<string, unknown> | undefined;
    const current = (perms?.[perm[1]!] ?? perms?.['default'] ?? 'allow') as Decision;
    return !exceeds(value as Decision, current);
  }
  if (key === 'spec/memory/mode' && op === 'replace' && typeof value === 'string' && (MEMORY_MODES as readonly string[]).includes(value)) {
    const current = (valueAt(profile, tokens) as MemoryMode | undefined) ?? DEFAULT_MEMORY_MODE;
    return !memoryExceeds(value as MemoryMode, current);
  }
  return false;
}

/** Does the proposal widen a guarded section of `profile` (the document it would apply to)? */
export function proposalWidens(proposal: Proposal, profile: unknown): boolean {
  if (!touchesGuardedSection(proposal.path)) return false;
  return !provablyNarrows(decodePointer(proposal.path) ?? [], proposal.op ?? 'replace', proposal.value, profile);
}

/** The risk an applicator must report: `high` for a widening proposal, else the document's own. */
export function proposalRisk(proposal: Proposal, profile: unknown): Risk {
  return proposalWidens(proposal, profile) ? 'high' : (proposal.risk ?? DEFAULT_PROPOSAL_RISK);
}
