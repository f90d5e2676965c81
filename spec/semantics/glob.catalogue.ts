/**
 * Boundary catalogue of the tool-name glob dialect (rule: ./glob.ts globMatch; SPEC §3.4 "Names
 * MAY be globs"; L1-I2, L1-I3). The dialect is normative for the policy's grant (the protocol's
 * format); profile patterns are judged only where every dialect agrees, so the classes a dialect
 * decides are marked excluded for the profile side.
 */
import { type Dimension, dimension } from './catalogue-model.js';

/** The policy grants `pattern` over a harness with the one tool `name`, which the profile asks for by name (so only the grant decides). */
const g = (pattern: string, name: string) => ({
  'policy:/tools/grant': [pattern],
  'policy:/tools/available': [name],
  'profile:/spec/tools/allow': [name],
});
const DIALECT = 'the spec fixes no glob dialect for profile lists; judged on the policy grant only (INTERPRETATIONS.md, Glob dialect)';

export const GLOB_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'glob.tool-names',
    title: 'A tool glob against a concrete tool name',
    rule: 'spec/semantics/glob.ts globMatch',
    requirements: ['L1-I2', 'L1-I3'],
    reads: { policy: ['/tools/grant', '/tools/available'], profile: ['/spec/tools/allow', '/spec/tools/deny'] },
    meets: ['profile-policy'],
    families: {
      presence: [
        {
          slug: 'empty-pattern',
          description: 'an empty string as a pattern',
          values: [g('', 'read')],
          predicts: 'matches no tool',
        },
      ],
      numeric: 'patterns are text',
      text: [
        {
          slug: 'case-sensitive',
          description: '`Read` against `read`, `GIT/*` against `git/diff`',
          values: [g('Read', 'read'), g('GIT/*', 'git/diff')],
          predicts: 'no match: matching is case-sensitive',
        },
      ],
      separators: [
        {
          slug: 'star-one-segment',
          description: '`*` against a one-segment and a two-segment name',
          values: [g('*', 'read'), g('*', 'git/diff')],
          predicts: '`read` matches, `git/diff` does not: `*` stays inside one segment',
          next: ['double-star-crosses', 'segment-prefix'],
        },
        {
          slug: 'segment-prefix',
          description: '`git/*` against `github/x` and `git` itself',
          values: [g('git/*', 'github/x'), g('git/*', 'git')],
          predicts: 'neither matches: the prefix is a whole segment, and `git/*` needs a segment below it',
        },
        {
          slug: 'server-star-depth',
          description: '`mcp/github/*` against `mcp/github/a/b`',
          values: [g('mcp/github/*', 'mcp/github/a/b')],
          predicts: 'no match: one segment only',
        },
      ],
      wildcards: [
        {
          slug: 'double-star-crosses',
          description: '`**` against names of one, two and three segments; `a/**` against `a`',
          values: [g('**', 'read'), g('**', 'mcp/github/issues'), g('git/**', 'git')],
          predicts: 'all match (`a/**` includes `a` itself in this dialect)',
        },
        {
          slug: 'question-mark',
          description: '`git/?iff` against `git/diff`; `?` against `/`',
          values: [g('git/?iff', 'git/diff'), g('git?diff', 'git/diff')],
          predicts: 'the first matches; `?` never matches the separator',
        },
        {
          slug: 'class',
          description: '`web/[fx]etch`, negated `[!f]etch`',
          values: [g('web/[fx]etch', 'web/fetch'), g('web/[!f]etch', 'web/fetch')],
          predicts: 'the class matches, the negated class does not',
        },
        {
          slug: 'leading-dot',
          description: '`*` against `.hidden`',
          values: [g('*', '.hidden')],
          predicts: 'matches: a leading dot is an ordinary letter',
        },
        {
          slug: 'braces-literal',
          description: '`{read,edit}` against `read`; `+(a)` against `a`',
          values: [g('{read,edit}', 'read'), g('+(a)', 'a')],
          predicts: 'no match: no brace or extglob expansion',
        },
        {
          slug: 'profile-side-globs',
          description: 'the same patterns in a profile allow list',
          values: [{ 'profile:/spec/tools/allow': ['*'] }, { 'profile:/spec/tools/allow': ['{read,edit}'] }],
          predicts: 'one-sided bounds only: at most every granted tool',
          exclusion: DIALECT,
        },
      ],
      escaping: [
        {
          slug: 'escaped-metacharacter',
          description: '`a\\*` against `a*` and `ab`',
          values: [g('a\\*', 'a*'), g('a\\*', 'ab')],
          predicts: 'matches the literal `a*` only',
          exclusion: 'no harness tool name contains a glob metacharacter',
        },
      ],
      duplicates: "a pattern list is a union; duplicates are the tools dimensions' classes",
      order: 'a single pattern against a single name has no order',
      links: 'a pattern refers to no other document',
    },
  }),
];
