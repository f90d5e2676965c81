/**
 * Small helpers that turn a fuzz input into adapter calls: write profiles into a fresh project
 * root, instantiate, judge whether a generated document is one the spec defines, and turn an
 * adapter's refusal into a not-judged verdict with a countable reason.
 */
import { join } from 'node:path';
import type { AdapterIssueT, HarnessPolicyT, InstantiateOutcomeT } from '../protocol/messages.js';
import type { Encoding } from '../suites/kit/types.js';
import { oracleIssues } from './oracle-gate.js';
import { notJudged, type ExecEnv, type Verdict } from './properties/types.js';
import { type RefusedInput, refusalOwner } from '../suites/support/refusal.js';
import { workingEncoding, writeProfile } from '../suites/support/index.js';

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

/** The first of `docs` the oracle refuses, named, or undefined when all are valid. */
export function firstUndefined(docs: readonly Doc[], what: string): string | undefined {
  for (const d of docs) {
    const why = undefinedBySpec(d);
    if (why) return `the oracle refuses ${what}: ${why}`;
  }
  return undefined;
}

/**
 * The adapter refused `what` for a reason the property does not judge: not judged, with a reason
 * coarse enough to count (`instantiate rejected: schema at /metadata/revision`), and the ID that
 * judges the refusal (the refusal rule's owner).
 */
export function rejectedBy(what: string, errors: readonly AdapterIssueT[], input: RefusedInput = 'profile'): Verdict {
  const e = errors[0];
  return notJudged(
    'rejected',
    `${what} rejected: ${e ? `${e.category} at ${e.pointer || '/'}` : 'no issue reported'}`,
    refusalOwner(input, errors).id,
  );
}

/**
 * A positive control, run once per case for each `key` (the control document and encoding): the
 * benign twin of a hostile input must be accepted, or a refusal of the hostile input proves
 * nothing. Returns the not-judged verdict when the control was refused, else undefined. Declines
 * propagate (and are not remembered).
 */
export async function control(env: ExecEnv, key: string, run: () => Promise<Verdict | undefined>): Promise<Verdict | undefined> {
  const memoKey = `control:${key}`;
  if (env.memo.has(memoKey)) return env.memo.get(memoKey) as Verdict | undefined;
  const v = await run();
  env.memo.set(memoKey, v);
  return v;
}
