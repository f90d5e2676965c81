/**
 * Probes that a capability the handshake disclaims is really absent (the evidence issue: a case is
 * `not-applicable` only when the harness declared it lacks an optional capability AND a probe
 * confirms it). Each probe returns `absent` with what it observed, or `present` when the harness
 * does the thing after all: then the case runs in full.
 */
import { join } from 'node:path';
import type { HandshakeT } from '../../protocol/messages.js';
import { OMISSION_SENTENCE } from '../../spec/sentences.js';
import type { CaseContext, CaseDef, Encoding, RootKind } from '../kit/types.js';
import { serializeDocument } from '../kit/workspace.js';
import { permissivePolicy } from './policy.js';
import { minimalProfile, workingEncoding, writeProfile } from './profile.js';

/** The `unimplemented` token by which a harness disclaims loading a profile from outside its roots. */
const OUTSIDE_ROOTS_TOKEN = 'profile-path-outside-roots';

export type Need = { kind: 'encoding'; encoding: Encoding } | { kind: 'root'; root: RootKind } | { kind: 'outside-roots' };

export type ProbeResult = { absent: true; observed: string } | { absent: false; observed: string };

/** The needs of `def` the handshake disclaims, in a stable order. */
export function disclaimedNeeds(def: CaseDef, handshake: HandshakeT): Need[] {
  const out: Need[] = [];
  for (const encoding of def.needs?.encodings ?? []) if (!handshake.encodings.includes(encoding)) out.push({ kind: 'encoding', encoding });
  for (const root of def.needs?.roots ?? []) if (!handshake.discovery_roots.includes(root)) out.push({ kind: 'root', root });
  if (def.needs?.outsideRoots && handshake.unimplemented.includes(OUTSIDE_ROOTS_TOKEN)) out.push({ kind: 'outside-roots' });
  return out;
}

/** The sentence that lets a harness below Level 3 lack what `need` asks for (spec/sentences.ts). */
export function omissionSentence(need: Need): string {
  return OMISSION_SENTENCE[need.kind];
}

export function describeNeed(need: Need): string {
  if (need.kind === 'encoding') return `the ${need.encoding} encoding`;
  if (need.kind === 'root') return `the ${need.root} discovery root`;
  return 'loading a profile by path from outside every discovery root';
}

/** Write a minimal profile in the working encoding; returns its path. */
function writeProbeProfile(ctx: CaseContext, dir: string, name: string): string {
  return writeProfile(dir, minimalProfile(name), workingEncoding(ctx.handshake));
}

export async function probe(ctx: CaseContext, need: Need): Promise<ProbeResult> {
  if (need.kind === 'encoding') {
    const content = serializeDocument(minimalProfile('probe-encoding'), need.encoding);
    const r = await ctx.adapter.call('validate', { document: { content, encoding: need.encoding } });
    return r.valid
      ? { absent: false, observed: `validate accepted a valid ${need.encoding} document` }
      : {
          absent: true,
          observed: `validate refused a valid ${need.encoding} document (${r.errors.map((e) => e.category).join(', ') || 'no errors given'})`,
        };
  }
  if (need.kind === 'root') {
    const dir = need.root === 'plugin' ? ctx.workspace.roots.plugin[0]! : ctx.workspace.roots[need.root];
    const name = `probe-${need.root}-root`;
    // The project root is the workspace, whose profiles live in its .agents/ (PROTOCOL.md, roots).
    writeProbeProfile(ctx, need.root === 'project' ? ctx.workspace.projectAgents : dir, name);
    const roots = { project: ctx.workspace.dir, ...(need.root === 'plugin' ? { plugin: [dir] } : { [need.root]: dir }) };
    const found = await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots });
    return found.profiles.some((p) => p.name === name)
      ? { absent: false, observed: `discover listed a profile placed only in the ${need.root} root` }
      : { absent: true, observed: `discover did not list a profile placed only in the ${need.root} root` };
  }
  const path = writeProbeProfile(ctx, join(ctx.workspace.root, 'outside-every-root'), 'probe-outside-roots');
  const r = await ctx.adapter.call('instantiate', {
    workspace: ctx.workspace.dir,
    roots: { project: ctx.workspace.dir },
    profile: { path },
    policy: permissivePolicy(),
  });
  return r.status === 'instantiated'
    ? { absent: false, observed: 'instantiate accepted a profile from outside every root' }
    : { absent: true, observed: `instantiate refused a profile from outside every root (${r.errors.map((e) => e.category).join(', ')})` };
}
