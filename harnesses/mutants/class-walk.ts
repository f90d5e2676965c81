/**
 * Issue 20: mutants for the catalogue classes that waited longest for their case (the classes that
 * left `AWAITING_CASE` in tests/catalogue-coverage.test.ts). Each is one realistic defect at the
 * edge of one class, in one rule of the reference's table; MUTANTS.md has a row for each, naming the
 * class it came from and the IDs it must fail.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_MAX_HISTORY, type MemoryMode, trustOfRoot } from '../../spec/semantics/index.js';
import { isObject, type JsonObject } from '../reference/json.js';
import type { Risk } from '../reference/rules.js';
import { type Mutant, mutant } from './mutant.js';

/** The risk a proposal's document states (`medium` when it states none): what an unclassified proposal keeps. */
const documentRisk = (proposal: JsonObject): Risk => (proposal['risk'] as Risk | undefined) ?? 'medium';

export const CLASS_WALK_MUTANTS: readonly Mutant[] = [
  mutant(
    'risk-op-absent-unclassified',
    'proposalRisk',
    (reference) => (proposal, doc) => (proposal['op'] === undefined ? documentRisk(proposal) : reference(proposal, doc)),
    ['L2-A8'],
    "The classifier switches on a proposal's `op` with no default branch: a proposal without `op` (the default replace) keeps the document's risk.",
  ),
  mutant(
    'risk-subagent-limits-unguarded',
    'proposalRisk',
    (reference) => (proposal, doc) =>
      /^\/spec\/runtime\/subagents\/max_(depth|concurrent)$/.test(String(proposal['path']))
        ? documentRisk(proposal)
        : reference(proposal, doc),
    ['L2-A8'],
    "Only the names under spec.runtime.subagents are guarded: raising `max_depth` or `max_concurrent` keeps the document's risk.",
  ),
  mutant(
    'risk-allow-pattern-not-a-tool',
    'proposalRisk',
    (reference) => (proposal, doc) =>
      /^\/spec\/tools\/allow\/(-|\d+)$/.test(String(proposal['path'])) &&
      typeof proposal['value'] === 'string' &&
      /[*?[]/.test(proposal['value'])
        ? documentRisk(proposal)
        : reference(proposal, doc),
    ['L2-A8'],
    "An entry added to tools.allow widens only when it names a tool: a pattern (`*`, `mcp/x/*`) is not looked up as one and keeps the document's risk.",
  ),
  mutant(
    'risk-remove-never-widens',
    'proposalRisk',
    (reference) => (proposal, doc) => (proposal['op'] === 'remove' ? documentRisk(proposal) : reference(proposal, doc)),
    ['L2-A8'],
    "A `remove` proposal is read as narrowing: removing an entry of tools.deny keeps the document's risk.",
  ),
  mutant(
    'current-revision-absent-as-0',
    'currentRevision',
    () => (metadata) => (typeof metadata['revision'] === 'number' ? metadata['revision'] : 0),
    ['L2-A10'],
    'The applicator reads an absent `metadata.revision` as 0, not its default 1: a delta targeting revision 1 is a conflict (rebased when it only appends) and the profile is written at revision 1.',
  ),
  mutant(
    'history-cap-over-255-ignored',
    'keptHistory',
    (reference) => (history, retention) =>
      reference(history, {
        ...retention,
        max_history: (retention.max_history ?? DEFAULT_MAX_HISTORY) > 255 ? DEFAULT_MAX_HISTORY : retention.max_history,
      }),
    ['L2-A11'],
    'A `max_history` above what the history buffer holds (255, one byte) is ignored as out of range and the default 50 applies: the schema maximum 500 trims history to 50.',
  ),
  mutant(
    'trust-unset-when-file-silent',
    'assignTrust',
    () => (rootTrust, fileTrust) => (fileTrust === undefined ? 'imported' : rootTrust),
    ['L1-I4'],
    "The root's label overwrites a `trust` the file states; a file stating none keeps none and is treated as imported.",
  ),
  mutant(
    'trust-of-first-root-defining-name',
    'winnerTrust',
    () => (winner, definedIn) => trustOfRoot(definedIn[0] ?? winner),
    ['L1-I4'],
    'Trust is recorded for a name where discovery first sees it (the managed root is searched first), the definition where it last sees it: a project file shadowing a managed one runs as managed.',
  ),
  mutant(
    'subagent-allow-inherited',
    'delegationAllowList',
    () => (lists) => [...new Set(lists.flat())],
    ['L3-B1'],
    "A subagent inherits its ancestors' allow lists and adds its own: it may delegate to a name only its parent lists.",
  ),
  mutant(
    'subagent-depth-own-limit-only',
    'exceedsDelegationDepth',
    () => (levels, maxDepth) => levels === 1 && levels > maxDepth,
    ['L3-B2'],
    "Each session checks only its own `max_depth`, one level below itself: an ancestor's limit does not bind its subtree, so the subagent of a lead with `max_depth: 1` delegates again.",
  ),
  mutant(
    'subagent-depth-zero-unlimited',
    'exceedsDelegationDepth',
    () => (levels, maxDepth) => Boolean(maxDepth) && levels > maxDepth,
    ['L3-B2'],
    'The depth check is guarded by `if (maxDepth)`: a `max_depth` of 0 is falsy and means no limit.',
  ),
  mutant(
    'subagent-concurrency-zero-unlimited',
    'delegationConcurrencyAllowed',
    () => (live, maxConcurrent) => !maxConcurrent || live < maxConcurrent,
    ['L3-B2'],
    'The concurrency check is guarded by `if (maxConcurrent)`: a `max_concurrent` of 0 is falsy and means no limit.',
  ),
  mutant(
    'subagent-store-mode-from-parent-section',
    'subagentCeiling',
    (reference) => (parent) => {
      const ceiling = reference(parent);
      const mode = parent.effective.memory.mode;
      return { ...ceiling, memory: { ...ceiling.memory, stores: parent.effective.memory.stores.map((s) => ({ name: s.name, mode })) } };
    },
    ['L3-B1'],
    "A subagent's ceiling lists the parent's stores under the parent's memory section mode, not each store's own effective mode: a store the parent holds read_only is read_write for a read_write child.",
  ),
  mutant(
    'memory-mode-yaml11-off',
    'memoryMode',
    (reference) => (requested, ceiling, ctx) => {
      if (ctx.encoding !== 'yaml') return reference(requested, ceiling, ctx);
      // The memory section is read again with a YAML 1.1 reader: an unquoted `off` is false, not a mode.
      const doc = parseYaml(readFileSync(ctx.path, 'utf8'), { version: '1.1' }) as unknown;
      const spec = isObject(doc) ? doc['spec'] : undefined;
      const memory = isObject(spec) ? spec['memory'] : undefined;
      if (!isObject(memory) || !('mode' in memory)) return reference(requested, ceiling, ctx);
      return reference(typeof memory['mode'] === 'string' ? (memory['mode'] as MemoryMode) : undefined, ceiling, ctx);
    },
    ['L1-I3', 'L3-Y1'],
    'The memory section of a YAML profile is read with YAML 1.1 booleans, so an unquoted `mode: off` is false and the schema default read_only applies.',
  ),
];
