import { describe, expect, it } from 'vitest';
import { DEFAULT_WRITEBACK, operationsOutcome, type Writeback, writebackOf } from '../../../spec/semantics/index.js';

describe('writeback (SPEC §3.8; L2-A6 "defaulting to propose when absent")', () => {
  it('the default is propose', () => expect(DEFAULT_WRITEBACK).toBe('propose'));
  it.each([
    [{ lifecycle: { writeback: 'auto' } }, 'auto'],
    [{ lifecycle: { writeback: 'off' } }, 'off'],
    [{ lifecycle: {} }, 'propose'],
    [{}, 'propose'],
    [{ lifecycle: { writeback: 'sometimes' } }, 'propose'],
  ] as Array<[unknown, Writeback]>)('writebackOf(%j) = %s', (spec, want) => expect(writebackOf(spec)).toBe(want));

  it.each([
    ['off', true, 'discarded', 'off discards even approved deltas'],
    ['propose', false, 'queued', 'propose waits for approval'],
    ['propose', true, 'applied', 'approved'],
    ['auto', false, 'applied', 'auto applies state operations without prompting'],
  ] as const)('operationsOutcome(%s, approved %s) = %s (%s)', (mode, approved, want, _why) =>
    expect(operationsOutcome(mode, approved)).toBe(want),
  );
});
