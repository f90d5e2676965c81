import { decodePointer, inStateScope } from '../semantics/pointer.js';
import { issue, type OapIssue } from './issue.js';
import { hasOwn, isPlainObject } from './json-data.js';
import { checkMcpSecrets } from './rules-mcp.js';
import { checkProfilePaths } from './rules-paths.js';
import type { RuleOptions } from './rules-profile.js';
import { scanDocument } from './rules-scan.js';

/** SPEC §6.2 / Appendix A: RFC 6902 ops that 1.x reserves. */
const RESERVED_OPS: readonly string[] = ['move', 'copy', 'test'];

const PERCENT_ESCAPE = /%(?:2e|2f|5c|00|25)/i;

function hasDotSegment(token: string): boolean {
  return token.split(/[\\/]/).some((part) => part === '.' || part === '..');
}

/**
 * Whether an operation path stays inside `/state` (SPEC §5.6 step 4, L2-A2), as `delta-scope`
 * detail and message.
 *
 * The schema's `^/state(/.*)?$` is a string prefix test. Under RFC 6901 `/state/../spec` is the
 * member ".." of state, but an applicator that resolves pointers like file paths (or splits a
 * decoded `~1..~1spec` on slashes) lands in /spec, so dot segments are refused however they are
 * spelled. Pointer tokens are not percent-decoded by RFC 6901 (only the URI-fragment form is), so
 * `/state/%2e%2e` is strictly an oddly named key inside state; it is refused anyway, because no
 * legitimate state entry is named that way and a decoding applicator would escape.
 *
 * This is the oracle's document check, stricter than L2-A2 itself: the scope rule is
 * spec/semantics/pointer.ts `inStateScope`, under which a harness may equally apply such a token
 * as a literal key; only an effect outside `/state` fails L2-A2 (INTERPRETATIONS.md#pointers).
 */
export function checkStatePointer(path: string): { why: string; message: string } | undefined {
  const outside = {
    why: 'outside',
    message: `operation path ${JSON.stringify(path)} is outside /state; changes elsewhere belong in proposals`,
  };
  const tokens = decodePointer(path);
  if (tokens === undefined) {
    // Not a pointer at all, so no first token: outside unless its first raw segment is `state`.
    if (path !== '/state' && !path.startsWith('/state/')) return outside;
    return { why: 'invalid-pointer', message: 'operation path is not a valid JSON Pointer (~ must be followed by 0 or 1)' };
  }
  if (!inStateScope(path)) return outside;
  for (const token of tokens.slice(1)) {
    if (token.includes('\u0000')) return { why: 'nul', message: 'operation path contains a NUL character' };
    if (PERCENT_ESCAPE.test(token)) {
      return {
        why: 'percent-encoded',
        message: 'operation path contains a percent-encoded dot or separator, which a decoding applicator would resolve outside /state',
      };
    }
    if (hasDotSegment(token)) return { why: 'dot-segment', message: 'operation path contains a . or .. segment' };
  }
  return undefined;
}

/**
 * Delta rules beyond the schema: operation scope (L2-A2), reserved ops (SPEC §6.2), the
 * document-wide scan, and — inside proposal values, which a human may approve into the
 * profile — the same secret-literal and workspace-path rules a profile gets.
 */
export function checkDeltaRules(doc: unknown, options: RuleOptions = {}): OapIssue[] {
  const issues = scanDocument(doc);
  if (!isPlainObject(doc)) return issues;

  if (Array.isArray(doc.operations)) {
    doc.operations.forEach((op: unknown, i) => {
      if (!isPlainObject(op)) return;
      if (typeof op.op === 'string' && RESERVED_OPS.includes(op.op)) {
        issues.push(issue('delta-reserved-op', `/operations/${i}/op`, `op "${op.op}" is reserved; use add, replace or remove`));
      }
      if (typeof op.path === 'string') {
        const problem = checkStatePointer(op.path);
        if (problem !== undefined) issues.push(issue(`delta-scope.${problem.why}`, `/operations/${i}/path`, problem.message));
      }
    });
  }

  if (Array.isArray(doc.proposals)) {
    doc.proposals.forEach((proposal: unknown, i) => {
      if (!isPlainObject(proposal)) return;
      if (typeof proposal.op === 'string' && RESERVED_OPS.includes(proposal.op)) {
        issues.push(issue('delta-reserved-op', `/proposals/${i}/op`, `op "${proposal.op}" is reserved; use add, replace or remove`));
      }
      if (typeof proposal.path !== 'string') return;
      const tokens = decodePointer(proposal.path);
      if (tokens === undefined || tokens.some((t) => hasDotSegment(t) || PERCENT_ESCAPE.test(t))) {
        issues.push(
          issue('delta-scope.proposal-path', `/proposals/${i}/path`, 'proposal path is not a plain pointer into /metadata or /spec'),
        );
        return;
      }
      if (proposal.op === 'remove' || !hasOwn(proposal, 'value')) return;
      const prefix = `/proposals/${i}/value`;
      issues.push(...checkMcpSecrets(proposal.value, tokens, prefix), ...checkProfilePaths(proposal.value, options, tokens, prefix));
    });
  }
  return issues;
}
