/**
 * The shape of an effective contract (protocol/messages.ts EffectiveContract): which of its
 * dimensions are sets, keyed maps, ordered lists and values, so a difference between two contracts
 * (or one dimension of them) is in the contract's own terms (spec/document/differences.ts).
 *
 * The narrowing rules read these dimensions the same way (./narrowing.ts, SPEC §7.2): tools, roots,
 * hosts, scopes and the subagents a session may delegate to are sets (what matters is which members
 * a session gets, never their order: "the more restrictive of profile and policy" is a set
 * operation), so two of them differ by the members one has and the other lacks. Stores, MCP servers
 * and skills are named entries, compared by name. Permission rules are an ordered list (SPEC §3.5:
 * "first match wins"), compared by position. Decisions, budgets, the model and writeback are values.
 */
import { type CompareOptions, type Difference, type Shape, shapeAt } from '../document/differences.js';
import { decodePointer, parsePointer, pointerOf } from './pointer.js';

const SET: Shape = { kind: 'set' };
const VALUE: Shape = { kind: 'value' };

export const EFFECTIVE_CONTRACT_SHAPE: Shape = {
  kind: 'map',
  fields: {
    tools: SET,
    permissions: { kind: 'map', values: VALUE },
    rules: { kind: 'list', items: { kind: 'map', values: VALUE } },
    filesystem: { kind: 'map', fields: { read_roots: SET, write_roots: SET, deny_paths: SET } },
    hosts: SET,
    memory: {
      kind: 'map',
      fields: { mode: VALUE, scopes: SET, stores: { kind: 'keyed', key: 'name', items: { kind: 'map', values: VALUE } } },
    },
    budgets: { kind: 'map', values: VALUE },
    model: { kind: 'map', values: VALUE },
    mcp_servers: { kind: 'keyed', key: 'name', items: { kind: 'map', fields: { tools: SET }, values: VALUE } },
    skills: { kind: 'keyed', key: 'name', items: { kind: 'map', values: VALUE } },
    subagents: { kind: 'map', fields: { allow: SET }, values: VALUE },
    writeback: VALUE,
  },
};

/**
 * How to compare the part of an effective contract at `pointer` (`/tools`, `/memory/scopes`, `""`
 * for the whole): its shape, and where it sits, so each difference names its contract path.
 */
export function contractComparison(pointer: string): CompareOptions {
  return { shape: shapeAt(EFFECTIVE_CONTRACT_SHAPE, pointer), at: pointer };
}

/**
 * The dimension of an effective contract a pointer names, or undefined when it names none: the
 * pointer cut after the deepest token the contract's shape knows, so a member of a set
 * (`/tools/git~1diff`, a label) is its set (`/tools`), a field its field (`/permissions/shell`). A
 * pointer whose first token is itself a contract pointer (evidence keyed by where it was found,
 * `{"/permissions/shell": ...}`) names that place. Meta keys of evidence (`/within`) name none.
 */
export function contractPathOf(pointer: string): string | undefined {
  const tokens = decodePointer(pointer);
  if (tokens === undefined || tokens.length === 0) return undefined;
  if (tokens[0]!.startsWith('/')) return contractPathOf(tokens[0]!);
  let known = 0;
  for (let i = 1; i <= tokens.length; i++) {
    const shape = shapeAt(EFFECTIVE_CONTRACT_SHAPE, pointerOf(tokens.slice(0, i)));
    if (shape === undefined) break;
    known = i;
    // Below a set or a value there are no places, only members and labels.
    if (shape.kind === 'set' || shape.kind === 'value') break;
  }
  return known > 0 ? pointerOf(tokens.slice(0, known)) : undefined;
}

/** A place an answer departs from its prediction, as the judge reports it (or already a difference). */
interface Departure {
  pointer: string;
  deviation?: string;
  expected?: unknown;
  observed?: unknown;
  extra?: unknown[];
  missing?: unknown[];
}

const absent = (v: unknown): boolean =>
  v === null || (typeof v === 'object' && v !== null && (v as { present?: unknown }).present === false);

/**
 * The judge's departures (spec/semantics/contract-judge.ts reports a set's members one by one, at a
 * label such as `/tools/git~1commit`) as differences in the contract's own terms: the members of
 * one set dimension gathered into one difference at the set, what the answer has and should not
 * (`extra`, the members found wider) and what it lacks (`missing`); every other departure as it is.
 */
export function contractDifferences(departures: readonly Departure[]): Difference[] {
  const out: Difference[] = [];
  const sets = new Map<string, Difference & { extra: unknown[]; missing: unknown[] }>();
  for (const d of departures) {
    const at = contractPathOf(d.pointer);
    const isSet = at !== undefined && shapeAt(EFFECTIVE_CONTRACT_SHAPE, at)?.kind === 'set';
    const member = at !== undefined && d.pointer !== at ? parsePointer(d.pointer).at(-1) : d.observed;
    const gathered = isSet
      ? d.extra || d.missing
        ? { extra: d.extra ?? [], missing: d.missing ?? [] }
        : absent(d.observed)
          ? { extra: [], missing: [member] }
          : d.deviation === 'wider' || d.deviation === undefined
            ? { extra: [d.observed ?? member], missing: [] }
            : undefined
      : undefined;
    if (at === undefined || gathered === undefined) {
      out.push({
        pointer: d.pointer,
        ...(d.expected !== undefined ? { expected: d.expected } : {}),
        ...(d.observed !== undefined ? { observed: d.observed } : {}),
        ...(d.extra ? { extra: d.extra } : {}),
        ...(d.missing ? { missing: d.missing } : {}),
      });
      continue;
    }
    let set = sets.get(at);
    if (!set) {
      set = { pointer: at, extra: [], missing: [] };
      sets.set(at, set);
      out.push(set);
    }
    for (const m of gathered.extra) if (!set.extra.includes(m)) set.extra.push(m);
    for (const m of gathered.missing) if (!set.missing.includes(m)) set.missing.push(m);
  }
  // A set difference carries only the sides it has.
  return out.map((d) =>
    sets.get(d.pointer) === d
      ? { pointer: d.pointer, ...(d.extra?.length ? { extra: d.extra } : {}), ...(d.missing?.length ? { missing: d.missing } : {}) }
      : d,
  );
}
