/**
 * Boundary catalogue of model resolution (rule: ./model.ts resolveModel; SPEC §3.3; L1-I12, L1-I9;
 * security.md T5).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const A = { provider: 'anthropic', id: 'claude-sonnet-5' };
const O = { provider: 'openai', id: 'gpt-6' };
const served = { 'policy:/models/available': [A, O] };

export const MODEL_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'model.resolution',
    title: 'Which SPEC §3.3 rule picks the model, and which model',
    rule: 'spec/semantics/model.ts resolveModel',
    requirements: ['L1-I12', 'L1-I9'],
    reads: {
      profile: ['/spec/model/provider', '/spec/model/id', '/spec/model/fallbacks', '/spec/model/tier'],
      policy: ['/models/available', '/models/tiers', '/models/default'],
      base: ['/spec/model'],
    },
    meets: ['profile-policy', 'base-derived'],
    families: {
      presence: [
        {
          slug: 'no-model-section',
          description: 'no `spec.model`',
          values: [{ 'profile:/spec/model': undefined, ...served }],
          predicts: 'the harness default, rule 4 reported',
          next: ['half-exact'],
        },
        {
          slug: 'half-exact',
          description: 'provider without id, and id without provider, both served elsewhere',
          values: [
            { 'profile:/spec/model': { provider: 'openai' }, ...served },
            { 'profile:/spec/model': { id: 'gpt-6' }, ...served },
          ],
          predicts: 'rule 1 cannot apply (both are needed): the next rule that applies, reported',
        },
        {
          slug: 'fallbacks-empty',
          description: '`fallbacks: []` with an unserved exact model',
          values: [{ 'profile:/spec/model': { provider: 'x', id: 'y', fallbacks: [] }, ...served }],
          predicts: 'rule 2 does not apply: tier or default, reported',
        },
        {
          slug: 'tier-unrouted',
          description: 'a tier the harness has no routing for',
          values: [{ 'profile:/spec/model': { tier: 'frontier' }, 'policy:/models/tiers': {}, ...served }],
          predicts: 'rule 4 (the harness default), reported',
        },
      ],
      numeric: 'model identifiers are strings; `parameters` are advisory (dropped with a warning, no requirement ID)',
      text: [
        {
          slug: 'id-letter-case',
          description: 'the exact model in another case (`OpenAI`, `GPT-6`)',
          values: [{ 'profile:/spec/model': { provider: 'OpenAI', id: 'gpt-6' }, ...served }],
          predicts: 'not served (exact strings): a later rule, reported as such',
        },
      ],
      separators: 'provider and id are opaque identifiers; the spec gives them no structure',
      wildcards: 'model identifiers are not patterns',
      escaping: 'no escape syntax',
      duplicates: [
        {
          slug: 'fallback-equals-primary',
          description: 'the first fallback repeats the unserved primary; a served fallback twice',
          values: [{ 'profile:/spec/model': { provider: 'x', id: 'y', fallbacks: [{ provider: 'x', id: 'y' }, O, O] }, ...served }],
          predicts: 'rule 2 with gpt-6',
        },
      ],
      order: [
        {
          slug: 'exact-before-tier',
          description: 'a served exact model and a routed tier',
          values: [{ 'profile:/spec/model': { ...A, tier: 'minimal' }, ...served }],
          predicts: 'rule 1, the exact model',
          next: ['first-served-fallback'],
        },
        {
          slug: 'first-served-fallback',
          description: 'fallbacks whose first entry is unserved and second and third are served',
          values: [{ 'profile:/spec/model': { provider: 'x', id: 'y', fallbacks: [{ provider: 'x', id: 'z' }, O, A] }, ...served }],
          predicts: 'rule 2 with the first served one (gpt-6), not a later one',
        },
        {
          slug: 'fallback-before-tier',
          description: 'an unserved exact model, a served fallback and a routed tier',
          values: [{ 'profile:/spec/model': { provider: 'x', id: 'y', fallbacks: [O], tier: 'advanced' }, ...served }],
          predicts: 'rule 2, not rule 3',
        },
      ],
      links: [
        {
          slug: 'inherited-model',
          description: 'the base names the model, the derived layer only a tier',
          values: [{ 'base:/spec/model': A, 'profile:/spec/model': { tier: 'minimal' }, ...served }],
          predicts: 'the merged model has provider, id and tier: rule 1',
        },
      ],
    },
  }),
];
