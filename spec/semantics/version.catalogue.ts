/**
 * Boundary catalogue of the version and kind. The rules live in spec/document/rules-version.ts and
 * rules-kind.ts; the pattern's grammar bounds are spec/document/schema-bounds.ts's (SPEC §2.4,
 * Appendix A; L1-P3, L1-P4, L1-P5).
 */
import { type Dimension, dimension } from './catalogue-model.js';

export const VERSION_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'document.version',
    title: 'Which oap versions are read',
    rule: 'spec/document/rules-version.ts checkVersion',
    requirements: ['L1-P3', 'L1-P4'],
    reads: { profile: ['/oap'], delta: ['/oap'] },
    // Each document is checked on its own; nothing is combined across them.
    meets: [],
    families: {
      presence: [
        {
          slug: 'absent',
          description: 'no `oap`',
          values: [{ 'profile:/oap': undefined }],
          predicts: 'schema-invalid (required): refused',
          schemaInvalid: true,
          exclusion: 'a structural rule, covered by L1-P2',
        },
      ],
      numeric: [
        {
          slug: 'minor-zero-spellings',
          description: '`1.0` and `1.00`',
          values: [{ 'profile:/oap': '1.00' }],
          predicts: 'minor 0: accepted (the reading of this oracle)',
          exclusion: 'SPEC §2.4 says MAJOR.MINOR without saying whether `00` is the minor 0; a harness refusing `1.00` is not failed',
        },
        {
          slug: 'higher-minor',
          description: '`1.1`, `1.10`, and `1.01` (minor 1 with a leading zero: not 1.0 by prefix)',
          values: [{ 'profile:/oap': '1.1' }, { 'profile:/oap': '1.10' }, { 'profile:/oap': '1.01' }],
          predicts: 'refused (L1-P4): no 1.x schema above 1.0 exists',
        },
        {
          slug: 'other-major',
          observedBy: ['L1-P3/major-0', 'L1-P3/major-2'],
          description: '`0.9`, `2.0`',
          values: [{ 'profile:/oap': '2.0' }, { 'profile:/oap': '0.9' }],
          predicts: 'refused (L1-P3)',
          schemaInvalid: true,
        },
      ],
      text: [
        {
          slug: 'yaml-number',
          description: 'an unquoted `oap: 1.0` in YAML (a float, not a string)',
          values: [{ 'profile:/oap': 1 }],
          predicts: 'schema-invalid (type): refused',
          schemaInvalid: true,
          observedBy: ['L1-P2/version-unquoted-number'],
        },
      ],
      separators: "the pattern's separator edges (`1.`, `10`, `1,0`) are schema-bounds.ts's",
      wildcards: 'a version is not a pattern',
      escaping: 'a version has no escapes',
      duplicates: 'one oap key per document (ADV-duplicate-keys)',
      order: 'a version has no order beyond major and minor',
      links: [
        {
          slug: 'delta-and-profile-versions',
          observedBy: ['L2-A13/remove-missing-path-warns'],
          description: 'a delta at oap 1.0 for a profile at 1.0',
          values: [{ 'delta:/oap': '1.0', 'profile:/oap': '1.0' }],
          predicts: 'applied; each document is checked on its own',
        },
      ],
    },
  }),
];
