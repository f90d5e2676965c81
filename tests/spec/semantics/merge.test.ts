import { describe, expect, it } from 'vitest';
import { composeProfile, mergeLayers, mergeValue } from '../../../spec/semantics/index.js';

describe('the extends merge (SPEC §4; INTERPRETATIONS.md, L3-E1)', () => {
  it.each([
    [{ a: { b: 1, c: 2 } }, { a: { c: 3 } }, { a: { b: 1, c: 3 } }, 'rule 1: objects deep-merge, the child wins'],
    [{ a: ['read', 'search'] }, { a: ['read'] }, { a: ['read'] }, 'rule 2: arrays replace'],
    [{ a: { b: 1 } }, { a: null }, {}, 'rule 3: null deletes'],
    [{ a: 1 }, { a: { b: 2 } }, { a: { b: 2 } }, 'a scalar replaced by an object'],
  ] as Array<[unknown, unknown, unknown, string]>)('mergeValue(%j, %j) = %j (%s)', (base, child, want) =>
    expect(mergeValue(base, child)).toEqual(want),
  );

  it('identity and learned material come from the child alone', () => {
    const base = { metadata: { name: 'b', revision: 5, trust: 'managed' }, spec: { x: 1 }, state: { summary: 's' }, history: [] };
    const child = { metadata: { name: 'c' }, spec: { y: 2 }, extends: [{ name: 'b' }] };
    expect(mergeLayers([base], child)).toEqual({ metadata: { name: 'c' }, spec: { x: 1, y: 2 } });
  });

  it('composeProfile follows the chain by name (catalogue contract.whole/merged-then-narrowed)', () => {
    const docs: Record<string, Record<string, unknown>> = {
      a: { metadata: { name: 'a' }, spec: { permissions: { default: 'deny', shell: 'deny' } } },
      b: { metadata: { name: 'b' }, extends: [{ name: 'a' }], spec: { permissions: { shell: null } } },
    };
    const child = { metadata: { name: 'c' }, extends: [{ name: 'b' }], spec: { permissions: { default: 'allow' } } };
    expect(composeProfile(child, (n) => docs[n])['spec']).toEqual({ permissions: { default: 'allow' } });
    expect(() => composeProfile({ metadata: { name: 'x' }, extends: [{ name: 'missing' }] }, () => undefined)).toThrow();
  });
});
