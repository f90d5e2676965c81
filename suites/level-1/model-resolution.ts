/**
 * L1-I12: when spec.model cannot be honoured exactly, the rule of SPEC §3.3 that was applied is
 * reported, and the model actually used is the one that rule yields under the harness policy.
 *
 * The harness policy (permissivePolicy) serves anthropic/claude-sonnet-5 and openai/gpt-6, routes
 * tiers minimal→local/tiny-1, standard→openai/gpt-6, advanced/frontier→anthropic/claude-sonnet-5,
 * and defaults to local/default-model. The expected choice is the spec model's resolution
 * (spec/semantics/model.ts), whose table test holds known answers for these rules.
 */
import { type ModelChoice, type ModelRequest, resolveModel } from '../../spec/semantics/index.js';
import { expectEqual } from '../kit/assert.js';
import type { CaseDef } from '../kit/types.js';
import { instantiateSubject, minimalProfile, permissivePolicy, writeProjectProfile } from '../support/index.js';

interface ModelCase {
  slug: string;
  title: string;
  model: ModelRequest | undefined;
}

const CASES: ModelCase[] = [
  {
    slug: 'exact-model-served-rule-1',
    title: 'provider and id the harness serves: rule 1, that model',
    model: { provider: 'openai', id: 'gpt-6', tier: 'advanced' },
  },
  {
    slug: 'unserved-exact-first-served-fallback-rule-2',
    title: 'provider/id not served, fallbacks listed: rule 2, the first fallback the harness serves',
    model: {
      provider: 'acme',
      id: 'acme-9',
      tier: 'minimal',
      fallbacks: [
        { provider: 'acme', id: 'acme-8' },
        { provider: 'anthropic', id: 'claude-sonnet-5' },
        { provider: 'openai', id: 'gpt-6' },
      ],
    },
  },
  {
    slug: 'tier-only-rule-3',
    title: 'only a tier: rule 3, the harness’s routing for that tier',
    model: { tier: 'standard' },
  },
  {
    slug: 'no-served-fallback-then-tier-rule-3',
    title: 'neither the exact model nor any fallback served, tier present: rule 3',
    model: { provider: 'acme', id: 'acme-9', tier: 'minimal', fallbacks: [{ provider: 'acme', id: 'acme-8' }] },
  },
  {
    slug: 'unserved-exact-nothing-else-rule-4',
    title: 'an unserved exact model and nothing else: rule 4, the harness default',
    model: { provider: 'acme', id: 'acme-9' },
  },
  {
    slug: 'no-model-section-rule-4',
    title: 'no spec.model at all: rule 4, the harness default',
    model: undefined,
  },
];

const POLICY = permissivePolicy();

/** The L1-I12 clause a case observes: the rule the spec model says applies. */
const RULE_CLAUSE = { 1: 'L1-I12.exact', 2: 'L1-I12.fallback', 3: 'L1-I12.tier', 4: 'L1-I12.default' } as const;

function modelCase(c: ModelCase): CaseDef {
  const expected: ModelChoice = resolveModel(c.model, POLICY.models).value;
  return {
    id: `L1-I12/${c.slug}`,
    requirements: ['L1-I12'],
    clauses: [RULE_CLAUSE[expected.rule]],
    title: c.title,
    expectation: { model: expected },
    async run(ctx) {
      const doc = minimalProfile(`model-${c.slug}`.slice(0, 60).replace(/-+$/, ''), c.model ? { model: c.model } : {});
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), POLICY);
      expectEqual(session.effective.model, expected, 'model used and SPEC §3.3 rule reported');
    },
  };
}

export const modelResolutionCases: CaseDef[] = CASES.map(modelCase);
