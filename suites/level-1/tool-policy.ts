/**
 * L1-I2: spec.tools.policy per the table of SPEC §3.4.
 *
 * The harness grants every standard tool here, so the intersection with harness policy (L1-I3's
 * subject) is the identity and the effective set depends on the policy table alone. The expected
 * set is the spec model's table (spec/semantics/tools.ts); profile globs are limited to `prefix/*`
 * forms whose meaning every glob dialect agrees on (INTERPRETATIONS.md#glob-dialect).
 */
import { contractComparison, DEFAULT_TOOL_POLICY, grantedTools, type ToolsRequest, toolTable } from '../../spec/semantics/index.js';
import { expectEqual } from '../kit/assert.js';
import type { CaseDef } from '../kit/types.js';
import { STANDARD_TOOLS, instantiateSubject, minimalProfile, permissivePolicy, writeProjectProfile } from '../support/index.js';

interface ToolCase {
  slug: string;
  title: string;
  tools: ToolsRequest | undefined;
}

// Everything granted: the harness side of the intersection is the whole toolset.
const POLICY = permissivePolicy({ tools: { available: [...STANDARD_TOOLS], grant: [...STANDARD_TOOLS] } });

const TABLE: ToolCase[] = [
  {
    slug: 'allowlist-glob-minus-deny',
    title: 'allowlist: allow (with a glob) intersected with the grant, then minus deny',
    tools: { policy: 'allowlist', allow: ['read', 'search', 'git/*'], deny: ['git/commit'] },
  },
  {
    slug: 'allowlist-is-default',
    title: 'policy absent means allowlist: only the listed tools',
    tools: { allow: ['read', 'edit'] },
  },
  {
    slug: 'allowlist-deny-wins-over-allow',
    title: 'allowlist: a tool both allowed and denied is not granted',
    tools: { policy: 'allowlist', allow: ['read', 'shell', 'web/fetch'], deny: ['shell'] },
  },
  {
    slug: 'denylist-minus-deny',
    title: 'denylist: everything granted minus deny (with a glob)',
    tools: { policy: 'denylist', deny: ['shell', 'web/*'] },
  },
  {
    slug: 'denylist-ignores-allow',
    title: 'denylist: allow does not restrict the harness-granted set',
    tools: { policy: 'denylist', allow: ['read'], deny: ['git/commit', 'write'] },
  },
  {
    slug: 'inherit-ignores-allow-and-deny',
    title: 'inherit: the harness-granted set unchanged; allow and deny ignored',
    tools: { policy: 'inherit', allow: ['read'], deny: ['shell'] },
  },
  // Issue 14: one list at a time, and an allowlist that lists nothing.
  {
    slug: 'allowlist-without-allow-grants-nothing',
    title: 'allowlist with no allow list: nothing is listed, so no tool is granted',
    tools: { policy: 'allowlist' },
  },
  {
    slug: 'allowlist-deny-only-grants-nothing',
    title: 'policy absent (allowlist) with only a deny list: still nothing is listed, so no tool is granted',
    tools: { deny: ['shell'] },
  },
  {
    slug: 'inherit-ignores-deny-list',
    title: 'inherit with only a deny list: the harness-granted set unchanged (deny ignored)',
    tools: { policy: 'inherit', deny: ['shell', 'git/*'] },
  },
  {
    slug: 'inherit-ignores-allow-list',
    title: 'inherit with only an allow list: the harness-granted set unchanged (allow ignored)',
    tools: { policy: 'inherit', allow: ['read'] },
  },
];

function toolCase(t: ToolCase): CaseDef {
  const expected = toolTable(t.tools, grantedTools(POLICY.tools)).value;
  return {
    id: `L1-I2/${t.slug}`,
    requirements: ['L1-I2'],
    clauses: [`L1-I2.${t.tools?.policy ?? DEFAULT_TOOL_POLICY}`],
    title: t.title,
    expectation: { tools: expected },
    async run(ctx) {
      const doc = minimalProfile(`tools-${t.slug}`, t.tools ? { tools: t.tools } : {});
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), POLICY);
      if (t.tools?.policy === 'inherit') ctx.note('warned-about-ignored-lists', session.warnings.length > 0);
      // A set: the tools it has and should not, and lacks and should have, by name.
      expectEqual(
        [...session.effective.tools].sort(),
        expected,
        `effective tools under ${JSON.stringify(t.tools)}`,
        contractComparison('/tools'),
      );
    },
  };
}

export const toolPolicyCases: CaseDef[] = TABLE.map(toolCase);
