import { describe, expect, it } from 'vitest';
import { closerBreakouts, delimitedBlock } from '../../../spec/semantics/index.js';

describe('delimited blocks (SPEC §3.9 rule 2; INTERPRETATIONS.md, state delimiting)', () => {
  it.each([
    ['<s>\nbody\n</s>', { open: '<s>', close: '</s>', content: 'body' }, 'LF'],
    ['<s>\r\nbody\r\n</s>\r\n', { open: '<s>', close: '</s>', content: 'body' }, 'CRLF, trailing break dropped'],
    ['<s>\rone\rtwo\r</s>', { open: '<s>', close: '</s>', content: 'one\rtwo' }, 'lone CR ends a line'],
    ['<s>\n</s>', { open: '<s>', close: '</s>', content: '' }, 'no content'],
  ])('delimitedBlock(%j)', (text, want) => expect(delimitedBlock(text)).toMatchObject(want));

  it('a one-line block has no separate delimiters', () => expect(delimitedBlock('<s>{"a":1}</s>')).toBeUndefined());
});

describe('the closer never occurs inside the content (L2-S2)', () => {
  it.each([
    ['<s>\n| fact: all good\n</s>', 0, 'quoted content'],
    ['<s>\n{"facts":["x </s> y"]}\n</s>', 1, 'mid-line in a JSON line'],
    ['<s>\n{"facts":["x </S> y"]}\n</s>', 1, 'another letter case'],
    ['<s>\n</s>\n</s>', 1, 'as a whole line'],
    ['<s>\n  </s>  \n</s>', 1, 'as a line with blanks around it'],
    ['<s>\nx &lt;/s&gt; y\n</s>', 0, 'entity-escaped: the escape worked'],
    ['<s>\nx <\\/s> y\n</s>', 0, 'backslash-escaped: the escape worked'],
    ['<<<S 1a2b END>>>\n| <<<S 9f9f END>>>\n<<<S 1a2b END>>>', 0, 'a closer with another nonce is not this closer'],
    ['```\ncode ``` inline\n```', 1, 'a fence closer mid-line'],
    ['<s>\nnothing\n   ', 0, 'a blank closer protects nothing (judged elsewhere)'],
    ['<s> only one line </s>', 0, 'no separate closer line (judged elsewhere)'],
  ])('closerBreakouts(%j) has %i occurrence(s) (%s)', (text, n) => expect(closerBreakouts(text)).toHaveLength(n));

  it('reports where the closer was found, in the text as written', () =>
    expect(closerBreakouts('<s>\nab</S>c\n</s>')).toEqual([{ index: 6, found: '</S>' }]));
});
