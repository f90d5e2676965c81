/**
 * Hiders: the reference harness behind a realistic quirk that does not violate the requirement a
 * case checks but keeps the case from observing it, the way partial real harnesses do. They are the
 * evidence model's test adapters (builtin:hider/<name>): against them no requirement whose cases
 * were cut short may pass; each such case must end inconclusive with the refusal as its cause.
 *
 *   refuses-narrowing        refuses every instantiation it would have to narrow (any adjustment)
 *   requires-revision        wrongly requires metadata.revision and refuses every profile without it
 *   rejects-everything       validates nothing and instantiates nothing (every document refused)
 *   disclaims-managed-root   declares only the user and project roots, yet reads a managed root
 *                            when it is given one (a first harness's handshake, written cautiously):
 *                            the probe finds it, and the cases judge with it, failing none of it
 */
import { loadDocumentFile, parseDocument } from '../../spec/document/index.js';
import type { AdapterIssueT, InstantiateOutcomeT } from '../../protocol/messages.js';
import { createReferenceAdapter } from '../reference/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';

export const HIDERS = ['refuses-narrowing', 'requires-revision', 'rejects-everything', 'disclaims-managed-root'] as const;
export type HiderName = (typeof HIDERS)[number];

type Params = Record<string, unknown>;

const refusal = (category: AdapterIssueT['category'], pointer: string, message: string): InstantiateOutcomeT => ({
  status: 'rejected',
  errors: [{ category, pointer, message }],
  warnings: [],
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
    const out = await inner.handle(method, params);
    if (name === 'disclaims-managed-root' && method === 'initialize') {
      const hs = out as { discovery_roots: string[] };
      return { ...hs, discovery_roots: hs.discovery_roots.filter((r) => r !== 'managed') };
    }
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
