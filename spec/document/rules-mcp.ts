import { pointerOf } from '../semantics/pointer.js';
import { issue, type OapIssue } from './issue.js';
import { selectPattern, type PatternPath } from './select.js';

const ENV_PATTERN: PatternPath = ['spec', 'tools', 'mcp_servers', '*', 'env', '*'];
const HEADER_PATTERN: PatternPath = ['spec', 'tools', 'mcp_servers', '*', 'headers', '*'];
const HEADER_VALUE = /^(Bearer )?\$\{[A-Z][A-Z0-9_]{0,63}\}$/;

/**
 * `mcp_servers[].env` values must be the same-name reference `${KEY}` and header values an
 * optionally Bearer-prefixed reference (SPEC §3.4, §7.3, L1-I6). The schema checks only the
 * `${VAR}` shape, so `TOKEN: ${OTHER}` passes it; and a literal such as `sk-live-abc123` is a
 * secret however short it is, so this check never looks at what the literal resembles.
 *
 * `base`/`prefix` let the same check run inside a delta proposal's value: `base` is where that
 * value would land in the profile, `prefix` is where it sits in the delta.
 */
export function checkMcpSecrets(root: unknown, base: readonly string[] = [], prefix = ''): OapIssue[] {
  const issues: OapIssue[] = [];
  selectPattern(root, base, ENV_PATTERN, (value, relative, absolute) => {
    const key = absolute[5]!;
    const expected = `\${${key}}`;
    if (value === expected) return;
    const reason =
      typeof value === 'string' && /^\$\{[^}]*\}$/.test(value)
        ? `references a different variable; env values must be the same-name reference ${expected}`
        : `is a literal; env values must be the same-name reference ${expected}`;
    issues.push(issue('secret-literal.env', prefix + pointerOf(relative), `env ${key} ${reason}`));
  });
  selectPattern(root, base, HEADER_PATTERN, (value, relative, absolute) => {
    if (typeof value === 'string' && HEADER_VALUE.test(value)) return;
    issues.push(
      issue(
        'secret-literal.header',
        prefix + pointerOf(relative),
        `header ${absolute[5]} is a literal; header values must be \${VAR} or Bearer \${VAR}`,
      ),
    );
  });
  return issues;
}
