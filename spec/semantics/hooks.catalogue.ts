/**
 * Boundary catalogue of lifecycle hooks. The rule is still in the harness; no requirement ID
 * judges hooks, so every class is written down and excluded with that reason (schema: "Unknown
 * hooks are a warning, not an error, unless required is true"; SPEC §3.8; security.md T2).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const NO_ID = 'no requirement or advisory judges hooks: the rule is a schema description, not a conformance ID';
const h = 'profile:/spec/lifecycle/on_start';

export const HOOKS_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'lifecycle.hooks',
    title: 'Named hooks against the hooks the harness registered',
    rule: 'harnesses/reference (not in the spec model)',
    requirements: [],
    reads: { profile: ['/spec/lifecycle/on_start', '/spec/lifecycle/on_end'], policy: ['/hooks'] },
    meets: ['profile-policy'],
    families: {
      presence: [
        {
          slug: 'unknown-optional',
          description: 'an unregistered hook, not required',
          values: [{ [h]: [{ hook: 'warm-cache' }], 'policy:/hooks': [] }],
          predicts: 'a warning, instantiation continues',
          exclusion: NO_ID,
        },
        {
          slug: 'unknown-required',
          description: 'an unregistered hook with `required: true`',
          values: [{ [h]: [{ hook: 'warm-cache', required: true }], 'policy:/hooks': [] }],
          predicts: 'an error',
          exclusion: NO_ID,
        },
      ],
      numeric: 'hook lists are bounded by the grammar catalogue',
      text: [
        {
          slug: 'name-case',
          description: '`Warm-Cache` against a registered `warm-cache`',
          values: [{ [h]: [{ hook: 'Warm-Cache' }], 'policy:/hooks': ['warm-cache'] }],
          predicts: 'unknown (names are exact)',
          exclusion: NO_ID,
        },
      ],
      separators: 'a hook is a name, never a command line (T2)',
      wildcards: 'hook names are not patterns',
      escaping: [
        {
          slug: 'command-as-name',
          description: 'a hook "name" that is a shell command',
          values: [{ [h]: [{ hook: 'rm -rf /' }], 'policy:/hooks': [] }],
          predicts: 'an unknown name; never executed',
          exclusion: NO_ID,
        },
      ],
      duplicates: 'the same hook twice runs twice or once; unspecified',
      order: 'hooks run in list order; not observable through the protocol',
      links: 'a hook refers to the harness registry only (presence)',
    },
  }),
];
