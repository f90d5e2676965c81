/**
 * The probes calibration and the owning cases share: one legal form of a profile or a delta, sent
 * to the adapter, accepted or refused. A form is a set of accommodations (suites/kit/forms.ts): the
 * empty set is the plain form every case builds; each accommodation changes one thing the spec
 * lets a document or delta say another way. A probe builds its form explicitly, never through the
 * case scope, so the form it reports is the form it sent.
 */
import type { AdapterIssueT } from '../../protocol/messages.js';
import { profileDigest, specDigest } from '../../spec/document/index.js';
import type { Accommodation } from '../kit/accommodations.js';
import { fillOptionalMetadata } from '../kit/forms.js';
import type { CaseContext, Encoding } from '../kit/types.js';
import { serializeDocument } from '../kit/workspace.js';
import { findEntry } from '../level-2/support/apply.js';
import { APPLY_NOW, addFact, delta, entry, profile } from '../level-2/support/builders.js';
import { instantiatePath, minimalProfile, readBack, workingEncoding, writeProfile } from '../support/index.js';

export interface ProbeResult {
  accepted: boolean;
  /** What the adapter said, in one line: the requests and their outcomes, with issue categories and pointers. */
  evidence: string;
  /** Requests sent. */
  requests: number;
}

const briefly = (issues: readonly AdapterIssueT[]): string =>
  issues.length === 0 ? 'no issue given' : issues.map((i) => `${i.category} at ${i.pointer || '/'}`).join('; ');

/** The encoding a profile form is written in: its `encoding-*` accommodation, else the working encoding. */
function encodingOf(ctx: CaseContext, form: readonly Accommodation[]): Encoding {
  const named = form.find((a) => a.startsWith('encoding-'));
  return named ? (named.slice('encoding-'.length) as Encoding) : workingEncoding(ctx.handshake, ['yaml', 'json', 'md']);
}

/** The profile form in words, for the header and the records: `yaml, metadata.revision given`. */
export function describeProfileForm(ctx: CaseContext, form: readonly Accommodation[]): string {
  const metadata = [
    form.includes('metadata-revision') ? 'metadata.revision given' : 'metadata.revision absent',
    form.includes('metadata-updated-at') ? 'metadata.updated_at given' : 'metadata.updated_at absent',
  ];
  return `${encodingOf(ctx, form)}, ${metadata.join(', ')}`;
}

/**
 * A minimal valid profile in `form`: validated by content, then instantiated by path from the
 * project root. Accepted when both accept it (a refused validate ends the probe: one request).
 */
export async function probeProfile(ctx: CaseContext, form: readonly Accommodation[], name: string): Promise<ProbeResult> {
  const encoding = encodingOf(ctx, form);
  const { doc } = fillOptionalMetadata(minimalProfile(name), form);
  const v = await ctx.adapter.call('validate', { document: { content: serializeDocument(doc, encoding), encoding } });
  if (!v.valid) return { accepted: false, evidence: `validate refused it (${briefly(v.errors)})`, requests: 1 };
  const path = writeProfile(`${ctx.workspace.projectAgents}`, doc, encoding, name);
  ctx.input(`profile form ${describeProfileForm(ctx, form)}`, serializeDocument(doc, encoding));
  const out = await instantiatePath(ctx, path);
  if (out.status !== 'instantiated')
    return { accepted: false, evidence: `validate accepted it, instantiate refused it (${briefly(out.errors)})`, requests: 2 };
  return { accepted: true, evidence: 'validate and instantiate accepted it', requests: 2 };
}

/** The delta form in words: `append at /-, target by revision alone`. */
export function describeDeltaForm(form: readonly Accommodation[]): string {
  const append = form.includes('append-by-index')
    ? 'append at the next index'
    : form.includes('append-by-id')
      ? 'append at id:<id>'
      : 'append at /-';
  const pin = form.includes('pin-profile-digest')
    ? 'target pinned by the profile digest'
    : form.includes('pin-spec-digest')
      ? 'target pinned by the spec digest'
      : 'target by revision alone';
  return `${append}, ${pin}`;
}

/**
 * A valid one-operation delta in `form` (an appended fact), applied under `writeback: auto` to a
 * profile with one fact, written in `profileForm`. Accepted when it is applied and the fact is on
 * disk, read back by the oracle.
 */
export async function probeDelta(
  ctx: CaseContext,
  form: readonly Accommodation[],
  profileForm: readonly Accommodation[],
  dirName: string,
): Promise<ProbeResult> {
  const name = 'calibrate-delta';
  const pre = fillOptionalMetadata(
    profile(name, { writeback: 'auto', revision: 1, state: { facts: [entry('fact-a', 'The build runs nightly.')] } }),
    profileForm,
  ).doc as Record<string, unknown>;
  const added = entry('fact-probe', 'A fact appended by calibration.');
  const op = addFact(added);
  if (form.includes('append-by-index')) op['path'] = '/state/facts/1';
  if (form.includes('append-by-id')) op['path'] = `/state/facts/id:${added.id}`;
  const digest = form.includes('pin-profile-digest') ? profileDigest(pre) : form.includes('pin-spec-digest') ? specDigest(pre) : undefined;
  const d = delta(name, [op], { revision: 1, ...(digest ? { digest } : {}) });
  const path = writeProfile(`${ctx.workspace.dir}/${dirName}/.agents`, pre, encodingOf(ctx, profileForm));
  ctx.input(`delta form ${describeDeltaForm(form)}`, d);
  const r = await ctx.adapter.call('apply_delta', {
    profile_path: path,
    delta: d,
    approval: { operations: true, approver: 'calibration@example.com' },
    now: APPLY_NOW,
  });
  const read = readBack(path);
  const onDisk = read.ok && findEntry(read.doc, 'facts', added.id) !== undefined;
  if (r.outcome === 'applied' && onDisk) return { accepted: true, evidence: 'applied, and the fact is on disk', requests: 1 };
  return {
    accepted: false,
    evidence: `${r.outcome}${r.outcome === 'applied' ? ' but the fact is not on disk' : ''} (${briefly(r.errors)})`,
    requests: 1,
  };
}
