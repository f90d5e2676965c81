import { describe, expect, it } from 'vitest';
import type { HarnessPolicyT } from '../../../protocol/messages.js';
import { skillStatus, skillsOf, storeModeBound, storesOf, storeUnavailable } from '../../../spec/semantics/index.js';

const MEMORY: Pick<HarnessPolicyT, 'memory'> = {
  memory: {
    mode: 'read_write',
    scopes: [],
    store_kinds: ['oap-state', 'vector'],
    stores: [{ name: 'kb', kind: 'vector', reachable: true }],
  },
};
const D = (n: string): string => `sha256:${n.repeat(64)}`;

describe('memory stores (SPEC §3.7; INTERPRETATIONS.md, memory)', () => {
  it('a store without mode asks for the schema default (memory.stores/store-mode-absent)', () => {
    expect(storesOf({ memory: { stores: [{ name: 'kb', kind: 'vector' }] } })).toEqual([
      { index: 0, name: 'kb', kind: 'vector', mode: 'read_only', required: false },
    ]);
  });

  it.each([
    [{ name: 'state', kind: 'oap-state' }, undefined],
    [{ name: 'kb', kind: 'vector' }, undefined],
    [{ name: 'kb', kind: 'maggraph' }, 'store kind "maggraph" is not implemented by this harness'],
    [{ name: 'other', kind: 'vector' }, 'store "other" (vector) cannot be reached'],
  ])('storeUnavailable(%j) → %s (memory.stores/required-unreachable)', (store, want) => {
    expect(storeUnavailable(store, MEMORY)).toBe(want);
  });

  it.each([
    [{ name: 'kb', mode: 'read_write' }, 'read_only', undefined, 'read_only', 'memory.stores/store-mode-above-section'],
    [{ name: 'kb', mode: 'read_write' }, 'read_write', { name: 'kb', mode: 'read_only' }, 'read_only', 'memory.stores/parent-store-mode'],
    [{ name: 'kb', mode: 'read_write' }, 'read_write', { name: 'other', mode: 'read_write' }, undefined, 'a store the parent lacks'],
  ] as const)('storeModeBound(%j, %s, parent %j) → %s (%s)', (store, section, parentStore, want, _class) => {
    const parent = parentStore ? { mode: 'read_write' as const, scopes: [], stores: [{ ...parentStore, kind: 'vector' }] } : undefined;
    expect(storeModeBound(store, section, parent)).toBe(want);
  });
});

describe('skills (SPEC §3.4; L3-K1; INTERPRETATIONS.md, skills)', () => {
  const installed = [{ name: 'lint', digest: D('1') }, { name: 'bare' }];
  it.each([
    [{ name: 'lint' }, 'present', 'installed, unpinned'],
    [{ name: 'lint', digest: D('1') }, 'present', 'the pin matches'],
    [{ name: 'lint', digest: D('2') }, 'missing', 'skills/pin-mismatch'],
    [{ name: 'bare', digest: D('1') }, 'missing', 'skills/installed-without-digest: a pin that cannot be verified'],
    [{ name: 'Lint' }, 'missing', 'skills/name-case: names are exact'],
    [{ name: 'release' }, 'missing', 'skills/source-never-fetched'],
  ] as Array<[{ name: string; digest?: string }, string, string]>)('skillStatus(%j) → %s (%s)', (skill, want) =>
    expect(skillStatus(skill, installed)).toBe(want),
  );

  it('reads name, digest and required', () => {
    expect(skillsOf({ tools: { skills: [{ name: 'lint', digest: D('1'), required: true }] } })).toEqual([
      { index: 0, name: 'lint', digest: D('1'), required: true },
    ]);
  });
});
