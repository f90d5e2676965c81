/**
 * Boundary catalogue of skills (rule: ./skills.ts skillStatus; refusing a missing required skill is
 * still the harness's, harnesses/reference/resolve.ts) (SPEC §3.4; L1-I7, L3-K1, L1-I11).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const sk = 'profile:/spec/tools/skills';
const inst = 'policy:/skills';
const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

export const SKILLS_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'skills',
    title: 'Skills present, missing, pinned',
    rule: 'spec/semantics/skills.ts skillStatus',
    requirements: ['L1-I7', 'L3-K1'],
    reads: { profile: ['/spec/tools/skills'], policy: ['/skills'], parent: ['/skills'] },
    meets: ['profile-policy'],
    families: {
      presence: [
        {
          slug: 'required-missing',
          observedBy: ['L1-I7/required-skill-missing'],
          description: 'a required skill not installed, next to the optional twin',
          values: [
            { [sk]: [{ name: 'lint', required: true }], [inst]: [] },
            { [sk]: [{ name: 'lint' }], [inst]: [] },
          ],
          predicts: 'required: instantiation fails (L1-I7); optional: runs with the skill missing, recorded',
        },
        {
          slug: 'installed-without-digest',
          description: 'the profile pins a digest, the installed skill has none recorded',
          values: [{ [sk]: [{ name: 'lint', digest: D1, required: true }], [inst]: [{ name: 'lint' }] }],
          predicts: 'cannot be verified: refused or reported missing, never present',
          exclusion: 'the protocol lets a policy omit the digest; whether an unverifiable pin is a mismatch is not fixed',
        },
      ],
      numeric: 'skills have no numbers',
      text: [
        {
          slug: 'name-case',
          description: '`Lint` against an installed `lint`',
          values: [{ [sk]: [{ name: 'Lint', required: true }], [inst]: [{ name: 'lint' }] }],
          predicts: 'missing (names are exact): a required one fails',
          exclusion: "skill names are free strings; their comparison is the skills ecosystem's, not OAP's",
        },
        {
          slug: 'digest-hex-case',
          description: 'a pin with upper-case hex',
          values: [{ [sk]: [{ name: 'lint', digest: `sha256:${'A'.repeat(64)}` }] }],
          predicts: 'schema-invalid (pattern): refused',
          schemaInvalid: true,
          exclusion: 'a grammar bound (schema-bounds.ts digest pattern)',
        },
      ],
      separators: 'skill names are not paths; `source` is never fetched',
      wildcards: 'skill names are not patterns',
      escaping: 'no escape syntax',
      duplicates: [
        {
          slug: 'pinned-twice-differently',
          description: 'one skill listed twice with two pins, one matching',
          values: [
            {
              [sk]: [
                { name: 'lint', digest: D1 },
                { name: 'lint', digest: D2 },
              ],
              [inst]: [{ name: 'lint', digest: D1 }],
            },
          ],
          predicts: 'the mismatching entry is a mismatch: never both present',
          exclusion: 'the spec does not say skill names are unique',
        },
      ],
      order: [
        {
          slug: 'pin-mismatch',
          observedBy: ['L3-K1/digest-pin-mismatch-required', 'L3-K1/digest-pin-mismatch-never-present'],
          description: 'a required skill pinned to another digest than the installed one, and an optional one',
          values: [{ [sk]: [{ name: 'lint', digest: D2, required: true }], [inst]: [{ name: 'lint', digest: D1 }] }],
          predicts: 'required: refused with digest-mismatch; optional: refused or missing, never present',
        },
      ],
      links: [
        {
          slug: 'source-never-fetched',
          observedBy: ['L3-K1/loading-installs-nothing'],
          description: 'a missing skill whose `source` is a workspace directory or a URL',
          values: [{ [sk]: [{ name: 'lint', source: './skills/lint' }], [inst]: [] }],
          predicts: 'still missing on a second load; nothing installed (L3-K1, L1-I11)',
        },
      ],
    },
  }),
];
