import { describe, expect, it } from 'vitest';
import { classCoverageRows } from '../runner/coverage.js';
import { allCases } from '../suites/index.js';

/**
 * Classes of the boundary catalogue that no generated case covers, no hand-written case observes
 * (EquivalenceClass.observedBy) and no exclusion explains yet, by dimension: each waits for the
 * driver of its rule (suites/catalogue) or a hand-written case. The list only shrinks: a class that
 * gets its case, or an exclusion with its reason, must leave it.
 */
const AWAITING_CASE: Readonly<Record<string, readonly string[]>> = {
  'context.files.path': ['dot-and-empty', 'unicode-name', 'dotdot-escape', 'dotdot-inside', 'absolute', 'backslash-dotdot', 'symlink-out'],
  'context.working_directory': [
    'dot-and-empty',
    'unicode-name',
    'dotdot-escape',
    'dotdot-inside',
    'absolute',
    'backslash-dotdot',
    'symlink-out',
  ],
  'memory.mode': ['yaml-off'],
  'memory.stores': ['parent-store-mode'],
  'subagents.allow': ['grandchild-not-in-child-list'],
  'subagents.limits': [
    'profile-silent',
    'depth-edges',
    'concurrency-edges',
    'policy-zero',
    'smaller-side-wins',
    'top-level-limit-binds-tree',
  ],
  'runtime.mode': ['absent-is-either'],
  'mcp.secrets': ['empty-value', 'variable-unset', 'literal', 'trailing-newline', 'reference-with-suffix', 'bare-dollar', 'other-name'],
  'mcp.servers': ['transports', 'no-tools-section', 'per-server-names', 'server-star-in-allow', 'per-server-deny-over-allow'],
  skills: ['required-missing', 'pin-mismatch', 'source-never-fetched'],
  'context.variables': ['undefined', 'defined-empty', 'spacing', 'role-fields', 'in-state'],
  'prompt.sections': [
    'instructions-only',
    'empty-supplements',
    'gaps',
    'contradicting-constraints',
    'persona-only-language',
    'same-text-in-two-steps',
    'all-steps',
  ],
  'state.delimiting': ['empty-state', 'closer-case', 'line-breaks', 'mid-line', 'pre-escaped', 'close-open-pair', 'every-entry-kind'],
  'discovery.names': ['malformed-sibling', 'file-name-differs'],
  'metadata.trust': ['no-trust-in-file', 'outside-every-root', 'file-claims-more', 'shadowed-winner'],
  'document.version': ['other-major', 'yaml-number', 'delta-and-profile-versions'],
  'extends.chain': ['pins'],
  'delta.target': ['digest-absent', 'document-revision-absent', 'revision-off-by-one', 'digest-over-file-bytes'],
  'delta.operations': ['failure-last', 'result-invalid'],
  'retention.max_history': ['absent-is-50', 'zero', 'one', 'schema-maximum', 'oldest-first'],
  'writeback.mode': [
    'absent-is-propose',
    'yaml-off',
    'annotation-named-writeback',
    'propose-unapproved',
    'off-approved',
    'proposals-under-auto',
  ],
  'proposal.risk': [
    'op-absent',
    'subagent-limits-raised',
    'parent-of-guarded',
    'glob-added-to-allow',
    'remove-from-deny',
    'raise-decision',
    'memory-scope-added',
  ],
};

describe('the boundary catalogue in COVERAGE.md', () => {
  const rows = classCoverageRows();

  it('every class is covered by a generated case, observed by a hand-written one or excluded with a reason, but those awaiting their case', () => {
    const none = rows.filter((r) => r.cases.length + r.observedBy.length === 0 && r.exclusion === undefined).map((r) => r.classId);
    expect(none).toEqual(Object.entries(AWAITING_CASE).flatMap(([d, slugs]) => slugs.map((s) => `${d}/${s}`)));
  });

  it('names only cases the suite runs', () => {
    const ids = new Set(allCases().map((c) => c.id));
    expect(rows.flatMap((r) => r.cases).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('names only hand-written cases the suite runs, and none a generated case', () => {
    const ids = new Set(allCases().map((c) => c.id));
    const generated = new Set(rows.flatMap((r) => r.cases));
    const named = rows.flatMap((r) => r.observedBy.map((id) => ({ classId: r.classId, id })));
    expect(named.filter((n) => !ids.has(n.id))).toEqual([]);
    expect(named.filter((n) => generated.has(n.id))).toEqual([]);
  });
});
