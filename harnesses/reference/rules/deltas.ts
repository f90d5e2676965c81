/** The reference's rules for generating deltas (SPEC §5.5, §6) and applying them (SPEC §5.6). */
import { profileDigest } from '../../../spec/document/index.js';
import {
  arrayIndexOf,
  DEFAULT_MAX_HISTORY,
  idOfToken,
  isPositionIndependent,
  parsePointer,
  type Proposal,
  proposalRisk,
  retainState,
  trimHistory,
  writebackOf,
} from '../../../spec/semantics/index.js';
import { OperationError } from '../apply/operation.js';
import { isObject, type JsonObject } from '../json.js';
import { redactValue } from '../redact.js';
import type { Rules } from '../rules.js';

type DeltaRules = Pick<
  Rules,
  | 'redactEvidence'
  | 'proposesCapability'
  | 'summaryOperation'
  | 'deltaTargetRevision'
  | 'assembleDelta'
  | 'currentRevision'
  | 'proposalRisk'
  | 'revisionConflict'
  | 'conflictRebasable'
  | 'targetDigestOf'
  | 'writebackMode'
  | 'writebackGate'
  | 'appliedProposals'
  | 'operationCheckpoint'
  | 'changedProfileIssues'
  | 'retain'
  | 'nextRevision'
  | 'stampRevision'
  | 'keptHistory'
  | 'operationTokens'
  | 'entryId'
  | 'entryWithId'
  | 'indexOfToken'
  | 'indexExists'
  | 'insertAllowed'
  | 'addAtIndex'
  | 'replaceMissing'
  | 'removeMissing'
>;

export const deltaRules: DeltaRules = {
  redactEvidence: (value) => redactValue(value),
  // Contracts change only by review: a request for /metadata or /spec becomes a proposal.
  proposesCapability: (request) => /^\/(metadata|spec)(\/.*)?$/.test(request.path),
  summaryOperation: () => undefined,
  deltaTargetRevision: (instantiated) => instantiated,
  assembleDelta: ({ target, session, summary, operations, proposals }) => ({
    oap: '1.0',
    kind: 'AgentStateDelta',
    target,
    session,
    summary,
    ...(operations.length > 0 ? { operations } : {}),
    ...(proposals.length > 0 ? { proposals } : {}),
  }),

  currentRevision: (metadata) => (typeof metadata['revision'] === 'number' ? metadata['revision'] : 1),
  proposalRisk: (proposal, doc) => proposalRisk(proposal as unknown as Proposal, doc),
  revisionConflict: (targetRevision, revision) => targetRevision !== revision,
  // Entries addressed by id, and appends, mean the same thing on a newer revision; array positions do not.
  conflictRebasable: (operations) => operations.every((op) => isPositionIndependent(op.path)),
  targetDigestOf: (doc) => profileDigest(doc),
  writebackMode: (doc) => writebackOf(doc['spec']),
  writebackGate: (writeback, { approved }) => (writeback === 'off' ? 'discard' : writeback === 'propose' && !approved ? 'queue' : 'apply'),
  appliedProposals: () => [],
  operationCheckpoint: () => undefined,
  changedProfileIssues: (next, rules) => rules.profileIssues(next, rules),
  retain: (state, retention, now) => retainState(state, retention, now),

  nextRevision: (revision) => revision + 1,

  stampRevision(doc, revision, now) {
    const meta = doc['metadata'] as JsonObject;
    meta['revision'] = revision;
    meta['updated_at'] = now;
    if (isObject(doc['state'])) doc['state']['updated_at'] = now;
  },

  keptHistory: (history, retention) => trimHistory(history, retention.max_history ?? DEFAULT_MAX_HISTORY),
  operationTokens: (path) => parsePointer(path),
  entryId: (token) => idOfToken(token),
  entryWithId: (entries, id) => entries.findIndex((e) => isObject(e) && e['id'] === id),
  indexOfToken: (token) => arrayIndexOf(token),
  indexExists: (index, length) => index < length,
  insertAllowed: (index, length) => index <= length,
  addAtIndex(array, index, value) {
    array.splice(index, 0, value);
  },
  replaceMissing(_array, op) {
    throw new OperationError(`${op.path}: no such element`);
  },
  removeMissing: (op) => ({ applied: false, warning: `${op.path}: nothing to remove (no-op)` }),
};
