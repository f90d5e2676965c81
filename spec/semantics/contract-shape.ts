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
import { type CompareOptions, type Shape, shapeAt } from '../document/differences.js';
import { decodePointer, pointerOf } from './pointer.js';

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
