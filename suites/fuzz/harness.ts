/**
 * Small helpers that turn a fuzz input into adapter calls: write profiles into a fresh project
 * root, instantiate, and judge whether a generated document is one the spec defines.
 */
import { join } from 'node:path';
import type { HarnessPolicyT, InstantiateOutcomeT } from '../../adapters/protocol/messages.js';
import type { Encoding } from '../framework/types.js';
import { oracleIssues } from './oracle-gate.js';
import type { ExecEnv } from './properties/types.js';
import { workingEncoding, writeProfile } from '../support/index.js';

export type Doc = Record<string, unknown>;

/** The encoding to write in: the one the input asks for when the adapter accepts it, else the working encoding. */
export function inputEncoding(env: ExecEnv, wanted: Encoding | undefined): Encoding {
  return workingEncoding(env.ctx.handshake, wanted ? [wanted, 'yaml', 'json', 'md'] : undefined);
}

/** Write `doc` into the project root of the run directory `dir` (`<dir>/.agents/`) and return its path. */
export function writeRunProfile(dir: string, doc: Doc, encoding: Encoding): string {
  return writeProfile(join(dir, '.agents'), doc, encoding);
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
  const encoding = inputEncoding(env, opts.encoding);
  for (const d of opts.extra ?? []) writeRunProfile(dir, d, encoding);
  const path = writeRunProfile(dir, main, encoding);
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
