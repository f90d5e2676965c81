/**
 * Boundary catalogue of proposal risk (rule: ./risk.ts proposalRisk; SPEC §6.4; L2-A8).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const pr = (path: string, op: 'add' | 'replace' | 'remove', value?: unknown, risk: string = 'low') => ({
  'delta:/proposals/0': { path, op, ...(value === undefined ? {} : { value }), rationale: 'r', risk },
});

export const RISK_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'proposal.risk',
    title: 'The risk an applicator reports for a proposal',
    rule: 'spec/semantics/risk.ts proposalRisk',
    requirements: ['L2-A8'],
    reads: { delta: ['/proposals/0'], document: ['/spec'] },
    meets: ['delta-document'],
    families: {
      presence: [
        {
          slug: 'risk-absent',
          description: 'a non-widening proposal without `risk`',
          values: [{ 'delta:/proposals/0': { path: '/metadata/description', op: 'replace', value: 'd', rationale: 'r' } }],
          predicts: "medium (or the applicator's own reading); never judged",
          exclusion: 'the spec fixes only "high" for widening proposals',
        },
        {
          slug: 'op-absent',
          observedBy: ['L2-A8/widening-proposals-high-risk'],
          description: 'a widening proposal without `op` (default replace)',
          values: [{ 'delta:/proposals/0': { path: '/spec/permissions/shell', value: 'allow', rationale: 'r', risk: 'low' } }],
          predicts: 'high',
        },
      ],
      numeric: [
        {
          slug: 'subagent-limits-raised',
          observedBy: ['L2-A8/widening-proposals-high-risk'],
          description: 'raising runtime.subagents.max_depth or max_concurrent',
          values: [pr('/spec/runtime/subagents/max_depth', 'replace', 8)],
          predicts: 'high: spec.runtime.subagents widens',
        },
      ],
      text: 'paths and values are compared as JSON, not as text',
      separators: [
        {
          slug: 'parent-of-guarded',
          observedBy: ['L2-A8/parent-replacing-proposals-high-risk'],
          description: 'a proposal on `/spec` or `/spec/runtime` whose value widens a guarded section',
          values: [
            pr('/spec/runtime', 'replace', { subagents: { allow: ['x'] } }),
            pr('/spec', 'replace', { role: { instructions: 'x' }, tools: { allow: ['shell'] } }),
          ],
          predicts: 'high: replacing a parent replaces the section',
        },
        {
          slug: 'segment-prefix',
          description: '`/spec/toolsx` and `/spec/tools~1x`: not the tools section',
          values: [pr('/spec/toolsx', 'replace', 1, 'medium')],
          predicts: "the document's risk (the path names no guarded section)",
          exclusion: 'schema-valid but names no field of a profile; the risk of a meaningless proposal is not judged',
        },
      ],
      wildcards: [
        {
          slug: 'glob-added-to-allow',
          observedBy: ['L2-A8/widening-proposals-high-risk'],
          description: 'adding `*` or `mcp/x/*` to tools.allow',
          values: [pr('/spec/tools/allow/-', 'add', '*')],
          predicts: 'high',
        },
      ],
      escaping: 'pointer escapes are decoded before the section is compared (delta.operation-path)',
      duplicates: [
        {
          slug: 'replace-with-same',
          description: 'replacing a permission with the value it already has',
          values: [pr('/spec/permissions/shell', 'replace', 'deny')],
          predicts: "not widening: the document's risk may stand (the reference reads it as narrowing)",
          exclusion: 'judges ask for high only of proposals that widen under any reading',
        },
      ],
      order: [
        {
          slug: 'remove-from-deny',
          observedBy: ['L2-A8/widening-proposals-high-risk'],
          description: 'removing an entry of tools.deny, and replacing deny with a subset',
          values: [pr('/spec/tools/deny/0', 'remove'), pr('/spec/tools/deny', 'replace', [])],
          predicts: 'high: fewer denies widen',
        },
        {
          slug: 'raise-decision',
          observedBy: ['L2-A8/widening-proposals-high-risk'],
          description: 'a decision raised (deny → allow) and lowered',
          values: [pr('/spec/permissions/shell', 'replace', 'allow')],
          predicts: "high when raised; the document's risk when lowered",
        },
      ],
      links: [
        {
          slug: 'memory-scope-added',
          observedBy: ['L2-A8/widening-proposals-high-risk'],
          description: 'adding a memory scope or a store',
          values: [pr('/spec/memory/scopes/-', 'add', 'user:global'), pr('/spec/memory/stores/-', 'add', { name: 's', kind: 'vector' })],
          predicts: 'high',
        },
      ],
    },
  }),
];
