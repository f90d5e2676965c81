import { describe, expect, it } from 'vitest';
import { trustOfRoot } from '../../../spec/semantics/index.js';

describe('trust comes from the discovery root (SPEC §7.1; L1-I4)', () => {
  it.each([
    ['managed', 'managed'],
    ['user', 'user'],
    ['project', 'project'],
    ['plugin', 'imported'],
    [undefined, 'imported'],
  ] as const)('a profile found in %s is labelled %s', (root, label) => expect(trustOfRoot(root)).toBe(label));
});
