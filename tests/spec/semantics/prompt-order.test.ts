import { describe, expect, it } from 'vitest';
import { orderViolations, PROMPT_ORDER, promptStep } from '../../../spec/semantics/index.js';

describe('assembly order (SPEC §3.2; INTERPRETATIONS.md, prompt order)', () => {
  it('steps 1-8', () => {
    expect(Object.entries(PROMPT_ORDER).map(([k, v]) => `${v}:${k}`)).toEqual([
      '1:preamble',
      '2:instructions',
      '3:objectives',
      '4:persona',
      '5:constraints',
      '6:examples',
      '7:state',
      '8:postamble',
    ]);
    expect(promptStep('harness')).toBeUndefined();
  });

  it.each([
    [['preamble', 'instructions', 'objectives', 'persona', 'constraints', 'examples', 'state', 'postamble'], [], 'the full order'],
    [['instructions', 'constraints'], [], 'steps may be absent'],
    [['harness', 'instructions', 'harness', 'state', 'harness'], [], 'harness sections anywhere'],
    [['constraints', 'instructions'], [['constraints', 'instructions']], 'behavioural test 2: constraints before instructions'],
    [['instructions', 'postamble', 'state'], [['postamble', 'state']], 'state after the postamble (L2-S1)'],
    [
      ['state', 'postamble', 'instructions'],
      [
        ['state', 'instructions'],
        ['postamble', 'instructions'],
      ],
      'every inverted pair',
    ],
    [['instructions', 'instructions'], [], 'a step may span several sections'],
  ])('orderViolations(%j) (%s)', (kinds, pairs) => {
    expect(orderViolations(kinds).map((v) => v.kinds)).toEqual(pairs);
  });
});
