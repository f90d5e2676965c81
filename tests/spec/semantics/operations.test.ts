import { describe, expect, it } from 'vitest';
import { applyStateOperations, type StateOperation, valueAt } from '../../../spec/semantics/index.js';

const profile = (): Record<string, unknown> => ({
  oap: '1.0',
  kind: 'AgentProfile',
  metadata: { name: 'ops', description: 'A profile the operations apply to.' },
  spec: { role: { instructions: 'You are ops.' } },
  state: {
    summary: 's',
    facts: [
      { id: 'fact-bb', text: 'bb' },
      { id: 'fact-b', text: 'b' },
      { id: 'a/b', text: 'slash' },
    ],
  },
});

const FACT = { id: 'n', text: 'new' };

describe("applying a delta's operations (SPEC §6.2, RFC 6901/6902)", () => {
  it.each([
    [
      [{ op: 'replace', path: '/state/facts/1/text', value: 'x' }],
      ['fact-bb', 'fact-b', 'a/b'],
      '/state/facts/1/text',
      'x',
      'replace by index',
    ],
    [
      [{ op: 'replace', path: '/state/facts/id:fact-b/text', value: 'x' }],
      ['fact-bb', 'fact-b', 'a/b'],
      '/state/facts/0/text',
      'bb',
      'an id: token names the exact id, not a prefix',
    ],
    [
      [{ op: 'replace', path: '/state/facts/id:a~1b/text', value: 'x' }],
      ['fact-bb', 'fact-b', 'a/b'],
      '/state/facts/2/text',
      'x',
      '~1 decoded after the split',
    ],
    [
      [{ op: 'add', path: '/state/facts/3', value: FACT }],
      ['fact-bb', 'fact-b', 'a/b', 'n'],
      '/state/facts/3/text',
      'new',
      'add at the length appends',
    ],
    [[{ op: 'add', path: '/state/facts/-', value: FACT }], ['fact-bb', 'fact-b', 'a/b', 'n'], '/state/facts/3/text', 'new', '- appends'],
    [[{ op: 'remove', path: '/state/facts/7' }], ['fact-bb', 'fact-b', 'a/b'], '/state/summary', 's', 'a missing remove is a no-op'],
  ] as Array<[StateOperation[], string[], string, string, string]>)('%j: %s', (ops, ids, at, value) => {
    const out = applyStateOperations(profile(), ops);
    if (!out.applied) throw new Error(out.why);
    expect((valueAt(out.doc, '/state/facts') as Array<{ id: string }>).map((f) => f.id)).toEqual(ids);
    expect(valueAt(out.doc, at)).toBe(value);
  });

  it.each([
    [{ op: 'replace', path: '/state/facts/3', value: FACT }, 'replace at the length'],
    [{ op: 'add', path: '/state/facts/4', value: FACT }, 'add past the length'],
    [{ op: 'replace', path: '/state/facts/01', value: FACT }, 'a leading zero'],
    [{ op: 'replace', path: '/state/facts/-1', value: FACT }, 'a negative index'],
    [{ op: 'replace', path: '/state/summary/', value: 'x' }, 'a trailing slash names a member of a string'],
    [{ op: 'replace', path: '/state/%2e%2e/spec/role/instructions', value: 'x' }, 'percent-encoding is literal'],
    [{ op: 'add', path: '/state/a~1b', value: 'x' }, 'a key state does not have'],
    [{ op: 'replace', path: '/spec/role/instructions', value: 'x' }, 'outside /state'],
  ] as Array<[StateOperation, string]>)('%j fails the delta: %s', (op) => {
    expect(applyStateOperations(profile(), [op]).applied).toBe(false);
  });

  it('warns on a remove of a missing id', () => {
    const out = applyStateOperations(profile(), [{ op: 'remove', path: '/state/facts/id:gone' }]);
    expect(out.applied && out.warnings.length).toBe(1);
  });
});
