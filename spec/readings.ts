/**
 * Where the reading a verdict rests on is written down, so every failure can link it: each
 * requirement's row in INTERPRETATIONS.md ("Every ID, one reading"), the sections of readings
 * settled apart, and, for a difference in a dimension of the effective contract, the rule that
 * reads it (glob dialect, hosts, roots, ...) with the protocol's policy section, where users read
 * how the policy's names and patterns are compared. The links are relative to the package root,
 * where both files are shipped; tests/spec/readings.test.ts holds every anchor to a heading.
 */
import { isAncestorOrSelf } from './semantics/pointer.js';

const INTERPRETATIONS = 'INTERPRETATIONS.md';
const POLICY = 'protocol/PROTOCOL.md#51-the-harness-policy';

/** Readings settled apart from their ID's row, by ID. */
const OWN_SECTION: Readonly<Record<string, string>> = {
  'ADV-env-same-name': `${INTERPRETATIONS}#a-reference-of-another-name`,
  'L1-I6': `${INTERPRETATIONS}#a-reference-of-another-name`,
};

/** The rule that reads each dimension of an effective contract (contract paths). */
const DIMENSION_READINGS: readonly [string, readonly string[]][] = [
  ['/tools', [`${INTERPRETATIONS}#glob-dialect`, `${INTERPRETATIONS}#tools`, POLICY]],
  ['/hosts', [`${INTERPRETATIONS}#hosts`, POLICY]],
  ['/filesystem', [`${INTERPRETATIONS}#roots`, POLICY]],
  ['/permissions', [`${INTERPRETATIONS}#decisions`]],
  ['/rules', [`${INTERPRETATIONS}#decisions`, POLICY]],
  ['/memory', [`${INTERPRETATIONS}#memory`]],
  ['/budgets', [`${INTERPRETATIONS}#budgets`]],
];

/** The level a requirement or advisory ID belongs to (`L2-A13` → 2; advisories by their listing). */
function levelTable(id: string): string | undefined {
  const level = /^L([1-3])-/.exec(id)?.[1];
  return level ? `${INTERPRETATIONS}#every-id-one-reading-level-${level}` : undefined;
}

/**
 * The readings a failure of these IDs rests on, most specific first: the rule of the contract
 * dimension its first difference is in (when it is a contract path), then each ID's own section or
 * its row of the reading table.
 */
export function readingsOf(requirements: readonly string[], pointer?: string): string[] {
  const out: string[] = [];
  if (pointer !== undefined)
    for (const [dimension, links] of DIMENSION_READINGS) if (isAncestorOrSelf(dimension, pointer)) out.push(...links);
  for (const id of requirements) {
    const own = OWN_SECTION[id];
    if (own) out.push(own);
    const table = levelTable(id);
    if (table) out.push(table);
  }
  return [...new Set(out)];
}
