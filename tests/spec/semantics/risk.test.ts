import { describe, expect, it } from 'vitest';
import { type Proposal, proposalRisk, proposalWidens, touchesGuardedSection } from '../../../spec/semantics/index.js';

const PROFILE = {
  spec: {
    tools: { allow: ['read'], deny: ['shell'] },
    permissions: { shell: 'ask', default: 'deny' },
    memory: { mode: 'read_only', scopes: ['project:acme'] },
    runtime: { subagents: { allow: ['linter'] } },
  },
};

describe('guarded sections (SPEC §6.4; INTERPRETATIONS.md, risk)', () => {
  it.each([
    ['/spec/tools/allow/-', true, 'inside spec.tools'],
    ['/spec/permissions', true, 'the section itself'],
    ['/spec/runtime/subagents/allow/-', true, 'inside spec.runtime.subagents'],
    ['/spec/runtime', true, 'a parent of spec.runtime.subagents'],
    ['/spec', true, 'a parent of every guarded section'],
    ['', true, 'the whole document'],
    ['/spec/runtime/max_turns', false, 'runtime outside subagents'],
    ['/spec/role/instructions', false, 'not guarded'],
    ['/metadata/description', false, 'not guarded'],
    ['/spec/toolsx', false, 'whole tokens only'],
  ])('touchesGuardedSection(%j) = %s (%s)', (p, want) => expect(touchesGuardedSection(p)).toBe(want));
});

describe('widening proposals are high risk whatever the document says (L2-A8)', () => {
  it.each([
    [{ path: '/spec/tools/allow/-', op: 'add', value: 'shell', risk: 'low' }, true, 'adds a tool'],
    [{ path: '/spec/tools/allow', op: 'replace', value: ['read', 'web/fetch'], risk: 'low' }, true, 'a superset replace'],
    [{ path: '/spec/permissions/shell', op: 'replace', value: 'allow', risk: 'low' }, true, 'raises a permission'],
    [{ path: '/spec/permissions', op: 'replace', value: { shell: 'allow' }, risk: 'low' }, true, 'replaces the whole section'],
    [{ path: '/spec/memory/scopes/-', op: 'add', value: 'user:global', risk: 'low' }, true, 'adds a scope'],
    [{ path: '/spec/runtime/subagents/allow/-', op: 'add', value: 'deployer', risk: 'medium' }, true, 'adds a subagent'],
    [{ path: '/spec', op: 'replace', value: {}, risk: 'low' }, true, 'a parent operation replaces the guarded sections'],
    [{ path: '/spec/tools/deny/-', op: 'add', value: 'web/fetch', risk: 'low' }, false, 'adds a deny entry'],
    [{ path: '/spec/tools/deny', op: 'replace', value: ['shell', 'edit'], risk: 'low' }, false, 'deny superset'],
    [{ path: '/spec/tools/deny', op: 'replace', value: [], risk: 'low' }, true, 'drops a deny entry'],
    [{ path: '/spec/permissions/shell', op: 'replace', value: 'deny', risk: 'low' }, false, 'lowers a permission'],
    [{ path: '/spec/permissions/edit', op: 'replace', value: 'ask', risk: 'low' }, true, 'edit unset: its default deny is current'],
    [{ path: '/spec/memory/mode', op: 'replace', value: 'off', risk: 'low' }, false, 'lowers the memory mode'],
    [{ path: '/spec/memory/mode', op: 'replace', value: 'read_write', risk: 'low' }, true, 'raises the memory mode'],
    [{ path: '/spec/role/instructions', op: 'replace', value: 'x', risk: 'low' }, false, 'not guarded'],
  ] as Array<[Proposal, boolean, string]>)('%j widens = %s (%s)', (p, widens) => {
    expect(proposalWidens(p, PROFILE)).toBe(widens);
    expect(proposalRisk(p, PROFILE)).toBe(widens ? 'high' : p.risk);
  });

  it('a proposal without risk that widens nothing is medium', () => {
    expect(proposalRisk({ path: '/metadata/description', op: 'replace', value: 'x' }, PROFILE)).toBe('medium');
  });
});
