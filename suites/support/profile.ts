/**
 * Profiles a case writes: the minimal schema-valid document to build on, and writing one as a file
 * in an encoding the adapter claims. Every level and the fuzzer write profiles through here.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HandshakeT } from '../../protocol/messages.js';
import type { CaseContext, Encoding } from '../kit/types.js';
import { serializeDocument } from '../kit/workspace.js';
import { accommodatedEncoding } from '../kit/forms.js';

export type ProfileDoc = Record<string, unknown>;

/** The smallest schema-valid profile, for cases to extend. */
export function minimalProfile(name: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): ProfileDoc {
  const { role, ...rest } = spec as { role?: Record<string, unknown> };
  return {
    oap: '1.0',
    kind: 'AgentProfile',
    metadata: { name, description: `Test profile ${name} used by the conformance suite.` },
    spec: { role: { instructions: `You are ${name}.`, ...(role ?? {}) }, ...rest },
    ...extra,
  };
}

export function nameOf(doc: ProfileDoc): string {
  const meta = doc['metadata'] as { name?: unknown } | undefined;
  if (typeof meta?.name !== 'string') throw new Error('suite bug: profile without metadata.name');
  return meta.name;
}

const DEFAULT_PREFERENCE: readonly Encoding[] = ['yaml', 'json', 'md'];

/**
 * The encoding cases write documents in: the first of `prefer` the handshake claims, else its
 * first claimed encoding. By default YAML (the authoring encoding the spec recommends), then JSON,
 * then Markdown. Only L1-P1 and L3-G1 exercise the other claimed encodings, so an adapter that
 * lies about one encoding fails those and nothing else. When calibration found the first claimed
 * encoding refusing a valid profile, the case scope names the one it accepted (suites/kit/forms.ts).
 */
export function workingEncoding(handshake: HandshakeT, prefer?: readonly Encoding[]): Encoding {
  // An explicit preference is the case's own choice; the accommodation replaces only the default.
  const accommodated = prefer ? undefined : accommodatedEncoding(handshake.encodings);
  if (accommodated) return accommodated;
  return (prefer ?? DEFAULT_PREFERENCE).find((e) => handshake.encodings.includes(e)) ?? handshake.encodings[0] ?? 'yaml';
}

/**
 * The encodings generated documents (grammar bounds, catalogue values) are written in, in order of
 * preference: JSON where the handshake claims it, else the usual working encoding. A generated
 * document is about its values, which are the same in every encoding (SPEC §2.1); JSON writes each
 * value exactly and reads fastest, which matters across the thousands of documents generated cases
 * send. L1-P1 and L3-G1 judge the other encodings.
 */
export const GENERATED_ENCODINGS: readonly Encoding[] = ['json', 'yaml', 'md'];

/** `<name>.agent.<yaml|json|md>`, the file name SPEC §3.1 recommends. */
export function profileFileName(name: string, encoding: Encoding): string {
  return `${name}.agent.${encoding}`;
}

/** Write `doc` as `<dir>/<fileName>.agent.<ext>` (file name default: its `metadata.name`); returns the path. */
export function writeProfile(dir: string, doc: unknown, encoding: Encoding, fileName = nameOf(doc as ProfileDoc)): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, profileFileName(fileName, encoding));
  writeFileSync(path, serializeDocument(doc, encoding));
  return path;
}

/** Write a profile into the case's project root (`<workspace>/.agents/`) in the working encoding. */
export function writeProjectProfile(ctx: CaseContext, doc: ProfileDoc, opts: { encoding?: Encoding; fileName?: string } = {}): string {
  return writeProfile(ctx.workspace.projectAgents, doc, opts.encoding ?? workingEncoding(ctx.handshake), opts.fileName);
}

/**
 * Remove the profiles a case wrote for one value once that value is judged. A generated case sends
 * tens of values through one project root; removed, each value's discovery and `extends` read only
 * its own documents (a minimal case), not every earlier value's.
 */
export function removeProfiles(paths: readonly string[]): void {
  for (const path of paths) rmSync(path, { force: true });
}
