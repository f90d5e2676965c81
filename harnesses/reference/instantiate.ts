/**
 * Instantiation (SPEC §5.3): resolve, narrow against a ceiling, render the prompt, and record
 * what the session runs with: name, revision and spec digest (L1-I8) and every adjustment (L1-I9).
 */
import type { AdapterIssueT, HarnessPolicyT, InstantiatedT } from '../../protocol/messages.js';
import type { Ceiling } from './ceiling.js';
import { adapterIssue } from './issues.js';
import { isObject, type JsonObject } from './json.js';
import { narrow } from './narrow.js';
import { renderPrompt } from './prompt.js';
import type { ResolvedProfile } from './resolve.js';
import type { Rules } from './rules.js';

export type SessionBody = Omit<InstantiatedT, 'status' | 'session_id'>;

export function buildSession(
  resolved: ResolvedProfile,
  ceiling: Ceiling,
  policy: HarnessPolicyT,
  rules: Rules,
  role: 'primary' | 'subagent',
  parentId?: string,
): SessionBody {
  const narrowed = narrow(resolved, ceiling, policy, rules);
  const effective = rules.stateAuthority(resolved.profile['state'], narrowed.effective, ceiling);
  const prompt = renderPrompt(resolved.profile, effective, rules);
  const modeWarning = runtimeModeWarning(resolved.profile, role);
  return {
    session: {
      name: rules.sessionName(resolved.fileDoc['metadata'] as JsonObject),
      revision: rules.sessionRevision(resolved.fileDoc['metadata'] as JsonObject),
      spec_digest: rules.sessionSpecDigest({ digests: resolved.digests, doc: resolved.fileDoc }),
      trust: resolved.trust,
      path: resolved.path,
      ...(parentId ? { parent_session_id: parentId } : {}),
    },
    effective,
    prompt,
    adjustments: rules.recordedAdjustments(narrowed.adjustments),
    warnings: [...narrowed.warnings, ...(modeWarning ? [modeWarning] : [])],
  };
}

/** `runtime.mode` distinguishes top-level from delegated use; a mismatch is reported, not enforced. */
function runtimeModeWarning(profile: JsonObject, role: 'primary' | 'subagent'): AdapterIssueT | undefined {
  const spec = profile['spec'] as JsonObject;
  const runtime = isObject(spec['runtime']) ? spec['runtime'] : {};
  const mode = runtime['mode'];
  if ((mode === 'subagent' && role === 'primary') || (mode === 'primary' && role === 'subagent')) {
    return adapterIssue('other', '/spec/runtime/mode', `profile declares runtime.mode ${String(mode)} but runs as a ${role} session`);
  }
  return undefined;
}
