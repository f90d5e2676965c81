/**
 * Boundary catalogue of MCP servers. The secret rule lives in spec/document/rules-mcp.ts; which
 * servers are kept, what each offers and how it may launch are ./mcp.ts (SPEC §3.4, §5.2 step 6,
 * §7.3; security.md T2, T3; L1-I6, L3-M1, L3-M2).
 */
import { type Dimension, dimension } from './catalogue-model.js';

/** The harness offers the server's one tool, so the server survives instantiation and its launch can be observed. */
const catalog = { 'policy:/mcp/catalog': { files: ['read_file'] } };

const srv = (extra: Record<string, unknown>) => ({
  'profile:/spec/tools/mcp_servers/0': { name: 'files', transport: 'stdio', command: 'files-mcp', ...extra },
});

export const MCP_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'mcp.secrets',
    title: 'env and headers values are references, never literals',
    rule: "spec/document/rules-mcp.ts checkMcpSecrets (the harness's refusal at instantiate)",
    requirements: ['L1-I6'],
    reads: { profile: ['/spec/tools/mcp_servers/0'], policy: ['/env'] },
    meets: ['profile-policy'],
    families: {
      presence: [
        {
          slug: 'empty-value',
          observedBy: ['L1-P2/bounds-pattern-outside-refused'],
          description: 'an env value `""`',
          values: [srv({ env: { TOKEN: '' } })],
          predicts: 'schema-invalid (not a reference): rejected',
          schemaInvalid: true,
        },
        {
          slug: 'variable-unset',
          observedBy: ['L3-M1/stdio-env-reference-resolution', 'L3-M1/http-env-reference-resolution'],
          description: 'a well-formed reference whose variable the policy env lacks',
          values: [{ ...srv({ env: { TOKEN: '${TOKEN}' } }), 'policy:/env': {} }],
          predicts: 'the server dropped and reported, or the profile refused; never kept (L3-M1)',
        },
      ],
      numeric: "the variable name length bound (1..64) is schema-bounds.ts's",
      text: [
        {
          slug: 'literal',
          observedBy: ['L1-I6/env-literal-sk-live', 'L1-I6/header-bearer-literal', 'L1-I6/header-plain-literal'],
          description: 'literal secrets of any length',
          values: [srv({ env: { TOKEN: 'sk-live-abc123' } }), srv({ headers: { Authorization: 'Bearer sk-live-abc123' } })],
          predicts: 'rejected at instantiate',
          schemaInvalid: true,
        },
        {
          slug: 'trailing-newline',
          observedBy: ['L1-I6/env-reference-trailing-newline', 'L1-I6/header-reference-trailing-newline'],
          description: '`${TOKEN}\\n` (a Python `$` matches before it)',
          values: [srv({ env: { TOKEN: '${TOKEN}\n' } })],
          predicts: 'rejected',
          schemaInvalid: true,
        },
        {
          slug: 'bearer-case',
          description: '`bearer ${T}`, `Bearer  ${T}` (two spaces)',
          values: [srv({ headers: { Authorization: 'bearer ${API_TOKEN}' } })],
          predicts: 'schema-invalid: rejected',
          schemaInvalid: true,
          exclusion: 'a grammar bound (schema-bounds.ts headers pattern)',
        },
      ],
      separators: [
        {
          slug: 'reference-with-suffix',
          observedBy: ['L1-I6/env-reference-with-suffix'],
          description: '`${TOKEN}-prod`, `prefix-${TOKEN}`',
          values: [srv({ env: { TOKEN: '${TOKEN}-prod' } })],
          predicts: 'rejected: a literal around a reference',
          schemaInvalid: true,
        },
      ],
      wildcards: 'references are not patterns',
      escaping: [
        {
          slug: 'bare-dollar',
          observedBy: ['L1-I6/env-bare-dollar'],
          description: '`$TOKEN` and `$${TOKEN}`',
          values: [srv({ env: { TOKEN: '$TOKEN' } })],
          predicts: 'rejected',
          schemaInvalid: true,
        },
      ],
      duplicates: 'one value per key',
      order: 'env and headers are maps',
      links: [
        {
          slug: 'other-name',
          observedBy: ['ADV-env-same-name/env-reference-of-another-name'],
          description: 'an env key referencing another variable (`FILES_TOKEN: ${HOME_TOKEN}`)',
          values: [srv({ env: { FILES_TOKEN: '${HOME_TOKEN}' } })],
          predicts: 'rejected (same-name references only)',
        },
      ],
    },
  }),
  dimension({
    id: 'mcp.servers',
    title: 'Which servers and MCP tools a session gets, and how they launch',
    rule: 'spec/semantics/mcp.ts toolUniverse, serverOffers, launchAllowed, recommendedLaunch',
    requirements: ['L3-M1', 'L3-M2'],
    reads: {
      profile: ['/spec/tools/mcp_servers', '/spec/tools/allow', '/metadata/trust'],
      policy: ['/mcp/catalog', '/mcp/auto_launch', '/env'],
      root: ['/project', '/managed', '/user', '/plugin'],
    },
    meets: ['profile-policy', 'root-root'],
    families: {
      presence: [
        {
          slug: 'transports',
          observedBy: ['L3-M1/stdio-and-http-servers'],
          description: 'a stdio and an http server',
          values: [
            {
              'profile:/spec/tools/mcp_servers': [
                { name: 'files', transport: 'stdio', command: 'files-mcp' },
                { name: 'web', transport: 'http', url: 'https://mcp.example.com' },
              ],
            },
          ],
          predicts: 'both in the session with their transport',
        },
        {
          slug: 'no-tools-section',
          observedBy: ['L3-M1/stdio-and-http-servers'],
          description: 'a server without per-server `tools`',
          values: [srv({})],
          predicts: 'every catalogued tool of the server, within tools.allow and the grant',
        },
      ],
      numeric: 'server lists are bounded by the grammar catalogue',
      text: [
        {
          slug: 'server-name-case',
          description: 'server `Files` against a catalog entry `files`',
          values: [
            {
              'profile:/spec/tools/mcp_servers': [{ name: 'Files', transport: 'stdio', command: 'c' }],
              'policy:/mcp/catalog': { files: ['read'] },
            },
          ],
          predicts: 'a different server (names are exact)',
          exclusion: "the catalog is the protocol's stand-in for launching the server; case is not a question a real launch asks",
        },
      ],
      separators: [
        {
          slug: 'per-server-names',
          observedBy: ['L3-M1/per-server-allow-deny'],
          description: "per-server allow/deny with the server's own tool names, and with full `mcp/<server>/<tool>` names",
          values: [srv({ tools: { deny: ['delete'] } }), srv({ tools: { deny: ['mcp/files/delete'] } })],
          predicts: 'the own name removes mcp/files/delete; the full name in the per-server list names no tool of the server',
        },
        {
          slug: 'slash-in-server-name',
          description: 'a server named `a/b`',
          values: [{ 'profile:/spec/tools/mcp_servers': [{ name: 'a/b', transport: 'stdio', command: 'c' }] }],
          predicts: 'its tools would be `mcp/a/b/<tool>`, ambiguous with a server `a` and tool `b/<tool>`',
          exclusion: 'the spec does not restrict server names; no reading is fixed',
        },
      ],
      wildcards: [
        {
          slug: 'server-star-in-allow',
          observedBy: ['L3-M1/per-server-allow-deny'],
          description: '`mcp/files/*` in tools.allow with a per-server deny',
          values: [{ ...srv({ tools: { deny: ['delete'] } }), 'profile:/spec/tools/allow': ['mcp/files/*'] }],
          predicts: 'every tool of files but delete',
        },
      ],
      escaping: 'server names and commands are passed as written',
      duplicates: [
        {
          slug: 'same-server-twice',
          description: 'two servers with one name',
          values: [
            {
              'profile:/spec/tools/mcp_servers': [
                { name: 'files', transport: 'stdio', command: 'a' },
                { name: 'files', transport: 'http', url: 'u' },
              ],
            },
          ],
          predicts: 'unspecified',
          exclusion: 'the spec does not say server names are unique',
        },
      ],
      order: [
        {
          slug: 'per-server-deny-over-allow',
          observedBy: ['L3-M1/per-server-allow-deny'],
          description: "a tool in the server's allow and deny",
          values: [srv({ tools: { allow: ['read'], deny: ['read'] } })],
          predicts: 'not in the session',
        },
      ],
      links: [
        {
          slug: 'launch-by-trust',
          description:
            'servers of project, imported (plugin) and managed profiles under auto_launch true and false, and files claiming a trust their root does not give',
          values: [
            { ...srv({}), ...catalog, 'policy:/mcp/auto_launch': true, 'root:/project/a.agent.yaml': 'a' },
            { ...srv({}), ...catalog, 'policy:/mcp/auto_launch': false, 'root:/managed/a.agent.yaml': 'a' },
            {
              ...srv({}),
              ...catalog,
              'policy:/mcp/auto_launch': true,
              'root:/project/a.agent.yaml': 'a',
              'profile:/metadata/trust': 'managed',
            },
            {
              ...srv({}),
              ...catalog,
              'policy:/mcp/auto_launch': true,
              'root:/plugin/a.agent.yaml': 'a',
              'profile:/metadata/trust': 'managed',
            },
          ],
          next: ['metadata.trust/file-claims-more'],
          predicts:
            'confirm for project and imported whatever auto_launch says (L3-M2, SHOULD); confirm everywhere when auto_launch is false',
        },
      ],
    },
  }),
];
