/**
 * The TypeScript adapter SDK: define handlers, serve them over stdio (or hand the same object to
 * the runner in-process), decline what you do not implement, build prompts with byte offsets and
 * issue pointers (RFC 6901, the spec model's own encoding).
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export { defineAdapter, isMethodName, refused, UnknownMethod, InvalidParams, RpcError, type DefineOptions } from './define.js';
export { serveStdio, errorFor, type ServeOptions } from './stdio.js';
export { PromptBuilder, sectionText, type StateDelimiters } from './prompt-builder.js';
export { LineSplitter, encodeLine, DEFAULT_MAX_LINE_BYTES, type LineEvent } from './framing.js';
export { pointerOf } from '../../spec/semantics/pointer.js';
export type { AdapterHandlers, InProcessAdapter, AdapterFactory } from './types.js';
export { AdapterDecline } from '../../protocol/errors.js';
export { PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, RPC_ERROR, isRefused } from '../../protocol/messages.js';
export type {
  MethodName,
  Params,
  Result,
  HandshakeT,
  HarnessPolicyT,
  AdapterIssueT,
  InstantiatedT,
  EffectiveContractT,
  RefusedT,
} from '../../protocol/messages.js';

/**
 * Is a running module the process entry point? (for `if (isMain(import.meta.url)) await serveStdio(...)`)
 * Compares real file paths, so a path with spaces or other URL-escaped characters, a symlinked
 * directory (macOS /tmp is one) or `node my-adapter` without the extension still count.
 */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const stem = (p: string): string => p.replace(/\.[cm]?[jt]s$/, '');
  let self: string;
  try {
    self = real(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
  const argv1 = real(entry);
  return self === argv1 || stem(self) === stem(argv1);
}
