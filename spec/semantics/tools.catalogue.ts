/**
 * Boundary catalogue of the effective tool set (rule: ./tools.ts toolTable and grantedTools, glob
 * matching through ./glob.ts; SPEC §3.4, §7.2; L1-I2, L1-I3, L3-B1, L3-E1). The pattern language
 * itself is ./glob.catalogue.ts; here the lists that carry patterns.
 */
import { type Dimension, dimension } from './catalogue-model.js';

const NO_NUMBERS_LIST =
  "tool lists hold names, not numbers; their length bound (maxItems 200, maxLength 120) is the grammar catalogue's (spec/document/schema-bounds.ts)";

const POLICY = dimension({
  id: 'tools.policy',
  title: 'Which row of the SPEC §3.4 table applies',
  rule: 'spec/semantics/tools.ts toolTable',
  requirements: ['L1-I2'],
  reads: {
    profile: ['/spec/tools/policy', '/spec/tools/allow', '/spec/tools/deny'],
    policy: ['/tools/available', '/tools/grant'],
    base: ['/spec/tools/policy'],
  },
  meets: ['profile-policy', 'base-derived'],
  families: {
    presence: [
      {
        slug: 'absent-is-allowlist',
        description: 'no `policy`: the schema default allowlist applies',
        values: [{ 'profile:/spec/tools/policy': undefined, 'profile:/spec/tools/allow': ['read'] }],
        predicts: 'granted ∩ allow minus deny, exactly as `policy: allowlist`',
        next: ['allowlist-without-allow', 'tools-section-absent'],
      },
      {
        slug: 'allowlist-without-allow',
        description: 'an allowlist (explicit or default) with no `allow` list, with and without a deny list',
        values: [{ 'profile:/spec/tools': { policy: 'allowlist' } }, { 'profile:/spec/tools': { deny: ['shell'] } }],
        predicts: 'no tool at all ("allowlist: only listed tools", nothing is listed)',
        next: ['allow-empty-list', 'absent-is-allowlist'],
      },
      {
        slug: 'allow-empty-list',
        description: '`allow: []` next to an absent `allow`',
        values: [{ 'profile:/spec/tools/allow': [] }],
        predicts: 'no tool (the same as an absent list under allowlist)',
      },
      {
        slug: 'tools-section-absent',
        description: 'no `spec.tools` at all',
        values: [{ 'profile:/spec/tools': undefined }],
        predicts: 'the default allowlist with nothing listed: no tool',
        exclusion:
          'the reading "no tools section = no tools" follows from the schema default, but the spec never says a profile without the section gets nothing; kept as a reading to confirm before a case requires it',
      },
      {
        slug: 'inherit-with-lists',
        description: '`inherit` with an allow list, a deny list, or both',
        values: [
          { 'profile:/spec/tools': { policy: 'inherit', allow: ['read'] } },
          { 'profile:/spec/tools': { policy: 'inherit', deny: ['shell'] } },
        ],
        predicts: 'the whole granted set; each list ignored (a warning SHOULD name it)',
      },
    ],
    numeric: 'the policy is an enum; nothing is numeric',
    text: [
      {
        slug: 'policy-letter-case',
        description: '`Allowlist`, `DENYLIST`',
        values: [{ 'profile:/spec/tools/policy': 'Allowlist' }],
        predicts: 'schema-invalid (enum): refused, L1-P2',
        schemaInvalid: true,
        exclusion: 'a grammar bound, generated from spec/document/schema-bounds.ts',
      },
    ],
    separators: 'the policy is one enum word',
    wildcards: 'the policy is not a pattern',
    escaping: 'escapes are decoded by the parser before the rule reads the word',
    duplicates: 'one key; a duplicate key is ADV-duplicate-keys',
    order: [
      {
        slug: 'denylist-ignores-allow',
        description: '`denylist` with an allow list narrower than the grant',
        values: [{ 'profile:/spec/tools': { policy: 'denylist', allow: ['read'], deny: ['shell'] } }],
        predicts: 'granted minus deny; `allow` ignored',
      },
    ],
    links: [
      {
        slug: 'policy-inherited-from-base',
        description: 'the base says denylist, the derived layer lists tools but no policy',
        values: [{ 'base:/spec/tools/policy': 'denylist', 'profile:/spec/tools/allow': ['read'] }],
        predicts: 'deep merge keeps the base policy: denylist over the derived allow/deny (allow ignored)',
      },
    ],
  },
});

function listDimension(list: 'allow' | 'deny'): Dimension {
  const p = `profile:/spec/tools/${list}`;
  const other = list === 'allow' ? 'deny' : 'allow';
  return dimension({
    id: `tools.${list}`,
    title: `The profile's tools.${list} list against the grant`,
    rule: 'spec/semantics/tools.ts toolTable; spec/semantics/glob.ts',
    requirements: ['L1-I2', 'L1-I3', 'L3-E1', 'L3-B1'],
    reads: {
      profile: ['/spec/tools/allow', '/spec/tools/deny', '/spec/tools/policy'],
      policy: ['/tools/available', '/tools/grant'],
      parent: ['/tools'],
      base: [`/spec/tools/${list}`],
    },
    meets: ['profile-policy', 'parent-child', 'base-derived'],
    families: {
      presence: [
        {
          slug: 'names-an-ungranted-tool',
          description: `the ${list} list names a tool the policy does not grant (or the harness lacks)`,
          values: [{ [p]: ['read', 'shell'], 'policy:/tools/grant': ['read'] }, { [p]: ['teleport'] }],
          predicts:
            list === 'allow'
              ? 'the ungranted tool is absent (intersection, never union)'
              : 'nothing changes: deny of an ungranted tool removes nothing',
        },
        {
          slug: 'grant-empty',
          description: 'the policy grants nothing (`grant: []`), or has nothing (`available: []`)',
          values: [
            { [p]: ['read'], 'policy:/tools/grant': [] },
            { [p]: ['read'], 'policy:/tools/available': [] },
          ],
          predicts: 'no tool under any policy row',
        },
      ],
      numeric: NO_NUMBERS_LIST,
      text: [
        {
          slug: 'letter-case',
          description: 'a name in another case than the harness tool (`Read` for `read`)',
          values: [{ [p]: ['Read'], 'profile:/spec/tools/policy': list === 'allow' ? 'allowlist' : 'denylist' }],
          predicts:
            list === 'allow' ? '`read` is not allowed: tool names are exact strings' : '`read` is not denied: tool names are exact strings',
        },
        {
          slug: 'surrounding-space',
          description: 'a name with a trailing space or newline',
          values: [{ [p]: ['read '] }, { [p]: ['read\n'] }],
          predicts: `names no harness tool: ${list === 'allow' ? 'grants nothing' : 'denies nothing'}`,
        },
        {
          slug: 'non-ascii-name',
          description: 'a name with a non-ASCII letter, composed and decomposed',
          values: [{ [p]: ['caf\u00e9'], 'policy:/tools/available': ['caf\u00e9', 'cafe\u0301'] }],
          predicts: 'exact string match: the composed name only',
          exclusion: 'no harness names tools outside ASCII; kept so a case can be added if one does',
        },
      ],
      separators: [
        {
          slug: 'trailing-slash',
          description: 'a segment name with a trailing slash (`git/`) next to `git/*`',
          values: [{ [p]: ['git/'] }],
          predicts: 'matches no tool (`git/` names an empty tool in the server `git`)',
          next: ['server-wildcard'],
        },
        {
          slug: 'mcp-full-name',
          description: 'an MCP tool by its full `mcp/<server>/<tool>` name',
          values: [{ [p]: ['mcp/github/create_issue'], 'policy:/tools/available': ['mcp/github/create_issue', 'mcp/github/list'] }],
          predicts: list === 'allow' ? 'that one MCP tool' : 'every MCP tool but that one (under denylist)',
        },
      ],
      wildcards: [
        {
          slug: 'server-wildcard',
          description: '`mcp/github/*`, `git/*`: every tool of one segment',
          values: [{ [p]: ['git/*'] }, { [p]: ['mcp/github/*'] }],
          predicts: `${list === 'allow' ? 'allows' : 'denies'} every granted tool one segment below, none two segments below`,
          next: ['glob.tool-names/star-one-segment', 'trailing-slash'],
        },
        {
          slug: 'glob-and-literal-overlap',
          description: `a glob in ${list} and the literal it covers in ${other}`,
          values: [{ 'profile:/spec/tools/allow': ['git/*'], 'profile:/spec/tools/deny': ['git/commit'] }],
          predicts: 'git/* minus git/commit: deny wins over allow whichever is the glob',
        },
        {
          slug: 'bare-star-profile',
          description: 'a bare `*` in the profile (dialects disagree on `*` against `git/diff`)',
          values: [{ [p]: ['*'] }],
          predicts:
            list === 'allow'
              ? 'at most every granted tool (one-sided: the most permissive reading is the bound)'
              : 'at least every one-segment tool removed',
          exclusion: 'the spec fixes no glob dialect for profiles (INTERPRETATIONS.md, Glob dialect): only one-sided bounds may be judged',
        },
      ],
      escaping: [
        {
          slug: 'escaped-star',
          description: 'a literal tool named `a*b` (a backslash-escaped `\\*` in the list)',
          values: [{ [p]: ['a\\*b'], 'policy:/tools/available': ['a*b', 'axb'] }],
          predicts: 'dialect-dependent: picomatch reads `\\*` as a literal star',
          exclusion: 'no tool name needs a star; the spec fixes no escape syntax for profile globs',
        },
      ],
      duplicates: [
        {
          slug: 'name-twice',
          description: `the same name twice in ${list}, and in both allow and deny, under allowlist and denylist`,
          values: [
            { [p]: ['read', 'read'] },
            { 'profile:/spec/tools/allow': ['read'], 'profile:/spec/tools/deny': ['read'] },
            { 'profile:/spec/tools/policy': 'denylist', 'profile:/spec/tools/allow': ['shell'], 'profile:/spec/tools/deny': ['shell'] },
          ],
          predicts:
            'a duplicate changes nothing; a name in both lists is denied (allowlist: allow minus deny; denylist: granted minus deny, allow ignored)',
        },
        {
          slug: 'granted-twice',
          description: 'the harness lists a tool twice in `available`, or two grant globs cover it',
          values: [{ 'policy:/tools/available': ['read', 'read'], 'policy:/tools/grant': ['read', '*'] }],
          predicts: 'the effective list names it once (a set)',
        },
      ],
      order: [
        {
          slug: 'order-insensitive',
          description: 'the same list in reverse order',
          values: [{ [p]: ['shell', 'read'] }, { [p]: ['read', 'shell'] }],
          predicts: 'the same effective set, reported sorted',
        },
      ],
      links: [
        {
          slug: 'parent-effective-tools',
          description: 'a subagent asking for more tools than the parent got (behavioural test 12)',
          values: [{ 'parent:/tools': ['read'], 'profile:/spec/tools/allow': ['read', 'edit', 'shell'] }],
          predicts: 'exactly [read]: the parent is the ceiling, not the harness grant',
        },
        {
          slug: 'array-replaces-base',
          description: 'base `allow: [read, search]`, derived `allow: [read]` (behavioural test 13)',
          values: [{ [`base:/spec/tools/${list}`]: ['read', 'search'], [p]: ['read'] }],
          predicts: 'the derived list alone: arrays replace wholesale (SPEC §4 rule 2)',
        },
      ],
    },
  });
}

const GRANT = dimension({
  id: 'tools.grant',
  title: "The policy's grant globs over the harness's tools",
  rule: 'spec/semantics/tools.ts grantedTools (glob dialect normative for the policy)',
  requirements: ['L1-I3'],
  reads: { policy: ['/tools/available', '/tools/grant'], profile: ['/spec/tools/allow', '/spec/tools/deny'] },
  meets: ['profile-policy'],
  families: {
    presence: [
      {
        slug: 'grant-names-absent-tool',
        description: 'the grant names a tool the harness does not have',
        values: [{ 'policy:/tools/available': ['read'], 'policy:/tools/grant': ['read', 'shell'] }],
        predicts: 'only `read`: the grant filters what is available, it adds nothing',
      },
    ],
    numeric: 'names and globs only',
    text: "grant globs are the protocol's own format; case and spacing are the tools.allow classes on the other side",
    separators: [
      {
        slug: 'star-and-star-slash-star',
        description: '`*` and `*/*` together, next to `**`',
        values: [{ 'policy:/tools/grant': ['*', '*/*'] }, { 'policy:/tools/grant': ['**'] }],
        predicts: 'one- and two-segment tools for the first; every tool for `**`',
        next: ['glob.tool-names/double-star-crosses'],
      },
    ],
    wildcards: 'the glob classes are glob.catalogue.ts (the dialect is normative for the grant)',
    escaping: "the protocol's grant dialect has classes but no tool needs an escape",
    duplicates: 'covered by tools.allow/granted-twice',
    order: 'a grant is a union of globs: order does not matter',
    links: "the grant is the policy's own; no other document links to it",
  },
});

const BINDINGS = dimension({
  id: 'tools.bindings',
  title: 'Per-tool bindings',
  rule: 'harnesses/reference (not in the spec model: no requirement judges bindings)',
  requirements: [],
  reads: { profile: ['/spec/tools/bindings', '/spec/tools/allow'] },
  meets: [],
  families: {
    presence: [
      {
        slug: 'binding-for-ungranted-tool',
        description: 'a binding (with `permission: allow`) for a tool the session does not get',
        values: [{ 'profile:/spec/tools/bindings': [{ name: 'shell', permission: 'allow' }], 'profile:/spec/tools/allow': ['read'] }],
        predicts: 'inert (schema: "A binding for an ungranted tool is inert"); it grants nothing',
        exclusion: 'no conformance ID reads bindings; a binding that grants is a tools widening, caught by L1-I3 tools-within-grant',
      },
    ],
    numeric: 'bindings hold names and a decision',
    text: 'the binding name is matched like tools.allow names',
    separators: 'as tools.allow',
    wildcards: 'a binding names one tool; the schema does not say bindings take globs',
    escaping: 'as tools.allow',
    duplicates: [
      {
        slug: 'two-bindings-one-tool',
        description: 'two bindings for the same tool with different permissions',
        values: [
          {
            'profile:/spec/tools/bindings': [
              { name: 'read', permission: 'allow' },
              { name: 'read', permission: 'deny' },
            ],
          },
        ],
        predicts: "unspecified; whichever wins, the tool's decision stays ≤ the policy",
        exclusion: 'the spec says nothing of per-binding permissions beyond the schema',
      },
    ],
    order: 'see duplicates: the only order question is between bindings for one tool',
    links: 'a binding refers to a tool by name; that is the presence class',
  },
});

export const TOOLS_CATALOGUE: readonly Dimension[] = [POLICY, listDimension('allow'), listDimension('deny'), GRANT, BINDINGS];
