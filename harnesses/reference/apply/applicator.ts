/**
 * The applicator (SPEC §5.6, §6; L2-A1..A14). In order: validate the delta, check scope, then
 * under the profile lock: read the current file, check the target name and revision (conflict
 * handling per §6.3), verify `target.digest`, honour `lifecycle.writeback`, apply every operation
 * to one copy (all or nothing), validate the result, enforce retention, bump the revision and
 * timestamps, append history, and replace the file atomically in its own encoding. Proposals are
 * never applied; each is returned as pending with the risk this applicator computed.
 *
 * Conflicts: a delta for an older revision is rebased when every operation addresses entries by id
 * or appends (those mean the same thing on the newer revision); otherwise it is rejected with both
 * revisions reported. Either way the outcome is `conflict` and `conflict_resolution` says which.
 * The digest of a delta for an older revision names a document that no longer exists, so it is
 * verified only when the revisions match.
 */
import type { AdapterIssueT, Params, Result } from '../../../protocol/messages.js';
import { type Retention, retentionOf } from '../../../spec/semantics/index.js';
import { HARNESS_NAME } from '../delta-generate.js';
import { readDocumentFile } from '../document.js';
import { adapterIssue, fromOapIssue } from '../issues.js';
import { type Encoding, errorsOf, isObject, type JsonObject } from '../json.js';
import type { Rules } from '../rules.js';
import { serializeProfile } from '../serialize.js';
import { appendHistory } from './history.js';
import { withProfileLock } from './lock.js';
import { type DeltaOperation, OperationError } from './operation.js';
import { applyOperation } from './operations.js';

export type ApplyParams = Params<'apply_delta'>;
export type ApplyResult = Result<'apply_delta'>;
type ProposalStatus = ApplyResult['proposals'][number];

/** A finding at an operation's path (`/operations/<n>/path`): the scope rule's, or the schema's (a missing, non-string or non-/state path). */
const OPERATION_PATH = /^\/operations\/(\d+)\/path$/;
const PATH_FINDINGS = ['schema.pattern', 'schema.type', 'schema.required'];

export async function applyDelta(req: ApplyParams, rules: Rules): Promise<ApplyResult> {
  const now = req.now ?? new Date().toISOString();
  const delta = req.delta as JsonObject;
  const operations = (Array.isArray(delta['operations']) ? delta['operations'] : []) as DeltaOperation[];
  // The document layer's scope findings stand where the operationPath rule refuses the path too.
  const scopeFinding = (code: string, pointer: string): boolean => {
    const m = OPERATION_PATH.exec(pointer);
    if (!m || !(code.startsWith('delta-scope') || PATH_FINDINGS.includes(code))) return false;
    const op: unknown = operations[Number(m[1])];
    return 'path' in rules.operationPath(isObject(op) ? op['path'] : undefined);
  };
  const deltaErrors = errorsOf(rules.deltaIssues(delta))
    .filter((i) => !scopeFinding(i.code, i.pointer))
    .map((i) => fromOapIssue(i));
  operations.forEach((op, i) => {
    const pointer = `/operations/${i}/path`;
    const read = isObject(op) && typeof op.path === 'string' ? rules.operationPath(op.path) : undefined;
    if (read && 'error' in read && !deltaErrors.some((e) => e.pointer === pointer)) {
      deltaErrors.push(adapterIssue('delta-scope', pointer, `operation path ${op.path} is outside /state`));
    }
  });
  if (deltaErrors.length > 0) return rejected(deltaErrors, currentRevision(req.profile_path, rules));

  return withProfileLock(req.profile_path, () => applyLocked(req, delta, operations, now, rules));
}

function applyLocked(req: ApplyParams, delta: JsonObject, operations: DeltaOperation[], now: string, rules: Rules): ApplyResult {
  const read = readDocumentFile(req.profile_path, rules);
  const readErrors = errorsOf(read.value === undefined ? read.issues : [...read.issues, ...rules.profileIssues(read.value, rules)]);
  if (readErrors.length > 0 || !isObject(read.value) || !read.encoding) {
    return rejected(
      readErrors.map((i) => fromOapIssue(i, req.profile_path)),
      0,
    );
  }
  const doc = read.value;
  const meta = doc['metadata'] as JsonObject;
  const revision = rules.currentRevision(meta);
  const target = delta['target'] as JsonObject;
  const rawProposals = (Array.isArray(delta['proposals']) ? delta['proposals'] : []) as JsonObject[];
  const proposals: ProposalStatus[] = rawProposals.map((p, index) => ({
    index,
    path: String(p['path']),
    risk: rules.proposalRisk(p, doc),
    status: 'pending',
  }));
  const base = { revision, errors: [] as AdapterIssueT[], warnings: [] as AdapterIssueT[], proposals };

  if (target['name'] !== meta['name']) {
    return {
      ...base,
      outcome: 'rejected',
      errors: [
        adapterIssue('other', '/target/name', `delta targets "${String(target['name'])}", the profile is "${String(meta['name'])}"`),
      ],
    };
  }
  const conflict = rules.revisionConflict(target['revision'], revision);
  if (conflict && !rules.conflictRebasable(operations)) {
    return {
      ...base,
      outcome: 'conflict',
      conflict_resolution: 'rejected',
      errors: [
        adapterIssue(
          'revision-conflict',
          '/target/revision',
          `delta targets revision ${String(target['revision'])}, the profile is at revision ${revision}; operations address array positions, so it cannot be rebased`,
        ),
      ],
    };
  }
  const actual = !conflict && typeof target['digest'] === 'string' ? rules.targetDigestOf(doc) : undefined;
  if (actual !== undefined && actual !== target['digest']) {
    return {
      ...base,
      outcome: 'rejected',
      errors: [
        adapterIssue(
          'digest-mismatch',
          '/target/digest',
          `profile digest is ${actual}, the delta was made against ${String(target['digest'])}`,
        ),
      ],
    };
  }

  const writeback = rules.writebackMode(doc, { path: req.profile_path, encoding: read.encoding });
  const conflictFields = (resolution: 'rebased' | 'queued'): Partial<ApplyResult> =>
    conflict ? { outcome: 'conflict', conflict_resolution: resolution } : {};
  const gate = rules.writebackGate(writeback, { operations, approved: req.approval.operations });
  if (gate === 'discard') return { ...base, outcome: 'discarded' };
  if (gate === 'queue') return { ...base, outcome: 'queued', ...conflictFields('queued') };
  const appliedProposals = rules.appliedProposals(writeback, rawProposals);
  if (operations.length === 0 && appliedProposals.length === 0) return { ...base, outcome: proposals.length > 0 ? 'queued' : 'applied' };

  // All operations on one copy: the file is replaced only if every one of them succeeded.
  const next = structuredClone(doc);
  const warnings: AdapterIssueT[] = [];
  for (const [i, op] of operations.entries()) {
    const path = rules.operationPath(op.path);
    try {
      const r = applyOperation(next, 'path' in path ? { ...op, path: path.path } : op, rules);
      if (!r.applied) warnings.push(adapterIssue('other', `/operations/${i}/path`, r.warning));
      rules.operationCheckpoint(next, { path: req.profile_path, encoding: read.encoding }, rules);
    } catch (err) {
      if (!(err instanceof OperationError)) throw err;
      return { ...base, outcome: 'rejected', errors: [adapterIssue('other', `/operations/${i}/path`, err.message)], warnings };
    }
  }
  for (const p of appliedProposals)
    applyOperation(
      next,
      { op: (p['op'] as DeltaOperation['op'] | undefined) ?? 'replace', path: String(p['path']), value: p['value'] },
      rules,
    );
  if (appliedProposals.length > 0) for (const p of proposals) p.status = 'applied';
  const invalid = errorsOf(rules.changedProfileIssues(next, rules));
  if (invalid.length > 0) return { ...base, outcome: 'rejected', errors: invalid.map((i) => fromOapIssue(i, req.profile_path)), warnings };

  const sections: Array<'spec' | 'state'> = appliedProposals.length > 0 ? ['spec', 'state'] : ['state'];
  const newRevision = persist(req, next, read.encoding, revision, delta, now, rules, sections);
  return { ...base, revision: newRevision, outcome: 'applied', warnings, ...conflictFields('rebased') };
}

/** Steps 7-10 of SPEC §5.6 on the already-changed document; returns the new revision. */
function persist(
  req: ApplyParams,
  next: JsonObject,
  encoding: Encoding,
  revision: number,
  delta: JsonObject,
  now: string,
  rules: Rules,
  sections: Array<'spec' | 'state'>,
): number {
  const retention: Retention = retentionOf(next['spec']);
  if (!isObject(next['state'])) next['state'] = {};
  next['state'] = rules.retain(next['state'] as JsonObject, retention, now);
  const newRevision = rules.nextRevision(revision, { operations: Array.isArray(delta['operations']) ? delta['operations'].length : 0 });
  rules.stampRevision(next, newRevision, now);
  const session = isObject(delta['session']) ? delta['session'] : {};
  const approver = req.approval.operations ? req.approval.approver : undefined;
  appendHistory(
    next,
    {
      revision: newRevision,
      at: now,
      by: req.actor ?? HARNESS_NAME,
      ...(typeof session['id'] === 'string' ? { session_id: session['id'] } : {}),
      harness: typeof session['harness'] === 'string' ? session['harness'] : HARNESS_NAME,
      change: (typeof delta['summary'] === 'string'
        ? delta['summary']
        : `${(delta['operations'] as unknown[] | undefined)?.length ?? 0} state operation(s)`
      ).slice(0, 1000),
      ...(approver !== undefined ? { approved_by: approver } : {}),
      sections,
    },
    (history) => rules.keptHistory(history, retention),
  );
  rules.saveProfile(req.profile_path, serializeProfile(next, encoding, rules), 'applicator', rules);
  return newRevision;
}

function rejected(errors: AdapterIssueT[], revision: number): ApplyResult {
  return { outcome: 'rejected', revision, errors, warnings: [], proposals: [] };
}

function currentRevision(path: string, rules: Rules): number {
  const read = readDocumentFile(path, rules);
  const meta = isObject(read.value) ? read.value['metadata'] : undefined;
  return isObject(meta) && typeof meta['revision'] === 'number' ? meta['revision'] : read.value ? 1 : 0;
}
