/**
 * Boundary catalogue of discovery and trust. The rule is still in the harness
 * (harnesses/reference/discovery.ts); root-side samples name a file in a root and the
 * `metadata.name` (or `trust`) it carries (SPEC §5.1, §3.1, §7.1; L1-D1-D4, L1-I4, L3-G3).
 */
import { type Dimension, dimension } from './catalogue-model.js';

export const DISCOVERY_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'discovery.names',
    title: 'Which file wins a name, within a root and across roots',
    rule: 'harnesses/reference/discovery.ts (not yet in the spec model)',
    requirements: ['L1-D1', 'L1-D2', 'L1-D3', 'L1-D4', 'L3-G3'],
    reads: { root: ['/managed', '/user', '/project', '/plugin'], profile: ['/metadata/name'] },
    meets: ['root-root'],
    families: {
      presence: [
        {
          slug: 'malformed-sibling',
          observedBy: ['L1-D1/malformed-sibling-does-not-hide-profiles'],
          description: 'an unparseable and a schema-invalid file beside a valid profile',
          values: [{ 'root:/project/broken.agent.yaml': null, 'root:/project/ok.agent.yaml': 'ok' }],
          predicts: 'ok is discovered and instantiable (L1-D1)',
        },
        {
          slug: 'empty-or-missing-root',
          description: 'a root directory that does not exist, and one that is empty',
          values: [{ 'root:/user': undefined }],
          predicts: 'no error; the other roots still contribute',
          exclusion: 'no sentence makes a missing root an error or not; a harness may warn',
        },
      ],
      numeric: "names are slugs; the grammar bound is schema-bounds.ts's",
      text: [
        {
          slug: 'file-name-differs',
          observedBy: ['L1-D4/metadata-name-over-file-name'],
          description: '`helper.agent.yaml` whose metadata.name is `reviewer`',
          values: [{ 'root:/project/helper.agent.yaml': 'reviewer' }],
          predicts: 'known as reviewer only, file_name_matches false (L1-D4)',
        },
        {
          slug: 'extension-case',
          description: '`X.AGENT.YAML`, `x.agent.YML`',
          values: [{ 'root:/project/X.AGENT.YAML': 'x' }],
          predicts: 'not a documented extension: may be ignored',
          exclusion: 'SPEC §2.1 lists the extensions in lower case and says nothing of case',
        },
      ],
      separators: [
        {
          slug: 'nested-directory',
          description: 'a profile in `.agents/team/x.agent.yaml`',
          values: [{ 'root:/project/team/x.agent.yaml': 'x' }],
          predicts: 'unspecified: the spec names the directories, not whether they are searched recursively',
          exclusion: 'no sentence decides recursion',
        },
      ],
      wildcards: 'names and roots are not patterns',
      escaping: 'file names are taken as the file system gives them',
      duplicates: [
        {
          slug: 'same-name-one-root',
          description: 'two files with one name in one root (`.yaml` and `.yml`, and two encodings: `.yaml` and `.json`)',
          values: [
            { 'root:/project/twin.agent.yaml': 'twin', 'root:/project/twin.agent.yml': 'twin' },
            { 'root:/project/twin.agent.yaml': 'twin', 'root:/project/twin.agent.json': 'twin' },
          ],
          predicts: 'an error: a within-root collision, winner null, the name not instantiable (L1-D2)',
        },
      ],
      order: [
        {
          slug: 'precedence-pairs',
          description: 'one name in two roots, for each of the six pairs of managed < user < project < plugin',
          values: [
            { 'root:/managed/a.agent.yaml': 'a', 'root:/user/a.agent.yaml': 'a' },
            { 'root:/managed/a.agent.yaml': 'a', 'root:/project/a.agent.yaml': 'a' },
            { 'root:/managed/a.agent.yaml': 'a', 'root:/plugin/a.agent.yaml': 'a' },
            { 'root:/user/a.agent.yaml': 'a', 'root:/project/a.agent.yaml': 'a' },
            { 'root:/user/a.agent.yaml': 'a', 'root:/plugin/a.agent.yaml': 'a' },
            { 'root:/project/a.agent.yaml': 'a', 'root:/plugin/a.agent.yaml': 'a' },
          ],
          predicts: 'the later root wins and the collision is reported with both paths (L1-D3)',
          next: ['three-roots'],
        },
        {
          slug: 'three-roots',
          description: 'one name in managed, user and project at once',
          values: [{ 'root:/managed/a.agent.yaml': 'a', 'root:/user/a.agent.yaml': 'a', 'root:/project/a.agent.yaml': 'a' }],
          predicts: 'project wins; every path reported',
        },
        {
          slug: 'native-directory',
          description: 'one name in `.agents/` and the harness-native directory of the project',
          values: [{ 'root:/project/a.agent.yaml': 'a', 'root:/project/native/a.agent.yaml': 'a' }],
          predicts: 'SHOULD prefer the native one and warn',
          exclusion: "a SHOULD without a requirement ID, and the native directory is the harness's own",
        },
      ],
      links: [
        {
          slug: 'symlinked-profile',
          description: 'a profile file in the project root that is a symlink to a file elsewhere',
          values: [{ 'root:/project/a.agent.yaml': 'a' }],
          predicts: 'discovered in the project root (the root that contains the link)',
          exclusion: 'whether trust follows the link or its target is not decided by §7.1',
        },
      ],
    },
  }),
  dimension({
    id: 'metadata.trust',
    title: 'Trust from the root, never from the file',
    rule: 'spec/semantics/trust.ts trustOfRoot',
    requirements: ['L1-I4'],
    reads: { root: ['/managed', '/user', '/project', '/plugin'], profile: ['/metadata/trust'] },
    meets: ['root-root'],
    families: {
      presence: [
        {
          slug: 'no-trust-in-file',
          description: 'a file without `trust`',
          values: [{ 'profile:/metadata/trust': undefined, 'root:/project/a.agent.yaml': 'a' }],
          predicts: 'project',
        },
        {
          slug: 'outside-every-root',
          observedBy: ['L1-I4/file-outside-roots-is-imported'],
          description: 'a profile loaded by path from outside every root',
          values: [{ 'profile:/metadata/trust': 'managed' }],
          predicts: 'imported',
        },
      ],
      numeric: 'trust is an enum',
      text: "the enum bound is schema-bounds.ts's (`Managed` is schema-invalid)",
      separators: 'an enum word',
      wildcards: 'an enum word',
      escaping: 'an enum word',
      duplicates: 'one trust key per document (ADV-duplicate-keys)',
      order: [
        {
          slug: 'file-claims-more',
          observedBy: [
            'L1-I4/project-root-file-claiming-managed',
            'L1-I4/project-root-file-claiming-user',
            'L1-I4/user-root-file-claiming-managed',
            'L1-I4/managed-root-file-claiming-imported',
          ],
          description: 'each root with a file claiming every other label',
          values: [
            { 'profile:/metadata/trust': 'managed', 'root:/project/a.agent.yaml': 'a' },
            { 'profile:/metadata/trust': 'user', 'root:/project/a.agent.yaml': 'a' },
            { 'profile:/metadata/trust': 'managed', 'root:/user/a.agent.yaml': 'a' },
            { 'profile:/metadata/trust': 'imported', 'root:/managed/a.agent.yaml': 'a' },
            { 'profile:/metadata/trust': 'managed', 'root:/plugin/a.agent.yaml': 'a' },
          ],
          predicts: "the root's label (plugin → imported), whatever the file says",
        },
      ],
      links: [
        {
          slug: 'shadowed-winner',
          description: 'a project file shadowing a managed one of the same name',
          values: [{ 'root:/managed/a.agent.yaml': 'a', 'root:/project/a.agent.yaml': 'a' }],
          predicts: "project: the winner keeps its own root's trust (precedence never gains authority)",
        },
      ],
    },
  }),
];
