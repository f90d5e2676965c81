/**
 * Hiders: the reference harness behind a realistic quirk that does not violate the requirement a
 * case checks but keeps the case from observing it, the way partial real harnesses do. They are the
 * evidence model's test adapters (builtin:hider/<name>): against them no requirement whose cases
 * were cut short may pass; each such case must end inconclusive with the refusal as its cause.
 *
 *   refuses-narrowing    refuses every instantiation it would have to narrow (any adjustment)
 *   requires-revision    wrongly requires metadata.revision and refuses every profile without it
 *   rejects-everything   validates nothing and instantiates nothing (every document refused)
 *   refuses-append       refuses every delta with an operation at `/-` (it cannot append to its state)
 *   zero-target-digest   fills in a zero target.digest where a delta has none, and so refuses every
 *                        unpinned delta as a digest mismatch
 */
import { loadDocumentFile, parseDocument } from '../../spec/document/index.js';
import type { AdapterIssueT, InstantiateOutcomeT } from '../../protocol/messages.js';
import { createReferenceAdapter } from '../reference/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';

export const HIDERS = ['refuses-narrowing', 'requires-revision', 'rejects-everything', 'refuses-append', 'zero-target-digest'] as const;
export type HiderName = (typeof HIDERS)[number];

type Params = Record<string, unknown>;

const refusal = (category: AdapterIssueT['category'], pointer: string, message: string): InstantiateOutcomeT => ({
  status: 'rejected',
  errors: [{ category, pointer, message }],
  warnings: [],
});

/** What a harness that fills in a digest it never computed compares with. */
const ZERO_DIGEST = `sha256:${'0'.repeat(64)}`;

/** A refused apply_delta: nothing written, so the revision on disk is the file's (1 when it names none). */
const deltaRefusal = (profilePath: string, category: AdapterIssueT['category'], pointer: string, message: string) => ({
  outcome: 'rejected',
  revision: (loadDocumentFile(profilePath).value as { metadata?: { revision?: number } } | undefined)?.metadata?.revision ?? 1,
  errors: [{ category, pointer, message }],
  warnings: [],
  proposals: [],
});

/** Does the document the params name (by content or path) lack metadata.revision? */
function lacksRevision(source: unknown): boolean {
  const s = source as { path?: string; content?: string; encoding?: 'yaml' | 'json' | 'md' };
  const parsed = s.content !== undefined ? parseDocument(s.content, s.encoding ?? 'yaml') : undefined;
  const value = s.path ? loadDocumentFile(s.path).value : parsed?.ok ? parsed.value : undefined;
  const meta = (value as { metadata?: Record<string, unknown> } | undefined)?.metadata;
  return typeof meta === 'object' && meta !== null && meta['revision'] === undefined;
}

export function createHiderAdapter(name: string): InProcessAdapter {
  if (!(HIDERS as readonly string[]).includes(name)) throw new Error(`unknown hider "${name}"; known: ${HIDERS.join(', ')}`);
  const inner = createReferenceAdapter({ name: `oap-conform-reference+hider:${name}` });
  const handle = async (method: string, params: unknown): Promise<unknown> => {
    const p = params as Params;
    if (name === 'rejects-everything') {
      if (method === 'validate')
        return { valid: false, errors: [{ category: 'other', pointer: '', message: 'this harness refuses every document' }], warnings: [] };
      if (method === 'instantiate' || method === 'instantiate_subagent') return refusal('other', '', 'this harness refuses every document');
    }
    if (name === 'requires-revision') {
      if (method === 'validate' && lacksRevision(p['document'])) {
        // Like a real validator, it reports every problem it finds: its own wrong one among them.
        const found = (await inner.handle(method, params)) as { errors: AdapterIssueT[]; warnings: AdapterIssueT[] };
        const revision: AdapterIssueT = {
          category: 'schema',
          pointer: '/metadata/revision',
          message: 'metadata.revision is required here',
        };
        return { valid: false, errors: [revision, ...found.errors], warnings: found.warnings };
      }
      const out = (await inner.handle(method, params)) as InstantiateOutcomeT;
      if (
        (method === 'instantiate' || method === 'instantiate_subagent') &&
        out.status === 'instantiated' &&
        out.session.path &&
        lacksRevision({ path: out.session.path })
      ) {
        return refusal('schema', '/metadata/revision', 'metadata.revision is required here');
      }
      return out;
    }
    if (name === 'refuses-append' && method === 'apply_delta') {
      const ops = (p['delta'] as { operations?: unknown }).operations;
      const at = Array.isArray(ops) ? ops.findIndex((op) => typeof op?.path === 'string' && op.path.endsWith('/-')) : -1;
      if (at >= 0)
        return deltaRefusal(String(p['profile_path']), 'other', `/operations/${at}/path`, 'this harness cannot append to its state at /-');
    }
    if (name === 'zero-target-digest' && method === 'apply_delta') {
      const delta = p['delta'] as { target?: unknown };
      const target = delta.target;
      if (typeof target === 'object' && target !== null && !Array.isArray(target) && !('digest' in target))
        return inner.handle(method, { ...p, delta: { ...delta, target: { ...target, digest: ZERO_DIGEST } } });
    }
    const out = await inner.handle(method, params);
    if (name === 'refuses-narrowing' && (method === 'instantiate' || method === 'instantiate_subagent')) {
      const o = out as InstantiateOutcomeT;
      const narrowed =
        o.status === 'instantiated' ? o.adjustments.find((a) => a.action === 'narrowed' || a.action === 'dropped') : undefined;
      if (narrowed)
        return refusal('other', narrowed.pointer, `this harness refuses a profile it would have to narrow (${narrowed.pointer})`);
    }
    return out;
  };
  return { handle, ...(inner.dispose ? { dispose: () => inner.dispose?.() } : {}) };
}
