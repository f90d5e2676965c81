/**
 * Helpers shared by the Level 1 cases: writing profiles in an encoding the adapter claims,
 * calling instantiate and insisting on one outcome, and matching JSON Pointers. Nothing here judges a requirement on its own; the cases do.
 */
import { join } from 'node:path';
import type { HandshakeT, HarnessPolicyT, InstantiatedT, InstantiateOutcomeT } from '../../adapters/protocol/messages.js';
import { fail } from '../framework/assert.js';
import { CaseNotApplicable } from '../framework/errors.js';
import { permissivePolicy } from '../framework/policy.js';
import type { CaseContext, Encoding } from '../framework/types.js';
import { serializeDocument } from '../framework/workspace.js';
import { loadDocumentFile } from '../../spec/document/index.js';
import { briefIssues } from '../framework/issues.js';

export type ProfileDoc = Record<string, unknown>;

const EXTENSION: Record<Encoding, string> = { yaml: '.agent.yaml', json: '.agent.json', md: '.agent.md' };

/**
 * The encoding cases write their documents in: YAML when claimed (the authoring encoding the spec
 * recommends), else JSON, else Markdown. Only the L1-P1 case exercises the other claimed encodings,
 * so an adapter that lies about one encoding fails P1 and nothing else.
 */
export function workingEncoding(handshake: HandshakeT): Encoding {
  for (const e of ['yaml', 'json', 'md'] as const) if (handshake.encodings.includes(e)) return e;
  return 'yaml';
}

export function profileFileName(name: string, encoding: Encoding): string {
  return `${name}${EXTENSION[encoding]}`;
}

/** Write `doc` as `<fileName>.agent.<ext>` into `dir` in the working encoding; returns the path. */
export function writeProfile(
  ctx: CaseContext,
  dir: string,
  fileName: string,
  doc: unknown,
  encoding = workingEncoding(ctx.handshake),
): string {
  return ctx.workspace.writeDocument(dir, profileFileName(fileName, encoding), doc, encoding);
}

/** Write a profile into the project root (`<workspace>/.agents/`) under its own name. */
export function writeProjectProfile(ctx: CaseContext, doc: ProfileDoc, fileName = nameOf(doc)): string {
  return writeProfile(ctx, ctx.workspace.projectAgents, fileName, doc);
}

export function nameOf(doc: ProfileDoc): string {
  const meta = doc['metadata'] as { name?: unknown } | undefined;
  if (typeof meta?.name !== 'string') throw new Error('suite bug: profile without metadata.name');
  return meta.name;
}

export function textIn(doc: unknown, encoding: Encoding): string {
  return serializeDocument(doc, encoding);
}

/** Every discovery root the adapter claims, as DiscoveryRoots for this case's tree. */
export function claimedRoots(ctx: CaseContext): { managed?: string; user?: string; project?: string; plugin?: string[] } {
  const claimed = new Set(ctx.handshake.discovery_roots);
  const r = ctx.workspace.roots;
  return {
    ...(claimed.has('managed') ? { managed: r.managed } : {}),
    ...(claimed.has('user') ? { user: r.user } : {}),
    project: r.project,
    ...(claimed.has('plugin') ? { plugin: r.plugin } : {}),
  };
}

/** Instantiate the profile file at `path` under `policy`. */
export async function instantiatePath(
  ctx: CaseContext,
  path: string,
  policy: HarnessPolicyT = permissivePolicy(),
): Promise<InstantiateOutcomeT> {
  return ctx.adapter.call('instantiate', { workspace: ctx.workspace.dir, roots: claimedRoots(ctx), profile: { path }, policy });
}

export async function instantiateName(
  ctx: CaseContext,
  name: string,
  policy: HarnessPolicyT = permissivePolicy(),
): Promise<InstantiateOutcomeT> {
  return ctx.adapter.call('instantiate', { workspace: ctx.workspace.dir, roots: claimedRoots(ctx), profile: { name }, policy });
}

/** The session, or a check failure naming what the adapter said instead. */
export function expectInstantiated(outcome: InstantiateOutcomeT, what: string): InstantiatedT {
  if (outcome.status !== 'instantiated') {
    fail(
      `${what}: a valid profile was rejected`,
      { status: 'instantiated' },
      { status: outcome.status, errors: briefIssues(outcome.errors) },
    );
  }
  return outcome;
}

/**
 * Instantiate a profile that a case needs as its subject (not as the thing being judged). When
 * the adapter refuses it the case cannot judge its own requirement, so it is not applicable rather
 * than failed: the refusal is some other requirement's business (usually P2 or I7).
 */
export async function instantiateSubject(ctx: CaseContext, path: string, policy: HarnessPolicyT): Promise<InstantiatedT> {
  const out = await instantiatePath(ctx, path, policy);
  if (out.status !== 'instantiated') {
    ctx.note('subject-rejected', briefIssues(out.errors));
    throw new CaseNotApplicable(
      `the case's valid subject profile was rejected (${briefIssues(out.errors)
        .map((e) => e.category)
        .join(', ')}); another requirement's case judges that`,
    );
  }
  return out;
}

// ---------------------------------------------------------------- JSON Pointers

/**
 * The pointer matching rule for validation errors (see INTERPRETATIONS.md, Level 1): an error
 * locates the problem when its pointer equals the expected one; for `required` and
 * `additionalProperties` failures the pointer of the object that lacks or carries the member is
 * accepted as well, because both readings are common and both point a reader at the right place.
 */
export function pointerMatches(observed: string, expected: string, parentAccepted: boolean): boolean {
  if (observed === expected) return true;
  return parentAccepted && observed === parentPointer(expected);
}

export function parentPointer(pointer: string): string {
  const i = pointer.lastIndexOf('/');
  return i <= 0 ? '' : pointer.slice(0, i);
}

/** Is `pointer` equal to `field`, below it, or its direct parent? (the I9 coverage rule) */
export function pointerCovers(pointer: string, field: string): boolean {
  return (
    pointer === field || pointer.startsWith(`${field}/`) || (pointer !== '' && pointer !== '/spec' && pointer === parentPointer(field))
  );
}

export function joinPath(...parts: string[]): string {
  return join(...parts);
}

// ---------------------------------------------------------------- the oracle's reading of a file

/** The logical document in a file, as the runner's oracle reads it (never as the adapter does). */
export function oracleRead(path: string): Record<string, unknown> {
  const loaded = loadDocumentFile(path);
  if (loaded.value === undefined || typeof loaded.value !== 'object' || loaded.value === null || Array.isArray(loaded.value)) {
    throw new Error(`suite bug: the oracle cannot read ${path}: ${loaded.issues.map((i) => i.code).join(', ')}`);
  }
  return loaded.value as Record<string, unknown>;
}
