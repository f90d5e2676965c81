/**
 * Delta generation at session end (SPEC §5.5, §6; L2-G1..G5). Operations come only from concrete
 * evidence the session recorded, never from free rewriting of state:
 *   user_statement (fact|preference) -> a new fact / preference entry
 *   decision                         -> a new fact recording the decision
 *   thread_status                    -> status of an existing thread (addressed by id), or a new thread
 *   capability_request               -> a proposal (never an operation: contracts change only by review)
 * New entries get ids derived from their text, so the same statement learned twice has one id and
 * appends rebase cleanly over concurrent writers. Every value passes the redaction pass first.
 * Generating a delta reads the session's in-memory record only; the profile file is not touched.
 */
import { createHash } from 'node:crypto';
import type { EvidenceT } from '../../protocol/messages.js';
import { escapePointerToken } from '../../spec/semantics/index.js';
import type { JsonObject } from './json.js';
import type { Rules } from './rules.js';

export const HARNESS_NAME = 'oap-conform-reference';

export interface DeltaSource {
  sessionId: string;
  name: string;
  revision: number;
  profileDigest: string;
  /** The profile's state as loaded at instantiation. */
  state: JsonObject | undefined;
  startedAt: string;
  harnessVersion: string;
}

type Operation = { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown; reason?: string };
type Proposal = { path: string; op: 'add' | 'replace' | 'remove'; value?: unknown; rationale: string; risk?: 'low' | 'medium' | 'high' };

export function generateDelta(
  src: DeltaSource,
  evidence: readonly EvidenceT[],
  outcome: string,
  now: string,
  rules: Rules,
): JsonObject | null {
  const operations: Operation[] = [];
  const proposals: Proposal[] = [];
  const known = new Set<string>();
  const state = src.state ?? {};
  for (const key of ['facts', 'preferences', 'open_threads'] as const) {
    if (Array.isArray(state[key])) for (const e of state[key] as JsonObject[]) known.add(`${key}:${String(e['id'])}`);
  }
  const source = `session ${src.sessionId}`;

  for (const ev of evidence) {
    if (ev.type === 'user_statement' || ev.type === 'decision') {
      const collection = ev.type === 'user_statement' && ev.about === 'preference' ? 'preferences' : 'facts';
      const prefix = ev.type === 'decision' ? 'decision' : collection === 'facts' ? 'fact' : 'pref';
      const text = rules.redactEvidence(ev.text, ev.type === 'decision' ? 'decision' : 'statement');
      const id = `${prefix}-${createHash('sha256').update(ev.text).digest('hex').slice(0, 12)}`;
      if (known.has(`${collection}:${id}`)) continue;
      known.add(`${collection}:${id}`);
      operations.push({
        op: 'add',
        path: `/state/${collection}/-`,
        value: {
          id,
          text,
          confidence: 1,
          source: ev.type === 'decision' ? `decision recorded in ${source}` : `user statement in ${source}`,
          learned_at: now,
        },
        reason: ev.type === 'decision' ? 'Decision recorded during the session.' : 'Stated explicitly by the user.',
      });
    } else if (ev.type === 'thread_status') {
      if (known.has(`open_threads:${ev.thread_id}`)) {
        operations.push({
          op: 'replace',
          path: `/state/open_threads/id:${escapePointerToken(ev.thread_id)}/status`,
          value: ev.status,
          reason: 'Thread status changed during the session.',
        });
      } else {
        known.add(`open_threads:${ev.thread_id}`);
        operations.push({
          op: 'add',
          path: '/state/open_threads/-',
          value: {
            id: ev.thread_id,
            title: rules.redactEvidence(ev.title ?? ev.thread_id, 'thread-title'),
            status: ev.status,
            opened_at: now,
            updated_at: now,
          },
          reason: 'Thread opened during the session.',
        });
      }
    } else if (ev.type === 'capability_request') {
      if (!rules.proposesCapability(ev)) continue;
      proposals.push({
        path: ev.path,
        op: ev.op,
        ...(ev.value !== undefined ? { value: rules.redactEvidence(ev.value, 'proposal-value') } : {}),
        rationale: rules.redactEvidence(ev.rationale, 'rationale') || 'requested by the session',
      });
    }
  }
  const own = rules.summaryOperation(src.sessionId, outcome);
  if (own) operations.push(own);
  if (operations.length === 0 && proposals.length === 0) return null;

  return rules.assembleDelta({
    target: { name: src.name, revision: rules.deltaTargetRevision(src.revision), digest: src.profileDigest },
    session: {
      id: src.sessionId,
      harness: HARNESS_NAME,
      harness_version: src.harnessVersion,
      started_at: src.startedAt,
      ended_at: now,
      outcome,
    },
    summary: summarize(operations.length, proposals.length),
    operations,
    proposals,
  });
}

function summarize(ops: number, proposals: number): string {
  const parts = [`${ops} state operation${ops === 1 ? '' : 's'} from session evidence`];
  if (proposals > 0) parts.push(`${proposals} proposal${proposals === 1 ? '' : 's'} for human review`);
  return `${parts.join('; ')}.`;
}
