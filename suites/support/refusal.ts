/**
 * One rule for a refused input. A case gives the adapter valid inputs it needs accepted: the
 * subject it judges (an `extends` child for L3-E1, a twin in another encoding for L3-G1) or a
 * control its observation rests on (a positive control, a flat equivalent, a parent to delegate
 * from, a delta whose effect the case reads). When the adapter refuses one, this rule decides, in
 * this one place, what the case records:
 *
 *   1. The ID that judges the refusal is read from what the adapter said (`refusalOwner`): a
 *      refusal citing a rule (extends-missing, digest-mismatch, path-escape, ...) is that rule's
 *      ID's; a `schema` refusal of a valid document is L1-P2's ("MUST validate every loaded
 *      document against agent-profile.schema.json"), of a valid delta L2-A1's; a refusal that
 *      cites nothing specific (`other`, no issue) falls to the default owner, L1-P2 for a profile
 *      and L2-A6 for a delta ("MUST honor spec.lifecycle.writeback": the cases apply under
 *      `auto` or with approval, where a valid delta is to be applied).
 *   2. The refusal fails the case when that ID is one the case proves. A refused subject fails it
 *      too, unless the refusal is of its form (`formal`): the adapter could not read it at all
 *      (parsing, the schema, the version, the kind, a feature it does not read) or refused a legal
 *      form (an operation's pointer, a digest check of a delta without one). The case's own
 *      requirement demanded acceptance, and a rule the adapter applied to the subject (a missing
 *      base, a digest that does not match) may be the case's own feature at work (a base not found
 *      in a root the case is about), so only a refusal of the form is another ID's.
 *   3. Otherwise the case is inconclusive: the refusal is its cause, and the owning ID is the one
 *      to fix first (the record's `cause_id`, which the inconclusive summaries group by).
 * So one defect fails one ID: the other cases it reaches end inconclusive, naming it.
 */
import type { AdapterIssueT } from '../../protocol/messages.js';
import { fail } from '../kit/assert.js';
import { CaseInconclusive } from '../kit/errors.js';
import { caseScope } from '../kit/scope.js';

export type RefusedInput = 'profile' | 'delta';

export interface RefusalCause {
  /** One line: `<what> rejected: schema at /metadata/revision`. */
  text: string;
  /** The ID whose case judges the refusal. */
  id: string;
  /** False when the adapter cited nothing that names a rule (the default owner). */
  specific: boolean;
  /**
   * The refusal is of the input's form, not of what a case judges: the adapter could not read it at
   * all (parsing, the schema, the version, the kind, a feature it does not read), or it refused a
   * legal form (an operation's pointer, a digest check of a delta that has none).
   */
  formal: boolean;
  issues: readonly AdapterIssueT[];
}

type Owner = Pick<RefusalCause, 'id' | 'specific' | 'formal'>;

/** Issue categories that name the rule a profile was refused under, with that rule's ID. */
const PROFILE_RULES: Partial<Record<AdapterIssueT['category'], string>> = {
  parse: 'L1-P1',
  'duplicate-key': 'L1-P1',
  limit: 'L1-P2',
  encoding: 'L3-G1',
  schema: 'L1-P2',
  'version-major': 'L1-P3',
  'version-minor': 'L1-P4',
  kind: 'L1-P5',
  'non-finite': 'L3-G2',
  'secret-literal': 'L1-I6',
  'secret-pattern': 'L1-I6',
  'path-escape': 'L1-I5',
  'extends-cycle': 'L3-E1',
  'extends-depth': 'L3-E1',
  'extends-missing': 'L3-E1',
  'digest-mismatch': 'L3-G2',
  'variable-undefined': 'ADV-vars-undefined',
  'env-missing': 'L3-M1',
  'skill-missing': 'L1-I7',
  'store-missing': 'L1-I7',
  'delegation-denied': 'L3-B1',
  'delegation-depth': 'L3-B2',
  'delegation-concurrency': 'L3-B2',
  collision: 'L1-D2',
};

/** Categories that say the document could not be read or validated at all, before any rule of a feature applied. */
const READING: ReadonlySet<AdapterIssueT['category']> = new Set([
  'parse',
  'duplicate-key',
  'limit',
  'encoding',
  'schema',
  'version-major',
  'version-minor',
  'kind',
]);

/** The same for a delta. */
const DELTA_RULES: Partial<Record<AdapterIssueT['category'], string>> = {
  parse: 'L2-A1',
  schema: 'L2-A1',
  kind: 'L2-A1',
  'version-major': 'L2-A1',
  'version-minor': 'L2-A1',
  'delta-reserved-op': 'L2-A1',
  'delta-scope': 'L2-A2',
  'revision-conflict': 'L2-A3',
  'digest-mismatch': 'L2-A4',
  io: 'L2-A12',
};

const DEFAULT_OWNER: Record<RefusedInput, string> = { profile: 'L1-P2', delta: 'L2-A6' };

/**
 * Where a feature lives in a profile: a refusal of a valid document at one of these pointers, that
 * cites no rule of its own (`schema`, `other`), is the feature's (a harness that does not read
 * `extends` refuses it as unknown), not the generic L1-P2's.
 */
const FEATURE_TERRITORY: readonly [RegExp, string][] = [
  [/^\/extends(\/|$)/, 'L3-E1'],
  [/^\/spec\/tools\/mcp_servers(\/|$)/, 'L3-M1'],
  [/^\/spec\/tools\/skills(\/|$)/, 'L3-K1'],
  [/^\/spec\/memory\/stores(\/|$)/, 'L3-Y1'],
  [/^\/spec\/runtime\/subagents(\/|$)/, 'L3-B1'],
];

/** An issue at an operation's path (`/operations/<n>/path`): the pointer itself was not applied. */
const OPERATION_PATH = /^\/operations\/\d+\/path$/;

/**
 * The ID that judges a refusal of a valid `input`, from the adapter's issues: the first issue that
 * names a rule decides. A digest pin of a skill is L3-K1's; an escape of the working directory is
 * ADV-working-directory-escape's (security.md T6; L1-I5 names context.files); an append refused at
 * its path is ADV-pointer-paths' at `/-` (SPEC 6.2 "An applicator MUST support pointer paths"),
 * L2-A14's at `id:<new id>`; a feature's territory (FEATURE_TERRITORY) is the feature's.
 */
export function refusalOwner(input: RefusedInput, issues: readonly AdapterIssueT[], delta?: Record<string, unknown>): Owner {
  for (const issue of issues) {
    if (input === 'profile' && issue.category === 'digest-mismatch' && issue.pointer.startsWith('/spec/tools/skills'))
      return { id: 'L3-K1', specific: true, formal: false };
    // The working directory's escape has no requirement ID of its own (L1-I5 names context.files).
    if (input === 'profile' && issue.category === 'path-escape' && issue.pointer === '/spec/context/working_directory')
      return { id: 'ADV-working-directory-escape', specific: true, formal: false };
    if (input === 'delta' && OPERATION_PATH.test(issue.pointer)) {
      const ops = Array.isArray(delta?.['operations']) ? delta['operations'] : [];
      const op = ops[Number(issue.pointer.split('/')[2])] as { op?: unknown; path?: unknown } | undefined;
      // Only the append forms calibration varies: what a replace or remove was refused for is the
      // operation's (a remove of a missing entry, L2-A13, whatever pointer names it).
      const path = op?.op === 'add' && typeof op.path === 'string' ? op.path : '';
      if (/\/id:[^/]+$/.test(path)) return { id: 'L2-A14', specific: true, formal: true };
      if (path.endsWith('/-')) return { id: 'ADV-pointer-paths', specific: true, formal: true };
    }
    const territory = FEATURE_TERRITORY.find(([at]) => at.test(issue.pointer));
    if (input === 'profile' && territory && (issue.category === 'schema' || issue.category === 'other'))
      return { id: territory[1], specific: true, formal: true };
    // A digest check of a delta that has no digest refuses its form (the zero-target-digest quirk).
    if (input === 'delta' && issue.category === 'digest-mismatch' && !hasDigest(delta))
      return { id: 'L2-A4', specific: true, formal: true };
    const id = (input === 'profile' ? PROFILE_RULES : DELTA_RULES)[issue.category];
    if (id) return { id, specific: true, formal: READING.has(issue.category) };
  }
  return { id: DEFAULT_OWNER[input], specific: false, formal: false };
}

function hasDigest(delta: Record<string, unknown> | undefined): boolean {
  const target = delta?.['target'];
  return typeof target === 'object' && target !== null && 'digest' in target;
}

/** How much of the harness's own message a cause quotes. */
const MESSAGE_CHARS = 120;

/**
 * A one-line root cause from an adapter's issues, each with the harness's own message, which says
 * in its author's words what it objected to: `<what>: schema at /metadata/revision ("metadata.revision
 * is required here"); ...`.
 */
export function issuesCause(what: string, issues: readonly AdapterIssueT[]): string {
  const said = (m: string): string => {
    const line = m.replace(/\s+/g, ' ').trim();
    return line ? ` (${JSON.stringify(line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS - 1)}…` : line)})` : '';
  };
  const shown = issues.slice(0, 3).map((i) => `${i.category} at ${i.pointer || '/'}${said(i.message)}`);
  const more = issues.length > 3 ? ` (+${issues.length - 3} more)` : '';
  return `${what}: ${shown.join('; ') || 'no issue reported'}${more}`;
}

/** A refused valid profile: `control profile rejected: schema at /metadata/revision`, and the ID that judges it. */
export function rejectionCause(what: string, issues: readonly AdapterIssueT[]): RefusalCause {
  return { text: issuesCause(`${what} rejected`, issues), ...refusalOwner('profile', issues), issues };
}

/** A valid delta not applied (rejected, queued, conflict, ...): its outcome, issues, and the ID that judges it. */
export function deltaRefusalCause(
  what: string,
  result: { outcome: string; errors: readonly AdapterIssueT[] },
  delta?: Record<string, unknown>,
): RefusalCause {
  return {
    text: issuesCause(`${what} ${result.outcome}`, result.errors),
    ...refusalOwner('delta', result.errors, delta),
    issues: result.errors,
  };
}

/**
 * The rule (see the top of this file). `role`: the case's `subject`, or a `control` it rests on.
 * Fails with `expected`/`observed` when the refusal is the case's own; else ends the case
 * inconclusive with the cause and its ID.
 */
export function judgeRefusal(r: {
  reason: string;
  cause: RefusalCause;
  role: 'subject' | 'control';
  expected?: unknown;
  observed?: unknown;
}): never {
  const own = caseScope()?.requirements ?? [];
  if (own.includes(r.cause.id) || (r.role === 'subject' && !r.cause.formal))
    fail(
      r.reason,
      r.expected ?? 'accepted',
      r.observed ?? { errors: r.cause.issues.map((i) => ({ category: i.category, pointer: i.pointer })) },
    );
  throw new CaseInconclusive(`${r.reason} (a refusal ${r.cause.id} judges)`, r.cause.text, r.cause.id);
}
