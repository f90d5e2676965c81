/**
 * What a case gave the adapter, recorded through `ctx.input` so a failure shows the inputs that
 * produced it: the profile files as written (their text, named by their place in the case tree),
 * the policy, the delta. The instantiate helpers (./session.ts) and the apply helper of Level 2
 * call these, so no case records its own.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Params } from '../../protocol/messages.js';
import type { CaseContext } from '../kit/types.js';

/** Profile texts larger than this are recorded cut, with a note (a hostile document can be megabytes). */
const MAX_TEXT = 16 * 1024;
/** By-name instantiation records the files the roots hold, at most this many. */
const MAX_ROOT_FILES = 6;

function where(ctx: CaseContext, path: string): string {
  const rel = relative(ctx.workspace.root, path);
  return rel.startsWith('..') ? path : rel.split(sep).join('/');
}

function fileText(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n… (${text.length - MAX_TEXT} more characters)` : text;
  } catch {
    return undefined;
  }
}

/**
 * What an input is to the case: the `subject` it judges, or a `control`, the benign twin that must
 * be accepted so that a refusal of the subject proves something. Every input is labelled, so a
 * reader of a failure knows which document the verdict is about.
 */
export type InputRole = 'subject' | 'control';

/** Record a profile file's text as `<role> file <path in the case tree>`. */
function recordFile(ctx: CaseContext, path: string, role: InputRole): void {
  const text = fileText(path);
  if (text !== undefined) ctx.input(`${role} file ${where(ctx, path)}`, text);
}

/** The profile files a by-name instantiation could find: the files directly in each root directory. */
function rootFiles(roots: Params<'instantiate'>['roots']): string[] {
  const dirs = [
    roots.managed,
    roots.user,
    roots.project === undefined ? undefined : join(roots.project, '.agents'),
    ...(roots.plugin ?? []),
  ];
  const files: string[] = [];
  for (const dir of dirs) {
    if (!dir || !existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isFile()) files.push(path);
    }
  }
  return files;
}

/** An instantiate request's inputs: the profile (by path, or the root files a name is found in) and the policy. */
export function recordInstantiate(ctx: CaseContext, params: Params<'instantiate'>, role: InputRole = 'subject'): void {
  if ('path' in params.profile) recordFile(ctx, params.profile.path, role);
  else {
    ctx.input(`${role} profile name`, params.profile.name);
    for (const f of rootFiles(params.roots).slice(0, MAX_ROOT_FILES)) recordFile(ctx, f, role);
  }
  ctx.input('policy', params.policy);
}

/** An apply_delta request's inputs: the profile file before the write, the delta, the approval. */
export function recordApply(ctx: CaseContext, params: Params<'apply_delta'>, role: InputRole = 'subject'): void {
  recordFile(ctx, params.profile_path, role);
  ctx.input(`${role} delta`, params.delta);
  if (params.approval !== undefined) ctx.input('approval', params.approval);
}
