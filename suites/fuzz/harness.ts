/**
 * Small helpers that turn a fuzz input into adapter calls: write profiles into a fresh project
 * root, instantiate, and judge whether a generated document is one the spec defines.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessPolicyT, InstantiateOutcomeT } from '../../adapters/protocol/messages.js';
import { serializeDocument } from '../framework/workspace.js';
import type { Encoding } from '../framework/types.js';
import { oracleIssues } from './oracle-gate.js';
import type { ExecEnv } from './properties/types.js';

export type Doc = Record<string, unknown>;

const EXT: Record<Encoding, string> = { yaml: 'yaml', json: 'json', md: 'md' };

/** The encoding to write in: the requested one when the adapter accepts it, else its first. */
export function pickEncoding(env: ExecEnv, wanted: Encoding | undefined): Encoding {
  const accepted = env.ctx.handshake.encodings;
  if (wanted && accepted.includes(wanted)) return wanted;
  return accepted.includes('yaml') ? 'yaml' : (accepted[0] ?? 'yaml');
}

/** Write `doc` as `<dir>/.agents/<name>.agent.<ext>` and return its absolute path. */
export function writeProfile(dir: string, doc: Doc, encoding: Encoding): string {
  const name = String((doc.metadata as { name?: unknown } | undefined)?.name ?? 'profile');
  const agents = join(dir, '.agents');
  mkdirSync(agents, { recursive: true });
  const path = join(agents, `${name}.agent.${EXT[encoding]}`);
  writeFileSync(path, serializeDocument(doc, encoding));
  return path;
}

export interface Instantiation {
  outcome: InstantiateOutcomeT;
  dir: string;
}

/**
 * Instantiate `main` (written with any `extra` profiles into a fresh project root) under `policy`.
 * Only the project root is offered: the other roots of the case workspace stay empty anyway.
 */
export async function instantiateIn(
  env: ExecEnv,
  main: Doc,
  policy: HarnessPolicyT,
  opts: { extra?: Doc[]; encoding?: Encoding; dir?: string } = {},
): Promise<Instantiation> {
  const dir = opts.dir ?? env.freshDir();
  const encoding = pickEncoding(env, opts.encoding);
  for (const d of opts.extra ?? []) writeProfile(dir, d, encoding);
  const path = writeProfile(dir, main, encoding);
  env.stats.adapterCalls++;
  const outcome = await env.ctx.adapter.call('instantiate', {
    workspace: dir,
    roots: { project: dir },
    profile: { path },
    policy,
    now: '2026-01-01T00:00:00Z',
  });
  return { outcome, dir };
}

/** Why the oracle refuses `doc` (first error code and pointer), or undefined when it is valid. */
export function undefinedBySpec(doc: Doc): string | undefined {
  const errors = oracleIssues(doc);
  if (errors.length === 0) return undefined;
  const e = errors[0]!;
  return `${e.code} at ${e.pointer || '/'}`;
}

export function countReason(env: ExecEnv, reason: string): void {
  env.stats.reasons[reason] = (env.stats.reasons[reason] ?? 0) + 1;
}
