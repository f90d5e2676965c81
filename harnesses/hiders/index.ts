/**
 * Hiders: the reference harness behind a realistic quirk that does not violate the requirement a
 * case checks but keeps the case from observing it, the way partial real harnesses do. They are the
 * evidence model's test adapters (builtin:hider/<name>): against them no requirement whose cases
 * were cut short may pass; each such case must end inconclusive with the refusal as its cause, or
 * skipped with the decline's reason when the harness declines honestly.
 *
 *   refuses-narrowing        refuses every instantiation it would have to narrow (any adjustment)
 *   requires-revision        wrongly requires metadata.revision and refuses every profile without it
 *   rejects-everything       validates nothing and instantiates nothing (every document refused)
 *   declines-skill-pins      does not implement skill digest pins, says so in its handshake, and declines
 *                            (not implemented) every instantiation whose profile pins a skill by digest
 *   disclaims-managed-root   declares only the user and project roots, yet reads a managed root
 *                            when it is given one (a first harness's handshake, written cautiously):
 *                            the probe finds it, and the cases judge with it, failing none of it
 *   refuses-append           refuses every delta with an operation at `/-` (it cannot append to its state)
 *   zero-target-digest       fills in a zero target.digest where a delta has none, and so refuses every
 *                            unpinned delta as a digest mismatch
 */
import { loadDocumentFile, parseDocument } from '../../spec/document/index.js';
import { AdapterDecline } from '../../protocol/errors.js';
import type { AdapterIssueT, HandshakeT, InstantiateOutcomeT, Params as MethodParams, Result } from '../../protocol/messages.js';
import { createReferenceAdapter } from '../reference/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';

export const HIDERS = [
  'refuses-narrowing',
  'requires-revision',
  'rejects-everything',
  'declines-skill-pins',
  'disclaims-managed-root',
  'refuses-append',
  'zero-target-digest',
] as const;
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

/** The feature `declines-skill-pins` lists as unimplemented in its handshake. */
const SKILL_PINNING = 'spec.tools.skills.digest_pinning';

type DiscoveryRootsT = MethodParams<'discover'>['roots'];

const isRecord = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Does the profile `selector` names pin a skill by digest, in its own file or in a base it extends?
 * Names are looked up the way the harness discovers them (its own `discover`), so every root counts.
 */
async function pinsASkill(
  inner: InProcessAdapter,
  selector: unknown,
  where: { workspace: string; roots: DiscoveryRootsT },
): Promise<boolean> {
  const found = (await inner.handle('discover', where)) as Result<'discover'>;
  const pathOf = (name: unknown): string | undefined => found.profiles.find((p) => p.name === name)?.path;
  const s = isRecord(selector) ? selector : {};
  const seen = new Set<string>();
  const pins = (path: string | undefined): boolean => {
    if (path === undefined || seen.has(path)) return false;
    seen.add(path);
    const doc = loadDocumentFile(path).value;
    if (!isRecord(doc)) return false;
    const tools = isRecord(doc['spec']) ? doc['spec']['tools'] : undefined;
    const skills = isRecord(tools) && Array.isArray(tools['skills']) ? tools['skills'] : [];
    if (skills.some((k) => isRecord(k) && typeof k['digest'] === 'string')) return true;
    const bases = Array.isArray(doc['extends']) ? doc['extends'] : [];
    return bases.some((b) => isRecord(b) && pins(pathOf(b['name'])));
  };
  return pins(typeof s['path'] === 'string' ? s['path'] : pathOf(s['name']));
}

/**
 * The reference without skill digest pins: the handshake lists them as unimplemented, and every
 * instantiation (a subagent's too) whose profile pins a skill is declined as not implemented,
 * matching pin or not, before the harness would answer it.
 */
function declinesSkillPins(name: string): InProcessAdapter {
  const inner = createReferenceAdapter({ name: `oap-conform-reference+hider:${name}` });
  // Where each live session was loaded from: a subagent is looked up where its parent was.
  const whereOf = new Map<string, { workspace: string; roots: DiscoveryRootsT }>();
  const handle = async (method: string, params: unknown): Promise<unknown> => {
    const p = isRecord(params) ? params : {};
    if (method === 'initialize') {
      const hs = (await inner.handle(method, params)) as HandshakeT;
      return { ...hs, unimplemented: [...hs.unimplemented, SKILL_PINNING] };
    }
    if (method !== 'instantiate' && method !== 'instantiate_subagent') return inner.handle(method, params);
    const where =
      method === 'instantiate'
        ? { workspace: String(p['workspace']), roots: p['roots'] as DiscoveryRootsT }
        : whereOf.get(String(p['parent_session_id']));
    if (where && (await pinsASkill(inner, p['profile'], where)))
      throw new AdapterDecline('not-implemented', `${SKILL_PINNING} is not implemented: the profile pins a skill by digest`);
    const out = (await inner.handle(method, params)) as InstantiateOutcomeT;
    if (where && out.status === 'instantiated') whereOf.set(out.session_id, where);
    return out;
  };
  return { handle, ...(inner.dispose ? { dispose: () => inner.dispose?.() } : {}) };
}

export function createHiderAdapter(name: string): InProcessAdapter {
  if (!(HIDERS as readonly string[]).includes(name)) throw new Error(`unknown hider "${name}"; known: ${HIDERS.join(', ')}`);
  if (name === 'declines-skill-pins') return declinesSkillPins(name);
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
