/**
 * A test adapter: the reference harness taking, everywhere the spec leaves room, the other allowed
 * reading (INTERPRETATIONS.md). The suite must not fail it for any of them:
 *  - a `..` token in an operation path is a member literally named `..` inside /state (RFC 6901):
 *    add/replace under a member that does not exist fail the delta as RFC 6902 says, a remove of it
 *    is a warning (L2-A2);
 *  - `history[].by` records the session id (the schema: "harness id, session id, or human identity") (L2-A11);
 *  - end_session also writes the delta into an inbox file beside the profile, never the profile (L2-G3);
 *  - the filesystem grant is stricter than the intersection: no write root at all, recorded (L1-I3);
 *  - the only external memory store kind is not `vector` (L3-Y1: any kind beyond oap-state);
 *  - it cannot load a profile from outside every discovery root, and says so (L1-I4, L3-G1, L3-M2).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdjustmentT, InstantiateOutcomeT, Params } from '../../protocol/messages.js';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import { containingRoot, rootDirs } from '../../harnesses/reference/roots.js';
import { loadDocumentFile } from '../../spec/document/index.js';
import { decodePointer } from '../../spec/semantics/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';

type Obj = Record<string, unknown>;

/** The store kinds this harness implements: none of them is `vector`. */
const STORE_KINDS = ['oap-state', 'maggraph', 'loro-local', 'loro-shared', 'custom'];

const WRITE_ROOTS_NARROWED: AdjustmentT = {
  pointer: '/spec/permissions/filesystem/write_roots',
  action: 'narrowed',
  reason: 'this harness never grants write access to a profile session',
  effective: [],
};

function stricterFilesystem(out: InstantiateOutcomeT): InstantiateOutcomeT {
  if (out.status !== 'instantiated') return out;
  const adjustments = out.effective.filesystem.write_roots.length > 0 ? [...out.adjustments, WRITE_ROOTS_NARROWED] : out.adjustments;
  return { ...out, effective: { ...out.effective, filesystem: { ...out.effective.filesystem, write_roots: [] } }, adjustments };
}

/** An RFC 6902 reading of the delta's `..` paths: no such member exists under /state. */
function literalDotDot(delta: Obj): { delta: Obj; errors: Array<{ index: number; path: string }>; removed: string[] } {
  const ops = Array.isArray(delta['operations']) ? (delta['operations'] as Obj[]) : [];
  const errors: Array<{ index: number; path: string }> = [];
  const removed: string[] = [];
  const kept = ops.filter((op, index) => {
    const path = typeof op['path'] === 'string' ? op['path'] : '';
    if (!(decodePointer(path) ?? []).includes('..')) return true;
    if (op['op'] === 'remove') removed.push(path);
    else errors.push({ index, path });
    return false;
  });
  // A delta without `..` paths goes to the reference as it came (invalid ones included).
  if (kept.length === ops.length) return { delta, errors, removed };
  return { delta: { ...delta, operations: kept }, errors, removed };
}

function revisionOn(path: string): number {
  const meta = (loadDocumentFile(path).value as Obj | undefined)?.['metadata'];
  const revision = typeof meta === 'object' && meta !== null ? (meta as Obj)['revision'] : undefined;
  return typeof revision === 'number' ? revision : 1;
}

export function lenientReadingsAdapter(): InProcessAdapter {
  const ref = createReferenceAdapter();
  const profileOf = new Map<string, string>();
  const record = (out: unknown): unknown => {
    const o = out as InstantiateOutcomeT;
    if (o.status === 'instantiated' && o.session.path) profileOf.set(o.session_id, o.session.path);
    return out;
  };
  return {
    async handle(method, params) {
      if (method === 'initialize') {
        const hs = (await ref.handle(method, params)) as { unimplemented: string[] };
        return { ...hs, unimplemented: [...hs.unimplemented, 'profile-path-outside-roots'] };
      }
      if (method === 'instantiate') {
        const p = params as Params<'instantiate'>;
        if ('path' in p.profile && !containingRoot(p.profile.path, rootDirs(p.roots)))
          return {
            status: 'rejected',
            errors: [{ category: 'other', pointer: '', message: 'this harness loads profiles from its discovery roots only' }],
            warnings: [],
          };
        const policy = {
          ...p.policy,
          memory: { ...p.policy.memory, store_kinds: p.policy.memory.store_kinds.filter((k) => STORE_KINDS.includes(k)) },
        };
        return record(stricterFilesystem((await ref.handle(method, { ...p, policy })) as InstantiateOutcomeT));
      }
      if (method === 'instantiate_subagent' || method === 'describe_session')
        return record(stricterFilesystem((await ref.handle(method, params)) as InstantiateOutcomeT));
      if (method === 'end_session') {
        const p = params as Params<'end_session'>;
        const out = (await ref.handle(method, params)) as { delta: Obj | null };
        const profile = profileOf.get(p.session_id);
        if (out.delta && profile) {
          const inbox = join(dirname(profile), '.oap-inbox');
          mkdirSync(inbox, { recursive: true });
          writeFileSync(join(inbox, `${p.session_id}.delta.json`), `${JSON.stringify(out.delta, null, 2)}\n`);
        }
        return out;
      }
      if (method === 'apply_delta') {
        const p = params as Params<'apply_delta'>;
        const session = p.delta['session'];
        const sessionId = typeof session === 'object' && session !== null ? (session as Obj)['id'] : undefined;
        const literal = literalDotDot(p.delta);
        if (literal.errors.length > 0)
          return {
            outcome: 'rejected',
            revision: revisionOn(p.profile_path),
            errors: literal.errors.map((e) => ({
              category: 'other',
              pointer: `/operations/${e.index}/path`,
              message: `${e.path}: /state has no member ".." (RFC 6901 reads it as a key)`,
            })),
            warnings: [],
            proposals: [],
          };
        const out = (await ref.handle(method, {
          ...p,
          delta: literal.delta,
          ...(typeof sessionId === 'string' ? { actor: sessionId } : {}),
        })) as { warnings: unknown[] };
        const warnings = literal.removed.map((path) => ({
          category: 'other',
          pointer: path,
          message: 'remove of a missing member: no-op',
        }));
        return { ...out, warnings: [...out.warnings, ...warnings] };
      }
      return ref.handle(method, params);
    },
    dispose: () => ref.dispose?.(),
  };
}
