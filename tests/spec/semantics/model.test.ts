import { describe, expect, it } from 'vitest';
import { type HarnessModels, type ModelChoice, type ModelRequest, modelRequestOf, resolveModel } from '../../../spec/semantics/index.js';

const MODELS: HarnessModels = {
  available: [
    { provider: 'anthropic', id: 'claude-sonnet-5' },
    { provider: 'openai', id: 'gpt-6' },
  ],
  tiers: { minimal: { provider: 'local', id: 'tiny-1' }, standard: { provider: 'openai', id: 'gpt-6' } },
  default: { provider: 'local', id: 'default-model' },
};

describe('model resolution, rules 1-4 in order (SPEC §3.3; INTERPRETATIONS.md, model)', () => {
  it.each([
    [{ provider: 'openai', id: 'gpt-6', tier: 'minimal' }, { provider: 'openai', id: 'gpt-6', rule: 1 }, 'rule 1 wins over a tier'],
    [
      {
        provider: 'acme',
        id: 'acme-9',
        tier: 'minimal',
        fallbacks: [
          { provider: 'acme', id: 'acme-8' },
          { provider: 'anthropic', id: 'claude-sonnet-5' },
        ],
      },
      { provider: 'anthropic', id: 'claude-sonnet-5', rule: 2 },
      'rule 2: the first served fallback',
    ],
    [{ tier: 'standard' }, { provider: 'openai', id: 'gpt-6', rule: 3 }, 'rule 3: tier routing'],
    [
      { provider: 'acme', id: 'acme-9', tier: 'minimal', fallbacks: [{ provider: 'acme', id: 'acme-8' }] },
      { provider: 'local', id: 'tiny-1', rule: 3 },
      'no served fallback, then tier',
    ],
    [{ provider: 'acme', id: 'acme-9' }, { provider: 'local', id: 'default-model', rule: 4 }, 'rule 4: nothing else'],
    [{ tier: 'frontier' }, { provider: 'local', id: 'default-model', rule: 4 }, 'a tier without routing falls through to rule 4'],
    [undefined, { provider: 'local', id: 'default-model', rule: 4 }, 'no spec.model: rule 4, never rule 1'],
    [{ provider: 'openai' }, { provider: 'local', id: 'default-model', rule: 4 }, 'provider without id is no exact model'],
  ] as Array<[ModelRequest | undefined, ModelChoice, string]>)('%j resolves to %j (%s)', (req, want) => {
    expect(resolveModel(req, MODELS).value).toEqual(want);
  });

  it('reports the rule when it is not rule 1 (SPEC §3.3 "MUST report which rule")', () => {
    expect(resolveModel({ tier: 'standard' }, MODELS).reasons).toEqual(['model resolved by SPEC 3.3 rule 3 (tier routing)']);
    expect(resolveModel({ provider: 'openai', id: 'gpt-6' }, MODELS).reasons).toEqual([]);
  });

  it('modelRequestOf reads spec.model', () => {
    expect(modelRequestOf({})).toBeUndefined();
    expect(modelRequestOf({ model: { tier: 'standard', fallbacks: [{ provider: 'a', id: 'b' }] } })).toEqual({
      provider: undefined,
      id: undefined,
      tier: 'standard',
      fallbacks: [{ provider: 'a', id: 'b' }],
    });
  });
});
