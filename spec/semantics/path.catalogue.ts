/**
 * Boundary catalogue of workspace paths (rules: ./path.ts normalizeRoot, rootCovers, pathAllowed
 * and ./physical-path.ts for roots; spec/document/paths.ts checkWorkspacePath for
 * `context.files[].path` and `working_directory`; SPEC §3.5, §3.6, §5.2 step 8; security.md T6;
 * L1-I3, L1-I5, L3-B1, L3-E1).
 */
import { type Dimension, dimension } from './catalogue-model.js';

function rootsDimension(key: 'read_roots' | 'write_roots'): Dimension {
  const p = `profile:/spec/permissions/filesystem/${key}`;
  const q = `policy:/filesystem/${key}`;
  return dimension({
    id: `filesystem.${key}`,
    title: `Reachable paths under ${key}`,
    rule: 'spec/semantics/path.ts pathAllowed, normalizeRoot; spec/semantics/physical-path.ts',
    requirements: ['L1-I3', 'L3-B1', 'L3-E1'],
    reads: {
      profile: [`/spec/permissions/filesystem/${key}`, '/spec/permissions/filesystem/deny_paths'],
      policy: [`/filesystem/${key}`, '/filesystem/allow_absolute'],
      parent: [`/filesystem/${key}`, '/filesystem/deny_paths'],
      base: [`/spec/permissions/filesystem/${key}`],
    },
    meets: ['profile-policy', 'parent-child', 'base-derived'],
    families: {
      presence: [
        {
          slug: 'absent-is-whole-workspace-request',
          description: `no ${key} in the profile`,
          values: [{ [p]: undefined, [q]: ['src'] }],
          predicts: 'the request is the whole workspace, so the policy roots stand',
          next: ['empty-list'],
        },
        {
          slug: 'empty-list',
          description: `\`${key}: []\` in the profile`,
          values: [{ [p]: [], [q]: ['.'] }],
          predicts: 'no path is reachable: an empty list asks for nothing',
          next: ['absent-is-whole-workspace-request'],
        },
        {
          slug: 'empty-string-root',
          description: 'the root `""`',
          values: [{ [p]: [''], [q]: ['src'] }],
          predicts: 'normalizes to `.`: the request is the whole workspace, the policy roots stand',
        },
      ],
      numeric: "roots are paths; their length bound is the grammar catalogue's",
      text: [
        {
          slug: 'letter-case',
          description: '`Src` against a policy root `src`',
          values: [{ [p]: ['Src'], [q]: ['src'] }],
          predicts: 'a different path (workspace paths compare by bytes): nothing under `src` is reachable through it',
          exclusion: 'on a case-insensitive file system the two name one directory; the spec does not say which comparison applies',
        },
        {
          slug: 'unicode-normalization',
          description: 'a root spelled NFC in the profile and NFD in the policy',
          values: [{ [p]: ['caf\u00e9'], [q]: ['cafe\u0301'] }],
          predicts: 'different byte strings: at most the intersection by bytes',
          exclusion: 'the spec does not say whether paths are normalized; macOS file systems do, Linux ones do not',
        },
      ],
      separators: [
        {
          slug: 'segment-prefix',
          description: '`src` against paths `srcx/a` and `src2/a`',
          values: [
            { [p]: ['src'], [q]: ['.'] },
            { [p]: ['srcx', 'src2/a'], [q]: ['src'] },
          ],
          predicts: 'srcx/a and src2/a unreachable; src and src/a reachable (whole segments): a policy root `src` grants nothing of `srcx`',
          next: ['trailing-slash-and-dot'],
        },
        {
          slug: 'trailing-slash-and-dot',
          description: '`src/`, `./src/`, `src/.`, `src//a`',
          values: [
            { [p]: ['src/'], [q]: ['src'] },
            { [p]: ['./src/'], [q]: ['src'] },
            { [p]: ['src//a'], [q]: ['src'] },
          ],
          predicts: 'each is the root `src` (or `src/a`): the same reachable paths',
        },
        {
          slug: 'dotdot-inside',
          description: '`src/../lib` (stays inside) and `docs/../../outside` (leaves)',
          values: [
            { [p]: ['src/../lib'], [q]: ['lib'] },
            { [p]: ['docs/../../outside'], [q]: ['.'] },
          ],
          predicts: 'the first is `lib`; the second reaches outside the workspace: refused, or dropped/narrowed to a place inside',
        },
        {
          slug: 'backslash',
          description: '`src\\a` as a Windows separator',
          values: [{ [p]: ['src\\a'], [q]: ['src'] }],
          predicts: 'read as `src/a` by the spec model; a harness that reads it as one segment grants less (allowed)',
        },
        {
          slug: 'absolute',
          description: 'an absolute root, inside and outside the workspace, with and without allow_absolute',
          values: [
            { [p]: ['/etc'], [q]: ['.'], 'policy:/filesystem/allow_absolute': false },
            { [p]: ['/etc'], [q]: ['.'], 'policy:/filesystem/allow_absolute': true },
            { [p]: ['C:/x'], [q]: ['.'] },
          ],
          predicts:
            'refused at resolve time or dropped; never reachable (workspace-relative unless the harness permits absolute, and then only inside the workspace and the policy roots)',
        },
      ],
      wildcards: [
        {
          slug: 'glob-root',
          description: 'a glob root `src/*` under a policy root `src/a`',
          values: [{ [p]: ['src/*'], [q]: ['src/a'] }],
          predicts: 'only src/a and below: a glob root covers what it or an ancestor matches, capped by the policy',
          exclusion: "the spec gives roots no glob syntax; the model's reading is one-sided",
        },
      ],
      escaping: [
        {
          slug: 'percent-and-tilde',
          description: '`%2e%2e/x` and `~/x` as roots',
          values: [
            { [p]: ['%2e%2e/x'], [q]: ['.'] },
            { [p]: ['~/x'], [q]: ['.'] },
          ],
          predicts: 'literal directory names inside the workspace (no decoding, no home expansion): never outside',
        },
      ],
      duplicates: [
        {
          slug: 'nested-and-repeated',
          description: 'a root twice, and a root inside another',
          values: [{ [p]: ['src', 'src', 'src/a'], [q]: ['.'] }],
          predicts: 'the same reachable paths as `src` alone',
        },
      ],
      order: 'a root list is a union: order does not matter',
      links: [
        {
          slug: 'symlink-out',
          description: 'a root `linked`, `linked/deeper` or `linked/..` where `linked` points outside the workspace',
          values: [
            { [p]: ['linked'], [q]: ['.'] },
            { [p]: ['linked/..'], [q]: ['.'] },
          ],
          predicts: 'refused, or never reaching outside on disk (security.md T6 "Resolve symlinks before the check")',
        },
        {
          slug: 'parent-roots-cap-child',
          description: 'a subagent asking for `.` under a parent whose effective roots are `src`',
          values: [{ [`parent:/filesystem/${key}`]: ['src'], [p]: ['.'], [q]: ['.'] }],
          predicts: 'only src and below (L3-B1)',
        },
        {
          slug: 'base-narrowed-derived-widens',
          description: 'base `[src]`, derived `[.]`',
          values: [{ [`base:/spec/permissions/filesystem/${key}`]: ['src'], [p]: ['.'], [q]: ['.'] }],
          predicts: 'the merged request is `.` (arrays replace); effective within the policy',
        },
      ],
    },
  });
}

const DENY_PATHS = dimension({
  id: 'filesystem.deny_paths',
  title: 'Paths the profile subtracts from both root lists',
  rule: "spec/semantics/path.ts pathAllowed; spec/semantics/contract-judge.ts contractFindings (a ceiling's deny stays denied)",
  requirements: ['L1-I3', 'L3-B1'],
  reads: {
    profile: ['/spec/permissions/filesystem/deny_paths', '/spec/permissions/filesystem/read_roots'],
    parent: ['/filesystem/deny_paths'],
  },
  meets: ['parent-child'],
  families: {
    presence: [
      {
        slug: 'absent-and-empty',
        description: 'no deny_paths, and `[]`',
        values: [
          { 'profile:/spec/permissions/filesystem/deny_paths': undefined },
          { 'profile:/spec/permissions/filesystem/deny_paths': [] },
        ],
        predicts: 'nothing subtracted',
      },
    ],
    numeric: 'deny entries are paths, not numbers',
    text: 'as the root dimensions (case and normalization are unspecified there too)',
    separators: [
      {
        slug: 'deny-equals-root',
        description: 'a deny path equal to a root, and one that is a segment prefix (`src` vs root `srcx`)',
        values: [
          { 'profile:/spec/permissions/filesystem/read_roots': ['src'], 'profile:/spec/permissions/filesystem/deny_paths': ['src'] },
        ],
        predicts: 'nothing under src reachable; srcx untouched by a deny of src',
      },
      {
        slug: 'absolute-deny',
        description: 'an absolute deny path `/etc` (allowed: a deny can only narrow)',
        values: [{ 'profile:/spec/permissions/filesystem/deny_paths': ['/etc'] }],
        predicts: 'the profile is valid; nothing inside the workspace changes',
      },
    ],
    wildcards: 'deny globs follow the root reading (glob-root), excluded for the same reason',
    escaping: 'as the root dimensions',
    duplicates: 'a deny list is a union',
    order: [
      {
        slug: 'deny-wins-over-root',
        description: 'a path under a read root and a deny path at once',
        values: [
          { 'profile:/spec/permissions/filesystem/read_roots': ['.'], 'profile:/spec/permissions/filesystem/deny_paths': ['secrets'] },
        ],
        predicts: 'secrets/x unreachable: deny subtracts whatever the order',
      },
    ],
    links: [
      {
        slug: 'parent-deny-kept',
        description: "the parent's effective deny path under a child asking for `.`",
        values: [{ 'parent:/filesystem/deny_paths': ['secrets'], 'profile:/spec/permissions/filesystem/read_roots': ['.'] }],
        predicts: 'secrets stays unreachable in the child (a ceiling deny must stay denied: the judge’s probe paths)',
      },
    ],
  },
});

/**
 * `observed` names, by class slug, the hand-written cases that submit the class's value at this
 * pointer and judge its prediction (EquivalenceClass.observedBy); `excluded`, by class slug, why a
 * class is not judged at this pointer.
 */
function workspacePathDimension(
  id: string,
  pointer: string,
  requirements: readonly string[],
  title: string,
  observed: Readonly<Record<string, readonly string[]>> = {},
  excluded: Readonly<Record<string, string>> = {},
): Dimension {
  const p = `profile:${pointer}`;
  const observedBy = (slug: string): readonly string[] => observed[slug] ?? [];
  const exclusion = (slug: string): { exclusion?: string } => (excluded[slug] === undefined ? {} : { exclusion: excluded[slug] });
  return dimension({
    id,
    title,
    rule: 'spec/document/paths.ts checkWorkspacePath; spec/semantics/physical-path.ts (symlinks)',
    requirements,
    reads: { profile: [pointer], policy: ['/filesystem/allow_absolute'] },
    meets: ['profile-policy'],
    families: {
      presence: [
        {
          slug: 'dot-and-empty',
          observedBy: observedBy('dot-and-empty'),
          ...exclusion('dot-and-empty'),
          description: '`.` and `""`',
          values: [{ [p]: '.' }, { [p]: '' }],
          predicts: 'the workspace itself: inside, accepted',
        },
      ],
      numeric: "a path; its length bound (maxLength 500) is the grammar catalogue's",
      text: [
        {
          slug: 'unicode-name',
          observedBy: observedBy('unicode-name'),
          description: 'a file name with non-ASCII and astral characters',
          values: [{ [p]: 'docs/caf\u00e9-😀.md' }],
          predicts: 'inside, accepted',
        },
      ],
      separators: [
        {
          slug: 'dotdot-escape',
          observedBy: observedBy('dotdot-escape'),
          description: '`../x`, `a/../../x`, `./../x`, `..`',
          values: [{ [p]: '../../etc/passwd' }, { [p]: 'a/../../x' }, { [p]: '..' }],
          predicts: 'rejected at resolve time',
          next: ['dotdot-inside'],
        },
        {
          slug: 'dotdot-inside',
          observedBy: observedBy('dotdot-inside'),
          description: '`a/../b` stays inside',
          values: [{ [p]: 'a/../b' }],
          predicts: 'accepted',
        },
        {
          slug: 'absolute',
          observedBy: observedBy('absolute'),
          description: 'absolute POSIX and Windows paths, inside and outside the workspace',
          values: [{ [p]: '/etc/passwd' }, { [p]: 'C:\\x' }],
          predicts: 'rejected unless the harness permits absolute paths (policy allow_absolute), and then only inside the workspace',
        },
        {
          slug: 'backslash-dotdot',
          observedBy: observedBy('backslash-dotdot'),
          description: '`..\\..\\x`',
          values: [{ [p]: '..\\..\\x' }],
          predicts: 'rejected (a separator on Windows)',
        },
      ],
      wildcards: 'paths here name one file or directory; the schema gives them no glob syntax',
      escaping: [
        {
          slug: 'percent-encoded-dotdot',
          description: '`%2e%2e/x`',
          values: [{ [p]: '%2e%2e/x' }],
          predicts: 'a literal name inside the workspace: accepted (no decoding)',
          exclusion:
            'the oracle refuses percent-encoded dots in delta pointers only; for files the literal reading is the only one, and no case needs it',
        },
      ],
      duplicates: 'one path per entry; duplicate entries are harmless',
      order: 'entries are independent',
      links: [
        {
          slug: 'symlink-out',
          observedBy: observedBy('symlink-out'),
          description: 'a file or directory symlink inside the workspace pointing outside, and `linked/../x`',
          values: [{ [p]: 'linked/secret.txt' }, { [p]: 'linked/../secret.txt' }],
          predicts: 'rejected (T6: resolve symlinks before the check)',
        },
      ],
    },
  });
}

export const PATH_CATALOGUE: readonly Dimension[] = [
  rootsDimension('read_roots'),
  rootsDimension('write_roots'),
  DENY_PATHS,
  workspacePathDimension(
    'context.files.path',
    '/spec/context/files/0/path',
    ['L1-I5'],
    'context.files[].path inside the workspace',
    {
      'dotdot-escape': [
        'L1-I5/dotdot-etc-passwd',
        'L1-I5/dotdot-after-subdirectory',
        'L1-I5/dot-segments-then-escape',
        'L1-I5/single-dotdot',
      ],
      'unicode-name': ['L1-I5/inside-paths-accepted'],
      'dotdot-inside': ['L1-I5/inside-paths-accepted'],
      absolute: ['L1-I5/absolute-path', 'L1-I5/absolute-path-inside-workspace'],
      'backslash-dotdot': ['L1-I5/backslash-dotdot'],
      'symlink-out': ['L1-I5/symlink-out-of-workspace', 'L1-I5/file-symlink-out-of-workspace', 'L1-I5/dotdot-after-symlink'],
    },
    {
      'dot-and-empty':
        '`.` and `""` name the workspace directory, which is no file: SPEC §3.6 says only that `files` "are workspace-relative" ' +
        'and L1-I5 only that paths resolving outside MUST be rejected; nothing says what a harness does with a context file that ' +
        'is a directory or names nothing, so refusing it is allowed (INTERPRETATIONS.md, L1-I5; the working directory judges the class)',
    },
  ),
  workspacePathDimension(
    'context.working_directory',
    '/spec/context/working_directory',
    [],
    'context.working_directory inside the workspace (security.md T6; no requirement ID of its own)',
    {
      'dot-and-empty': ['ADV-working-directory-escape/workspace-itself-accepted'],
      'unicode-name': ['ADV-working-directory-escape/unicode-name-accepted'],
      'dotdot-escape': [
        'ADV-working-directory-escape/dotdot-etc',
        'ADV-working-directory-escape/single-dotdot',
        'ADV-working-directory-escape/dotdot-after-subdirectory',
        'ADV-working-directory-escape/dot-segments-then-escape',
      ],
      'dotdot-inside': ['ADV-working-directory-escape/dotdot-inside-accepted'],
      absolute: ['ADV-working-directory-escape/absolute-path', 'ADV-working-directory-escape/absolute-path-inside-workspace'],
      'backslash-dotdot': ['ADV-working-directory-escape/backslash-dotdot'],
      'symlink-out': ['ADV-working-directory-escape/symlink-out-of-workspace', 'ADV-working-directory-escape/dotdot-after-symlink'],
    },
  ),
];
