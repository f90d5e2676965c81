/**
 * The boundary catalogue (issue 20 part 2): for every field of the profile schema, the delta
 * schema and the protocol's HarnessPolicy that a semantic rule reads, its equivalence classes on
 * both sides of every meeting point, written as data beside the rule (`<rule>.catalogue.ts`).
 * Fixed cases are to be generated from it, the fuzz generators to draw from the same classes, and
 * COVERAGE.md to show each class with its case IDs or its exclusion; `coverageRows` is what that
 * table needs.
 *
 * THE METHOD (docs/CATALOGUE.md says the same for readers outside the code)
 *
 * 1. Dimensions. A dimension is one effective value a rule computes (the shell decision, the
 *    reachable hosts, the fact cap) with the fields the rule reads for it, on each side: the
 *    profile (the child when delegating, the derived layer with `extends`), the harness policy,
 *    the parent's effective contract, a base layer, a discovery root, a delta and the document it
 *    applies to. Where the rule has a twin on another side (a profile list and the policy list of
 *    the same thing), both are in `reads` and the dimension names the meeting point(s) in `meets`.
 * 2. Families. Each dimension is worked through the nine families of catalogue-model.ts FAMILIES,
 *    in order, asking each family's questions (FAMILY_QUESTIONS) of every field read, on every
 *    side. A family either yields classes or gets a written reason why it does not apply ("a
 *    decision is one enum word"); a family is never left out silently.
 * 3. Partition. Within a family, split the inputs into classes the rule treats alike (equivalence
 *    partitioning), then put a class on each side of every boundary (boundary values): for a class,
 *    ask "what is next to it?" - on the other side of the intersection (policy as well as profile,
 *    child as well as parent, base as well as derived), one past the bound, the empty list next to
 *    the absent field, a glob next to the literal of the same text, another letter case, a
 *    trailing dot or slash, a non-ASCII spelling, a duplicate, the reverse order. Write the
 *    neighbour down as its own class and link the two with `next`.
 * 4. Values. Each class carries representative values as samples keyed `<side>:<pointer>`, on the
 *    boundary where it has one. Values are fixed; a class that is a range draws them from a seed
 *    written in the module (catalogue-model.ts sampleRange), so every run sees the same ones.
 *    `<side>:source` holds document text where the class is about the text (a YAML word).
 * 5. Predictions. Each class says in words what the rule predicts: the most permissive answer the
 *    spec allows (a harness may be stricter wherever the spec leaves room, INTERPRETATIONS.md).
 *    A class whose profile value the schema refuses is marked `schemaInvalid` (its prediction is
 *    the refusal, L1-P2); the grammar edges themselves are spec/document/schema-bounds.ts's.
 * 6. Exclusions. A class that must not become a case says why in `exclusion`: the spec leaves it
 *    open, no requirement ID reads it, or it is a grammar bound generated elsewhere. Nothing is
 *    dropped without a reason.
 * 7. Completeness. Every field of the two OAP schemas and of HarnessPolicy is either read by a
 *    dimension or listed in UNREAD_FIELDS with the reason no semantic rule reads it;
 *    tests/spec/catalogue.test.ts fails on a field that is neither, on a sample the schema
 *    treats otherwise than the class says, and on a dangling `next`.
 *
 * Rules the spec model does not hold yet (delegation, discovery, merge, MCP, skills, stores, delta
 * application, variables, hooks) have their catalogue here all the same; each module's comment
 * says where the rule lives today.
 */
import { BUDGET_CATALOGUE } from './budget.catalogue.js';
import type { Dimension, EquivalenceClass, Family } from './catalogue-model.js';
import { DECISION_CATALOGUE } from './decision.catalogue.js';
import { DELEGATION_CATALOGUE } from './delegation.catalogue.js';
import { DELIMITING_CATALOGUE } from './delimiting.catalogue.js';
import { DELTA_CATALOGUE } from './delta.catalogue.js';
import { DISCOVERY_CATALOGUE } from './discovery.catalogue.js';
import { GLOB_CATALOGUE } from './glob.catalogue.js';
import { HOOKS_CATALOGUE } from './hooks.catalogue.js';
import { HOST_CATALOGUE } from './host.catalogue.js';
import { MCP_CATALOGUE } from './mcp.catalogue.js';
import { MEMORY_CATALOGUE } from './memory.catalogue.js';
import { MERGE_CATALOGUE } from './merge.catalogue.js';
import { MODEL_CATALOGUE } from './model.catalogue.js';
import { NARROWING_CATALOGUE } from './narrowing.catalogue.js';
import { PATH_CATALOGUE } from './path.catalogue.js';
import { PERMISSION_RULES_CATALOGUE } from './permission-rules.catalogue.js';
import { POINTER_CATALOGUE } from './pointer.catalogue.js';
import { PROMPT_ORDER_CATALOGUE } from './prompt-order.catalogue.js';
import { RETENTION_CATALOGUE } from './retention.catalogue.js';
import { RISK_CATALOGUE } from './risk.catalogue.js';
import { SKILLS_CATALOGUE } from './skills.catalogue.js';
import { STORES_CATALOGUE } from './stores.catalogue.js';
import { TOOLS_CATALOGUE } from './tools.catalogue.js';
import { VARIABLES_CATALOGUE } from './variables.catalogue.js';
import { VERSION_CATALOGUE } from './version.catalogue.js';
import { WRITEBACK_CATALOGUE } from './writeback.catalogue.js';

/** Every dimension, grouped as the rule modules are (instantiation first, then the write path, then composition). */
export const CATALOGUE: readonly Dimension[] = [
  ...DECISION_CATALOGUE,
  ...PERMISSION_RULES_CATALOGUE,
  ...TOOLS_CATALOGUE,
  ...GLOB_CATALOGUE,
  ...HOST_CATALOGUE,
  ...PATH_CATALOGUE,
  ...MEMORY_CATALOGUE,
  ...STORES_CATALOGUE,
  ...BUDGET_CATALOGUE,
  ...MODEL_CATALOGUE,
  ...NARROWING_CATALOGUE,
  ...DELEGATION_CATALOGUE,
  ...MCP_CATALOGUE,
  ...SKILLS_CATALOGUE,
  ...VARIABLES_CATALOGUE,
  ...HOOKS_CATALOGUE,
  ...PROMPT_ORDER_CATALOGUE,
  ...DELIMITING_CATALOGUE,
  ...DISCOVERY_CATALOGUE,
  ...VERSION_CATALOGUE,
  ...MERGE_CATALOGUE,
  ...POINTER_CATALOGUE,
  ...DELTA_CATALOGUE,
  ...RETENTION_CATALOGUE,
  ...WRITEBACK_CATALOGUE,
  ...RISK_CATALOGUE,
];

/**
 * Fields no semantic rule reads, by side and pointer (`*` = every item or free key), each with the
 * reason. Their grammar is still bounded (spec/document/schema-bounds.ts) and judged under L1-P2.
 */
export const UNREAD_FIELDS: ReadonlyArray<{ side: 'profile' | 'delta' | 'policy'; pointers: readonly string[]; reason: string }> = [
  {
    side: 'profile',
    pointers: [
      '/kind',
      '/metadata/id',
      '/metadata/display_name',
      '/metadata/description',
      '/metadata/created_at',
      '/metadata/updated_at',
      '/metadata/authors',
      '/metadata/tags',
      '/metadata/license',
      '/metadata/homepage',
    ],
    reason:
      'identity and bookkeeping: copied, digested (L1-I8, L3-G2) and bumped by the applicator (L2-A10), never compared with another side; `kind` is the document rule of L1-P5',
  },
  {
    side: 'profile',
    pointers: ['/metadata/annotations'],
    reason: 'preserved byte for byte (L1-R1/R2), never interpreted: a round-trip property of the writer, not a rule combining sides',
  },
  {
    side: 'profile',
    pointers: ['/spec/model/parameters', '/spec/model/fallbacks/*/provider', '/spec/model/fallbacks/*/id'],
    reason:
      'parameters are advisory (SPEC §3.3: dropped with a warning, no requirement ID); fallback members are read as whole entries by model.resolution',
  },
  {
    side: 'profile',
    pointers: [
      '/spec/context/files/*/mode',
      '/spec/context/files/*/max_bytes',
      '/spec/context/files/*/description',
      '/spec/context/documents',
    ],
    reason:
      'how context is loaded and labelled: no requirement ID judges it (documents being untrusted is a MUST without an ID, not observable through the protocol)',
  },
  {
    side: 'profile',
    pointers: ['/spec/tools/skills/*/source'],
    reason: 'never fetched (skills/source-never-fetched reads it as a whole entry)',
  },
  {
    side: 'profile',
    pointers: [
      '/spec/memory/stores/*/uri',
      '/spec/tools/mcp_servers/*/args',
      '/spec/tools/mcp_servers/*/command',
      '/spec/tools/mcp_servers/*/url',
    ],
    reason: 'locations handed to the store or server as written; no rule compares them',
  },
  {
    side: 'profile',
    pointers: ['/state/revision', '/state/updated_at', '/state/metrics'],
    reason: 'state bookkeeping: set by the applicator (L2-A10) and rendered as untrusted text, never compared with another side',
  },
  {
    side: 'profile',
    pointers: [
      '/history/*/by',
      '/history/*/session_id',
      '/history/*/harness',
      '/history/*/change',
      '/history/*/approved_by',
      '/history/*/sections',
    ],
    reason: 'written by the applicator (L2-A11) from the delta and the approval; no rule reads them back',
  },
  {
    side: 'delta',
    pointers: ['/kind', '/target/id', '/session', '/summary', '/operations/*/reason', '/operations/*/confidence', '/proposals/*/rationale'],
    reason: 'carried into history or review, never combined with the document by a rule (`kind` is the document rule of L2-A1)',
  },
];

/** One row of the coverage table (dimension by class), before the cases exist. */
export interface CoverageRow {
  dimension: string;
  requirements: readonly string[];
  family: Family;
  classId: string;
  description: string;
  /** The reason the class is deliberately not a case, when it is not. */
  exclusion: string | undefined;
  /** The hand-written cases that observe the class (EquivalenceClass.observedBy). */
  observedBy: readonly string[];
}

/** The rows a COVERAGE.md table of classes needs: every class, and for each family a dimension skips, why. */
export function coverageRows(): CoverageRow[] {
  return CATALOGUE.flatMap((d) => [
    ...d.classes.map((c: EquivalenceClass) => ({
      dimension: d.id,
      requirements: d.requirements,
      family: c.family,
      classId: c.id,
      description: c.description,
      exclusion: c.exclusion,
      observedBy: c.observedBy,
    })),
    ...Object.entries(d.notApplicable).map(([family, reason]) => ({
      dimension: d.id,
      requirements: d.requirements,
      family: family as Family,
      classId: `${d.id}/${family}:not-applicable`,
      description: `family ${family} does not apply`,
      exclusion: reason,
      observedBy: [],
    })),
  ]);
}
