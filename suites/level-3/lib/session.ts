/**
 * Level 3 plumbing: how cases talk to the adapter. Every helper here turns an unexpected outcome
 * into a CheckFailure (never a bare TypeError) so that a wrong answer is a `fail`, not a suite
 * `error`. Adapter errors (not implemented, crash, protocol) are never caught.
 */
import type { AdapterIssueT, HarnessPolicyT, InstantiateOutcomeT, InstantiatedT, Params } from '../../../adapters/protocol/messages.js';
import { fail } from '../../framework/assert.js';
import type { CaseContext } from '../../framework/types.js';
import type { Workspace } from '../../framework/workspace.js';
import { briefIssues } from '../../framework/issues.js';
import { sectionText } from '../../framework/prompt-map.js';

export type Roots = Params<'instantiate'>['roots'];
export type Rejected = Extract<InstantiateOutcomeT, { status: 'rejected' }>;

/** All four discovery roots of the case workspace. */
export function allRoots(ws: Workspace): Roots {
  return { managed: ws.roots.managed, user: ws.roots.user, project: ws.dir, plugin: [...ws.roots.plugin] };
}

export async function instantiateName(ctx: CaseContext, name: string, policy: HarnessPolicyT): Promise<InstantiateOutcomeT> {
  return ctx.adapter.call('instantiate', { workspace: ctx.workspace.dir, roots: allRoots(ctx.workspace), profile: { name }, policy });
}

export async function instantiatePath(ctx: CaseContext, path: string, policy: HarnessPolicyT): Promise<InstantiateOutcomeT> {
  return ctx.adapter.call('instantiate', { workspace: ctx.workspace.dir, roots: allRoots(ctx.workspace), profile: { path }, policy });
}

export function mustInstantiate(out: InstantiateOutcomeT, what: string): InstantiatedT {
  if (out.status !== 'instantiated') {
    fail(
      `${what}: expected instantiation, adapter rejected it`,
      { status: 'instantiated' },
      { status: out.status, errors: briefIssues(out.errors) },
    );
  }
  return out;
}

/** The outcome must be a rejection carrying at least one error of `category`. */
export function mustReject(out: InstantiateOutcomeT, category: AdapterIssueT['category'], what: string): Rejected {
  if (out.status !== 'rejected') {
    fail(
      `${what}: expected rejection with category ${category}, adapter instantiated it`,
      { status: 'rejected', category },
      { status: out.status },
    );
  }
  if (!out.errors.some((e) => e.category === category)) {
    fail(`${what}: rejected, but no error has category ${category}`, { category }, { errors: briefIssues(out.errors) });
  }
  return out;
}

/** Prompt text of every section except `state`, joined: what the profile's own material rendered to. */
export function promptWithoutState(s: InstantiatedT): string {
  const parts = s.prompt.sections.filter((x) => x.kind !== 'state').map((x) => sectionText(s.prompt.text, x));
  // A prompt without section offsets would make every marker look absent; fall back to the text
  // minus nothing, which can only make absence checks stricter.
  return parts.length > 0 ? parts.join('\n') : s.prompt.text;
}

/** Section kinds with their texts, state excluded (its delimiters may carry per-session nonces). */
export function sectionTexts(s: InstantiatedT): Array<{ kind: string; text: string }> {
  return s.prompt.sections.filter((x) => x.kind !== 'state').map((x) => ({ kind: x.kind, text: sectionText(s.prompt.text, x) }));
}
