import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MEMORY_MODE,
  effectiveMemoryMode,
  effectiveScopes,
  type MemoryMode,
  memoryAtMost,
  memoryExceeds,
  minMemoryMode,
  scopesBeyond,
  storeModeCap,
} from '../../../spec/semantics/index.js';

describe('memory modes (SPEC §3.7, §7.2; INTERPRETATIONS.md, memory)', () => {
  it('the schema default mode is read_only', () => expect(DEFAULT_MEMORY_MODE).toBe('read_only'));

  it.each([
    [['read_write', 'read_only'], 'read_only', 'L1-I3: the lower of profile and policy'],
    [['off', 'read_write'], 'off', 'off is the bottom'],
    [['read_write', 'read_write'], 'read_write', 'equal sides'],
  ] as Array<[[MemoryMode, MemoryMode], MemoryMode, string]>)('minMemoryMode(%j) = %s (%s)', ([a, b], want) =>
    expect(minMemoryMode(a, b)).toBe(want),
  );

  it.each([
    ['read_only', 'read_write', true, false],
    ['read_write', 'read_only', false, true],
    ['off', 'off', true, false],
  ] as Array<[MemoryMode, MemoryMode, boolean, boolean]>)('atMost(%s, %s) = %s, exceeds = %s', (a, b, le, gt) => {
    expect(memoryAtMost(a, b)).toBe(le);
    expect(memoryExceeds(a, b)).toBe(gt);
  });

  it.each([
    ['read_write', 'read_only', 'read_only', 'L1-I3: policy caps the request'],
    [undefined, 'read_write', 'read_only', 'schema default: absent mode asks read_only'],
    [undefined, 'off', 'off', 'absent mode under an off harness'],
    ['off', 'read_write', 'off', 'a profile may switch memory off'],
  ] as Array<[MemoryMode | undefined, MemoryMode, MemoryMode, string]>)('effective mode of %s under %s = %s (%s)', (req, ceil, want) =>
    expect(effectiveMemoryMode(req, ceil).value).toBe(want),
  );

  it.each([
    ['read_write', 'read_only', 'read_only', 'SPEC §3.7 "mode is the ceiling for the whole section" (L3-Y1)'],
    [undefined, 'read_write', 'read_only', 'store mode default read_only'],
    ['off', 'read_write', 'off', 'a store may ask less'],
  ] as Array<[MemoryMode | undefined, MemoryMode, MemoryMode, string]>)('store %s in a %s section = %s (%s)', (store, section, want) =>
    expect(storeModeCap(store, section)).toBe(want),
  );
});

describe('scopes are exact strings (SPEC §3.7; INTERPRETATIONS.md, memory)', () => {
  it.each([
    [['project:acme', 'team:ops'], ['project:acme'], ['team:ops'], 'L1-I3 memory case'],
    [['project:*'], ['project:acme'], ['project:*'], 'no pattern syntax: * is a literal'],
    [['Project:acme'], ['project:acme'], ['Project:acme'], 'case matters'],
    [[], ['a'], [], 'nothing requested'],
  ])('scopesBeyond(%j, %j) = %j (%s)', (scopes, allowed, want) => expect(scopesBeyond(scopes, allowed)).toEqual(want));

  it.each([
    [['project:acme', 'team:secret-ops'], ['project:acme', 'user:global'], ['project:acme'], 'intersection'],
    [undefined, ['project:acme'], ['project:acme'], 'absent request: the ceiling stands'],
    [[], ['project:acme'], [], 'an empty request asks for no scope'],
  ] as Array<[string[] | undefined, string[], string[], string]>)('effectiveScopes(%j, %j) = %j (%s)', (req, ceil, want) =>
    expect(effectiveScopes(req, ceil).value).toEqual(want),
  );
});
