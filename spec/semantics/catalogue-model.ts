/**
 * The shape of the boundary catalogue (issue 20 part 2). The method that fills it is written once,
 * in ./catalogue.ts; this module holds only the types every `<rule>.catalogue.ts` is written in and
 * the two helpers they share.
 */

/** The standard families every dimension is worked through, in this order. */
export const FAMILIES = ['presence', 'numeric', 'text', 'separators', 'wildcards', 'escaping', 'duplicates', 'order', 'links'] as const;
export type Family = (typeof FAMILIES)[number];

/** What each family asks of a field (the questions of the method, ./catalogue.ts). */
export const FAMILY_QUESTIONS: Readonly<Record<Family, string>> = {
  presence: 'absent, null, empty (list, object, string), and the schema default, on each side',
  numeric: '0, 1, the schema bounds and one past, 2^31, 2^53 - 1, negative, fractional, -0',
  text: 'letter case, non-ASCII (NFC/NFD, IDNA), astral characters, whitespace, line breaks, YAML 1.1 words',
  separators: 'trailing and doubled separators (`/`, `.`, `:`), leading `./`, `\\`, a prefix that is not a whole segment',
  wildcards: '`*`, `**`, `?`, classes, `*.domain`, a glob next to the literal of the same text',
  escaping: 'RFC 6901 `~0`/`~1`, percent-encoding, JSON and HTML escapes, YAML quoting',
  duplicates: 'the same value twice in one list, on both sides, and a key written twice',
  order: 'list order, first match wins, left to right, ties, and which side takes precedence',
  links: 'symlinks, `extends` references, `id:` pointers, names that refer to another document or session',
};

/**
 * The sides a rule reads, each a document of its own:
 * - `profile`: the AgentProfile instantiated (the child, when delegating; the derived layer, with `extends`);
 * - `policy`: the protocol's HarnessPolicy (protocol/messages.ts);
 * - `parent`: the parent session's EffectiveContract, the ceiling of a subagent (SPEC §3.8);
 * - `base`: an AgentProfile named in `extends` (SPEC §4);
 * - `root`: a discovery root and the files in it (SPEC §5.1), pointers into the protocol's `roots`;
 * - `delta`: an AgentStateDelta; `document`: the profile it applies to (SPEC §5.6);
 * - `params`: other protocol parameters a rule reads (`approval`, `now`, `evidence`).
 */
export const SIDES = ['profile', 'policy', 'parent', 'base', 'root', 'delta', 'document', 'params'] as const;
export type Side = (typeof SIDES)[number];

/** The meeting points of issue 20: where two sides' values meet and one rule combines them. */
export const MEETING_POINTS = {
  'profile-policy': ['profile', 'policy'],
  'parent-child': ['parent', 'profile'],
  'base-derived': ['base', 'profile'],
  'root-root': ['root', 'root'],
  'delta-document': ['delta', 'document'],
} as const satisfies Record<string, readonly [Side, Side]>;
type MeetingPoint = keyof typeof MEETING_POINTS;

/**
 * One representative input: `"<side>:<pointer>"` → the value there (`undefined` = the field is
 * absent). Pointers are RFC 6901 into that side's document; a key that is the pointer alone
 * (`"profile:/spec/tools"`) gives that whole member.
 */
export type Sample = Readonly<Record<string, unknown>>;

export interface EquivalenceClass {
  /** `<dimension>/<slug>`, unique in the catalogue. */
  id: string;
  family: Family;
  description: string;
  /** Boundary or representative values, deterministic (generated from a written seed where the class is a range). */
  values: readonly Sample[];
  /** What the rule predicts for every value of the class, in words: the most permissive answer the spec allows. */
  predicts: string;
  /** The classes across its boundaries ("what is next to it"), by id. */
  next: readonly string[];
  /** The profile-side values are refused by the schema before the rule sees them (L1-P2). */
  schemaInvalid: boolean;
  /** Why the class is deliberately not turned into a case, when it is not. */
  exclusion?: string | undefined;
  /**
   * Hand-written cases (suites/level-1, level-2, level-3) that submit a value of this class and
   * judge its prediction, by case ID: they observe the class where no generated case does.
   */
  observedBy: readonly string[];
}

export interface Dimension {
  /** A dotted name, unique in the catalogue. */
  id: string;
  title: string;
  /** Where the rule that reads the fields lives (a spec/semantics module, or the harness/suite still holding it). */
  rule: string;
  /** The requirement or advisory IDs the dimension is judged under. */
  requirements: readonly string[];
  /** The fields read on each side, as pointers (`*` = every item or free key). */
  reads: Readonly<Partial<Record<Side, readonly string[]>>>;
  meets: readonly MeetingPoint[];
  classes: readonly EquivalenceClass[];
  /** For each family without classes, why it does not apply to this dimension. */
  notApplicable: Readonly<Partial<Record<Family, string>>>;
}

/** A class as written in a catalogue module, before the dimension gives it its id and family. */
interface ClassSpec {
  slug: string;
  description: string;
  values: readonly Sample[];
  predicts: string;
  next?: readonly string[];
  schemaInvalid?: boolean;
  exclusion?: string;
  observedBy?: readonly string[];
}

export interface DimensionSpec {
  id: string;
  title: string;
  rule: string;
  requirements: readonly string[];
  reads: Readonly<Partial<Record<Side, readonly string[]>>>;
  meets: readonly MeetingPoint[];
  /** Every family, either with its classes or with the reason it does not apply. */
  families: Readonly<Record<Family, readonly ClassSpec[] | string>>;
}

/** A dimension from its spec: class ids are `<dimension>/<slug>`, `next` slugs resolved in the same dimension. */
export function dimension(spec: DimensionSpec): Dimension {
  const qualify = (ref: string): string => (ref.includes('/') ? ref : `${spec.id}/${ref}`);
  const classes: EquivalenceClass[] = [];
  const notApplicable: Partial<Record<Family, string>> = {};
  for (const family of FAMILIES) {
    const entry = spec.families[family];
    if (typeof entry === 'string') {
      notApplicable[family] = entry;
      continue;
    }
    for (const c of entry) {
      classes.push({
        id: `${spec.id}/${c.slug}`,
        family,
        description: c.description,
        values: c.values,
        predicts: c.predicts,
        next: (c.next ?? []).map(qualify),
        schemaInvalid: c.schemaInvalid ?? false,
        exclusion: c.exclusion,
        observedBy: c.observedBy ?? [],
      });
    }
  }
  return {
    id: spec.id,
    title: spec.title,
    rule: spec.rule,
    requirements: spec.requirements,
    reads: spec.reads,
    meets: spec.meets,
    classes,
    notApplicable,
  };
}

/**
 * `count` integers in [lo, hi] from the written `seed` (a 32-bit xorshift): the representatives
 * of a class that is a range. The same seed gives the same values in every run.
 */
export function sampleRange(seed: number, count: number, lo: number, hi: number): number[] {
  let x = seed >>> 0 || 1;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out.push(lo + (x % (hi - lo + 1)));
  }
  return out;
}
