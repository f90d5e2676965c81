/**
 * L1-I2: spec.tools.policy per the table of SPEC §3.4.
 *
 * The harness grants every standard tool here, so the intersection with harness policy (L1-I3's
 * subject) is the identity and the effective set depends on the policy table alone. Expected sets
 * are worked out by hand from the table; globs are limited to `prefix/*` forms whose meaning every
 * glob dialect agrees on (see INTERPRETATIONS.md, Level 1).
 */
import { expectEqual } from '../framework/assert.js';
import { minimalProfile, permissivePolicy, STANDARD_TOOLS } from '../framework/policy.js';
import type { CaseDef } from '../framework/types.js';
import { instantiateSubject, writeProjectProfile } from './support.js';

interface ToolCase {
  slug: string;
  title: string;
  tools: Record<string, unknown> | undefined;
  expected: string[];
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

const TABLE: ToolCase[] = [
  {
    slug: 'allowlist-glob-minus-deny',
    title: 'allowlist: allow (with a glob) intersected with the grant, then minus deny',
    tools: { policy: 'allowlist', allow: ['read', 'search', 'git/*'], deny: ['git/commit'] },
    expected: ['read', 'search', 'git/diff', 'git/log'],
  },
  {
    slug: 'allowlist-is-default',
    title: 'policy absent means allowlist: only the listed tools',
    tools: { allow: ['read', 'edit'] },
    expected: ['read', 'edit'],
  },
  {
    slug: 'allowlist-deny-wins-over-allow',
    title: 'allowlist: a tool both allowed and denied is not granted',
    tools: { policy: 'allowlist', allow: ['read', 'shell', 'web/fetch'], deny: ['shell'] },
    expected: ['read', 'web/fetch'],
  },
  {
    slug: 'denylist-minus-deny',
    title: 'denylist: everything granted minus deny (with a glob)',
    tools: { policy: 'denylist', deny: ['shell', 'web/*'] },
    expected: STANDARD_TOOLS.filter((t) => t !== 'shell' && t !== 'web/fetch'),
  },
  {
    slug: 'denylist-ignores-allow',
    title: 'denylist: allow does not restrict the harness-granted set',
    tools: { policy: 'denylist', allow: ['read'], deny: ['git/commit', 'write'] },
    expected: STANDARD_TOOLS.filter((t) => t !== 'git/commit' && t !== 'write'),
  },
  {
    slug: 'inherit-ignores-allow-and-deny',
    title: 'inherit: the harness-granted set unchanged; allow and deny ignored',
    tools: { policy: 'inherit', allow: ['read'], deny: ['shell'] },
    expected: STANDARD_TOOLS,
  },
];

function toolCase(t: ToolCase): CaseDef {
  return {
    id: `L1-I2/${t.slug}`,
    requirements: ['L1-I2'],
    title: t.title,
    expectation: { tools: sorted(t.expected) },
    async run(ctx) {
      const doc = minimalProfile(`tools-${t.slug}`, t.tools ? { tools: t.tools } : {});
      // Everything granted: the harness side of the intersection is the whole toolset.
      const policy = permissivePolicy({ tools: { available: [...STANDARD_TOOLS], grant: [...STANDARD_TOOLS] } });
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), policy);
      if (t.slug.startsWith('inherit')) ctx.note('warned-about-ignored-lists', session.warnings.length > 0);
      expectEqual(sorted(session.effective.tools), sorted(t.expected), `effective tools under ${JSON.stringify(t.tools)}`);
    },
  };
}

export const toolPolicyCases: CaseDef[] = TABLE.map(toolCase);
