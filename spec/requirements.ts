/**
 * The requirement manifest: every OAP 1.0.1 requirement ID (conformance.md sections 2-4), its level
 * and strength, and a short title in our own words. The runner, the reports and the coverage table
 * all read this one list; the cases that prove each ID are joined in from the suites.
 */
type RequirementId = `L${1 | 2 | 3}-${string}`;
type Strength = 'MUST' | 'SHOULD';

export interface Requirement {
  id: RequirementId;
  level: 1 | 2 | 3;
  strength: Strength;
  area: string;
  title: string;
}

const r = (id: RequirementId, strength: Strength, area: string, title: string): Requirement => ({
  id,
  level: Number(id[1]) as 1 | 2 | 3,
  strength,
  area,
  title,
});

export const REQUIREMENTS: readonly Requirement[] = [
  r('L1-P1', 'MUST', 'parsing', 'Accepts at least one encoding and documents which'),
  r('L1-P2', 'MUST', 'parsing', 'Validates against the profile schema; never instantiates an invalid document'),
  r('L1-P3', 'MUST', 'parsing', 'Rejects an unimplemented oap major version'),
  r('L1-P4', 'MUST', 'parsing', 'Rejects a higher minor version it does not fully implement'),
  r('L1-P5', 'MUST', 'parsing', 'Rejects unknown kind values'),
  r('L1-P6', 'MUST', 'parsing', 'Reports validation errors with a JSON Pointer'),
  r('L1-D1', 'MUST', 'discovery', 'Supports the project discovery root'),
  r('L1-D2', 'MUST', 'discovery', 'Two profiles with one name in one root is an error'),
  r('L1-D3', 'MUST', 'discovery', 'Cross-root collisions resolve by precedence and are reported'),
  r('L1-D4', 'MUST', 'discovery', 'metadata.name wins over the file name (warning recommended)'),
  r('L1-I1', 'MUST', 'instantiation', 'System prompt assembled in the normative order'),
  r('L1-I2', 'MUST', 'instantiation', 'spec.tools.policy applied per the policy table'),
  r('L1-I3', 'MUST', 'instantiation', 'Narrowing: effective never more permissive than local policy alone'),
  r('L1-I4', 'MUST', 'instantiation', 'Trust assigned from the discovery root; file value discarded'),
  r('L1-I5', 'MUST', 'instantiation', 'context.files paths outside the workspace rejected'),
  r('L1-I6', 'MUST', 'instantiation', 'Literal values in MCP env and headers rejected'),
  r('L1-I7', 'MUST', 'instantiation', 'Missing required skill or memory store fails instantiation'),
  r('L1-I8', 'MUST', 'instantiation', 'Session records name, revision and spec digest'),
  r('L1-I9', 'MUST', 'instantiation', 'Every drop, narrowing and substitution recorded with a reason'),
  r('L1-I10', 'MUST', 'instantiation', 'No mid-session reload that changes the effective contract'),
  r('L1-I11', 'MUST', 'instantiation', 'No installs, network writes or file creation during resolution'),
  r('L1-I12', 'MUST', 'instantiation', 'Model resolution rule reported when the exact model is not used'),
  r('L1-R1', 'MUST', 'round-trip', 'Unknown annotations preserved across read/write'),
  r('L1-R2', 'MUST', 'round-trip', 'All annotation values preserved, including JSON-in-string values'),
  r('L2-S1', 'MUST', 'state injection', 'State injected at position 7 of the assembly order'),
  r('L2-S2', 'MUST', 'state injection', 'State labelled untrusted and delimited'),
  r('L2-S3', 'MUST', 'state injection', 'Instruction-like text in state changes no authority'),
  r('L2-S4', 'MUST', 'state injection', 'State budgets: whole entries dropped by eviction, pinned kept, agent told'),
  r('L2-S5', 'MUST', 'state injection', 'No ${{ vars.KEY }} substitution inside state'),
  r('L2-G1', 'MUST', 'delta generation', 'Generated deltas validate against the delta schema'),
  r('L2-G2', 'MUST', 'delta generation', 'target.revision is the instantiated revision'),
  r('L2-G3', 'MUST', 'delta generation', 'Generating a delta does not write the profile'),
  r('L2-G4', 'MUST', 'delta generation', 'Requested contract changes only in proposals'),
  r('L2-G5', 'SHOULD', 'delta generation', 'Operations derived from concrete session evidence'),
  r('L2-A1', 'MUST', 'applicator', 'Delta validated before applying'),
  r('L2-A2', 'MUST', 'applicator', 'Operations outside /state rejected'),
  r('L2-A3', 'MUST', 'applicator', 'Revision mismatch detected; rebase, queue or reject, never blind-write'),
  r('L2-A4', 'MUST', 'applicator', 'target.digest verified when present'),
  r('L2-A5', 'MUST', 'applicator', 'Operations applied atomically'),
  r('L2-A6', 'MUST', 'applicator', 'lifecycle.writeback honoured, default propose'),
  r('L2-A7', 'MUST', 'applicator', 'Proposals never applied without human approval, even under auto'),
  r('L2-A8', 'MUST', 'applicator', 'Widening proposals classified high risk'),
  r('L2-A9', 'MUST', 'applicator', 'Retention enforced at write time'),
  r('L2-A10', 'MUST', 'applicator', 'Revision +1; metadata.updated_at and state.updated_at set'),
  r('L2-A11', 'MUST', 'applicator', 'History entry appended with its fields and trimmed oldest-first'),
  r('L2-A12', 'MUST', 'applicator', 'File written atomically: temp file in same directory, fsync, rename'),
  r('L2-A13', 'MUST', 'applicator', 'remove on a missing path is a warning'),
  r('L2-A14', 'SHOULD', 'applicator', '/state/<collection>/id:<entry-id> pointers supported'),
  r('L3-E1', 'MUST', 'composition', 'extends merge rules, cycles and depth cap'),
  r('L3-E2', 'MUST', 'composition', 'Narrowing applied to the merged result'),
  r('L3-M1', 'MUST', 'mcp', 'stdio and http MCP servers with per-server tool allow/deny'),
  r('L3-M2', 'SHOULD', 'mcp', 'MCP launch from project/imported profiles needs confirmation'),
  r('L3-K1', 'MUST', 'skills', 'Skills supported, digests verified, never installed on load'),
  r('L3-Y1', 'MUST', 'memory', 'An external memory store kind; memory mode and scopes enforced'),
  r('L3-B1', 'MUST', 'delegation', "Subagent intersected with the parent's effective profile"),
  r('L3-B2', 'MUST', 'delegation', 'max_depth and max_concurrent enforced'),
  r('L3-G1', 'MUST', 'encodings', 'All three encodings; instructions in both Markdown places rejected'),
  r('L3-G2', 'MUST', 'digests', 'Profile and spec digests per SPEC 2.2; digest pinning in extends and skills'),
  r('L3-G3', 'MUST', 'discovery', 'Managed, user, project and plugin discovery roots'),
];

export const REQUIREMENT_IDS: ReadonlySet<string> = new Set(REQUIREMENTS.map((q) => q.id));

/**
 * Advisories: MUSTs of the specification that have no conformance requirement ID. The suite checks
 * and reports them (report.json, every format) with the sentence each rests on, but they never gate
 * a claim and never appear in result.json's `passed` or `failed`: only conformance.md can make a
 * requirement of them.
 */
export type AdvisoryId = `ADV-${string}`;

export interface Advisory {
  id: AdvisoryId;
  level: 1 | 2 | 3;
  area: string;
  title: string;
  /** The normative sentence, quoted, with its section. */
  restsOn: string;
}

export const ADVISORIES: readonly Advisory[] = [
  {
    id: 'ADV-vars-role-fields',
    level: 1,
    area: 'instantiation',
    title: '${{ vars.KEY }} substituted in instructions, objectives and constraints alike',
    restsOn:
      'SPEC 3.6: "A harness supporting substitution MUST support ${{ vars.KEY }} in spec.role.instructions, objectives, and constraints"',
  },
  {
    id: 'ADV-vars-undefined',
    level: 1,
    area: 'instantiation',
    title: 'An undefined variable is an error, not an empty string',
    restsOn: 'SPEC 3.6: "Undefined variables are an error, not an empty string." (and SPEC 5.2 step 5)',
  },
  {
    id: 'ADV-delta-redaction',
    level: 2,
    area: 'delta generation',
    title: 'Secret redaction over every value of a generated delta',
    restsOn:
      'security.md T3: "Delta generation MUST run the harness\'s secret-redaction pass over every operation value before the delta is written."',
  },
  {
    id: 'ADV-roundtrip-spec-digest',
    level: 1,
    area: 'round-trip',
    title: 'A read/write cycle leaves the spec digest unchanged',
    restsOn:
      'SPEC 2.3: "metadata and spec are authored by humans. Agents may propose changes to them but MUST NOT apply changes to them." A writer that adds or rewrites spec fields changes the contract a reviewer approved.',
  },
  {
    id: 'ADV-duplicate-keys',
    level: 1,
    area: 'parsing',
    title: 'Documents with duplicate keys are refused',
    restsOn:
      'SPEC 2.1: "All three encodings MUST produce identical logical documents." A duplicate key has no single logical value, so readers disagree on what the document says.',
  },
  {
    id: 'ADV-hostile-parse-time',
    level: 1,
    area: 'parsing',
    title: 'Hostile documents are refused within the per-request timeout',
    restsOn:
      'security.md 1: "an attacker can author a profile that a user will load." A document that makes the resolver run unbounded is a denial of service on every harness that loads it.',
  },
];

export const ADVISORY_IDS: ReadonlySet<string> = new Set(ADVISORIES.map((a) => a.id));

export function isAdvisoryId(id: string): id is AdvisoryId {
  return ADVISORY_IDS.has(id);
}

/** The level of a requirement or advisory ID. */
export function levelOfId(id: string): 1 | 2 | 3 {
  const a = ADVISORIES.find((x) => x.id === id);
  return a ? a.level : requirement(id).level;
}

function requirement(id: string): Requirement {
  const found = REQUIREMENTS.find((q) => q.id === id);
  if (!found) throw new Error(`unknown requirement ID ${id}`);
  return found;
}

/** Required (MUST) IDs at `level` and below: what a level claim needs in `passed`. */
export function requiredIdsUpTo(level: 1 | 2 | 3): string[] {
  return REQUIREMENTS.filter((q) => q.level <= level && q.strength === 'MUST').map((q) => q.id);
}

/** The level a case belongs to: the highest level among the IDs it proves. */
export function caseLevel(c: { readonly requirements: readonly string[] }): 1 | 2 | 3 {
  return Math.max(...c.requirements.map(levelOfId)) as 1 | 2 | 3;
}
