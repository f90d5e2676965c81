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
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { AdapterIssueT, Params, Result } from '../../../protocol/messages.js';
import { writeFileAtomic, writeFileInPlace } from '../atomic-write.js';
import { HARNESS_NAME } from '../delta-generate.js';
import {
  digestsOf,
  plainJsonDigest,
  errorsOf,
  isObject,
  readDocumentFile,
  validateDelta,
  validateProfile,
  type Encoding,
  type JsonObject,
} from '../document.js';
import { adapterIssue, fromOapIssue } from '../issues.js';
import type { Quirks } from '../quirks.js';
import { serializeProfile } from '../serialize.js';
import {
  capEntries,
  DEFAULT_EVICTION,
  DEFAULT_MAX_HISTORY,
  factEvictionKey,
  factExpired,
  inStateScope,
  isPositionIndependent,
  type Proposal,
  proposalRisk,
  type Retention,
  retainState,
  retentionOf,
  type Writeback,
  writebackOf,
} from '../../../spec/semantics/index.js';
import { appendHistory } from './history.js';
import { withProfileLock } from './lock.js';
import { applyOperation, OperationError, type DeltaOperation } from './operations.js';

/** The risk-guarded-paths-only mutant's idea of a guarded section: a path prefix. */
const GUARDED_PREFIXES = ['/spec/tools', '/spec/permissions', '/spec/memory', '/spec/runtime/subagents'];

export type ApplyParams = Params<'apply_delta'>;
export type ApplyResult = Result<'apply_delta'>;
type ProposalStatus = ApplyResult['proposals'][number];

/** What a caller inside the harness may decide instead of the profile (a mutant's end_session). */
export interface ApplyOverride {
  writeback?: Writeback;
}

export async function applyDelta(req: ApplyParams, quirks: Quirks, override: ApplyOverride = {}): Promise<ApplyResult> {
  const now = req.now ?? new Date().toISOString();
  const delta = req.delta as JsonObject;
  const deltaErrors = errorsOf(validateDelta(delta, quirks)).map((i) => fromOapIssue(i));
  const operations = (Array.isArray(delta['operations']) ? delta['operations'] : []) as DeltaOperation[];
  if (!quirks.has('ops-outside-state-applied')) {
    operations.forEach((op, i) => {
      if (
        isObject(op) &&
        typeof op.path === 'string' &&
        !inStateScope(op.path) &&
        !deltaErrors.some((e) => e.pointer === `/operations/${i}/path`)
      ) {
        deltaErrors.push(adapterIssue('delta-scope', `/operations/${i}/path`, `operation path ${op.path} is outside /state`));
      }
    });
  }
  if (deltaErrors.length > 0) return rejected(deltaErrors, currentRevision(req.profile_path, quirks));

  return withProfileLock(req.profile_path, () => applyLocked(req, delta, operations, now, quirks, override));
}

function applyLocked(
  req: ApplyParams,
  delta: JsonObject,
  operations: DeltaOperation[],
  now: string,
  quirks: Quirks,
  override: ApplyOverride,
): ApplyResult {
  const read = readDocumentFile(req.profile_path, quirks);
  const readErrors = errorsOf(read.value === undefined ? read.issues : [...read.issues, ...validateProfile(read.value, quirks)]);
  if (readErrors.length > 0 || !isObject(read.value) || !read.encoding) {
    return rejected(
      readErrors.map((i) => fromOapIssue(i, req.profile_path)),
      0,
    );
  }
  const doc = read.value;
  const meta = doc['metadata'] as JsonObject;
  const revision = typeof meta['revision'] === 'number' ? meta['revision'] : 1;
  const target = delta['target'] as JsonObject;
  const spec = doc['spec'] as JsonObject;
  const lifecycle = isObject(spec['lifecycle']) ? spec['lifecycle'] : {};
  const rawProposals = (Array.isArray(delta['proposals']) ? delta['proposals'] : []) as JsonObject[];
  // L2-A8 mutants: the document's risk taken as given; or (issue 14) classified only for paths inside
  // a guarded section, so a parent (/spec/runtime, /spec) keeps the document's risk.
  const documentRisk = (p: JsonObject): boolean =>
    quirks.has('proposal-risk-from-document') ||
    (quirks.has('risk-guarded-paths-only') && !GUARDED_PREFIXES.some((g) => String(p['path']).startsWith(g)));
  const proposals: ProposalStatus[] = rawProposals.map((p, index) => ({
    index,
    path: String(p['path']),
    risk: documentRisk(p) ? ((p['risk'] as ProposalStatus['risk'] | undefined) ?? 'medium') : proposalRisk(p as unknown as Proposal, doc),
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
  const conflict = target['revision'] !== revision && !quirks.has('blind-write-on-conflict');
  if (conflict && !operations.every((op) => isPositionIndependent(op.path))) {
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
  if (!conflict && typeof target['digest'] === 'string' && !quirks.has('ignores-target-digest')) {
    // The L2-A4 mutant (issue 14): the document hashed as read (key order of the file), not in JCS form.
    const actual = quirks.has('target-digest-not-canonical') ? plainJsonDigest(doc) : digestsOf(doc).profile_digest;
    if (actual !== target['digest']) {
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
  }

  let writeback = override.writeback ?? writebackOf(spec);
  // L2-A6 mutants: `off` read as propose; an absent value read as auto instead of the default.
  if (writeback === 'off' && quirks.has('writeback-off-ignored')) writeback = 'propose';
  if (lifecycle['writeback'] === undefined && quirks.has('writeback-default-auto')) writeback = 'auto';
  // L2-A6 mutants (issue 14): an annotation named writeback wins over spec.lifecycle; the
  // lifecycle block is re-read from the YAML text with YAML 1.1 booleans (`off` becomes false).
  const annotations = isObject(meta['annotations']) ? meta['annotations'] : {};
  if (quirks.has('writeback-from-annotation') && typeof annotations['writeback'] === 'string')
    writeback = writebackOf({ lifecycle: { writeback: annotations['writeback'] } });
  if (quirks.has('writeback-yaml11-off') && read.encoding === 'yaml')
    writeback = writebackOf(parseYaml(readFileSync(req.profile_path, 'utf8'), { version: '1.1' })?.spec);
  // The L2-A6 mutant (issue 14): a delta replacing the whole state is written as a snapshot, past the gate.
  const snapshot =
    quirks.has('state-snapshot-skips-writeback') &&
    operations.length === 1 &&
    operations[0]!.op === 'replace' &&
    operations[0]!.path === '/state';
  const conflictFields = (resolution: 'rebased' | 'queued'): Partial<ApplyResult> =>
    conflict ? { outcome: 'conflict', conflict_resolution: resolution } : {};
  if (writeback === 'off' && !snapshot) return { ...base, outcome: 'discarded' };
  // L2-A6 mutants: propose without the approval gate; auto behind one.
  const gated =
    (writeback === 'propose' && !quirks.has('propose-approval-ignored')) || (writeback === 'auto' && quirks.has('auto-needs-approval'));
  if (gated && !snapshot && !req.approval.operations) return { ...base, outcome: 'queued', ...conflictFields('queued') };
  const applyProposals = writeback === 'auto' && quirks.has('proposals-applied-under-auto') && rawProposals.length > 0;
  if (operations.length === 0 && !applyProposals) return { ...base, outcome: proposals.length > 0 ? 'queued' : 'applied' };

  // All operations on one copy: the file is replaced only if every one of them succeeded.
  // The L2-A5 mutant saves the profile after each operation instead, so a failing operation (or a
  // kill between two of them) leaves the earlier ones on disk.
  const saveEachOp = quirks.has('non-atomic-ops');
  const next = structuredClone(doc);
  const warnings: AdapterIssueT[] = [];
  for (const [i, op] of operations.entries()) {
    const effectiveOp = quirks.has('ops-outside-state-applied') ? { ...op, path: normalizeAsFilePath(op.path) } : op;
    try {
      const r = applyOperation(next, effectiveOp, quirks);
      if (!r.applied) warnings.push(adapterIssue('other', `/operations/${i}/path`, r.warning));
      if (saveEachOp) writeFileAtomic(req.profile_path, serializeProfile(next, read.encoding, quirks), quirks);
    } catch (err) {
      if (!(err instanceof OperationError)) throw err;
      return { ...base, outcome: 'rejected', errors: [adapterIssue('other', `/operations/${i}/path`, err.message)], warnings };
    }
  }
  if (applyProposals) {
    for (const p of rawProposals)
      applyOperation(
        next,
        { op: (p['op'] as DeltaOperation['op'] | undefined) ?? 'replace', path: String(p['path']), value: p['value'] },
        quirks,
      );
    for (const p of proposals) p.status = 'applied';
  }
  // The L2-A5 mutant (issue 14): the changed profile is written without validating it.
  const invalid = quirks.has('result-not-validated') ? [] : errorsOf(validateProfile(next, quirks));
  if (invalid.length > 0) return { ...base, outcome: 'rejected', errors: invalid.map((i) => fromOapIssue(i, req.profile_path)), warnings };

  const newRevision = persist(req, next, read.encoding, revision, delta, now, quirks, applyProposals ? ['spec', 'state'] : ['state']);
  return { ...base, revision: newRevision, outcome: 'applied', warnings, ...conflictFields('rebased') };
}

/** The L2-A2 mutant's mistake: treating a pointer as a file path and normalizing it. */
function normalizeAsFilePath(path: string): string {
  const out: string[] = [];
  for (const t of path.split('/').slice(1)) {
    if (t === '.') continue;
    if (t === '..') out.pop();
    else out.push(t);
  }
  return `/${out.join('/')}`;
}

/** Steps 7-10 of SPEC §5.6 on the already-changed document; returns the new revision. */
function persist(
  req: ApplyParams,
  next: JsonObject,
  encoding: Encoding,
  revision: number,
  delta: JsonObject,
  now: string,
  quirks: Quirks,
  sections: Array<'spec' | 'state'>,
): number {
  const retention = retentionOf(next['spec']);
  // L2-A9 mutants (issue 14): a cap of 0 read as "no cap" (`if (max_facts)`); fact_ttl_days never applied.
  const enforced: Retention = {
    ...retention,
    ...(quirks.has('retention-zero-means-unlimited')
      ? { max_facts: retention.max_facts || undefined, max_open_threads: retention.max_open_threads || undefined }
      : {}),
    ...(quirks.has('fact-ttl-ignored') ? { fact_ttl_days: undefined } : {}),
  };
  if (!isObject(next['state'])) next['state'] = {};
  if (!quirks.has('retention-not-enforced')) {
    // The L2-A9 mutant (issue 14): facts without the eviction strategy's key are never evicted.
    next['state'] = quirks.has('retention-skips-unkeyed-facts')
      ? retainKeyedOnly(next['state'] as JsonObject, enforced, now)
      : retainState(next['state'] as JsonObject, enforced, now);
  }
  const state = next['state'] as JsonObject;
  const meta = next['metadata'] as JsonObject;
  const newRevision = revision + 1;
  meta['revision'] = newRevision;
  meta['updated_at'] = now;
  if (!quirks.has('state-updated-at-not-set')) state['updated_at'] = now;
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
    // The L2-A11 mutant (issue 14): `max_history || 50`, so a limit of 0 keeps the default 50.
    quirks.has('history-zero-means-unlimited')
      ? retention.max_history || DEFAULT_MAX_HISTORY
      : (retention.max_history ?? DEFAULT_MAX_HISTORY),
    !quirks.has('history-not-trimmed'),
  );
  const text = serializeProfile(next, encoding, quirks);
  if (quirks.has('write-in-place')) writeFileInPlace(req.profile_path, text);
  else writeFileAtomic(req.profile_path, text, quirks);
  return newRevision;
}

/** The retention-skips-unkeyed-facts mutant: only facts carrying the eviction key are candidates. */
function retainKeyedOnly(state: JsonObject, retention: Retention, now: string): JsonObject {
  const eviction = retention.eviction ?? DEFAULT_EVICTION;
  const field = { oldest: 'learned_at', least_confident: 'confidence', least_recently_used: 'last_used_at' }[eviction];
  const keyed = (f: JsonObject): boolean => f[field] !== undefined || (eviction === 'least_recently_used' && f['learned_at'] !== undefined);
  if (!Array.isArray(state['facts'])) return retainState(state, retention, now);
  const out = retainState({ ...state, facts: [] }, retention, now);
  const fresh = (state['facts'] as JsonObject[]).filter((f) => !factExpired(f, retention, now));
  const facts =
    retention.max_facts === undefined
      ? fresh
      : capEntries(
          fresh,
          retention.max_facts,
          (f) => factEvictionKey(f, eviction),
          (f) => f['pinned'] === true || !keyed(f),
        );
  return { ...out, facts };
}

function rejected(errors: AdapterIssueT[], revision: number): ApplyResult {
  return { outcome: 'rejected', revision, errors, warnings: [], proposals: [] };
}

function currentRevision(path: string, quirks: Quirks): number {
  const read = readDocumentFile(path, quirks);
  const meta = isObject(read.value) ? read.value['metadata'] : undefined;
  return isObject(meta) && typeof meta['revision'] === 'number' ? meta['revision'] : read.value ? 1 : 0;
}
