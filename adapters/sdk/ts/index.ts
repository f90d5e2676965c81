/**
 * The TypeScript adapter SDK: define handlers, serve them over stdio (or hand the same object to
 * the runner in-process), decline what you do not implement, build prompts with byte offsets.
 */
export { defineAdapter, isMethodName, UnknownMethod, InvalidParams, type DefineOptions } from './define.js';
export { serveStdio, errorFor, type ServeOptions } from './stdio.js';
export { PromptBuilder, sectionText, type StateDelimiters } from './prompt-builder.js';
export { LineSplitter, encodeLine, DEFAULT_MAX_LINE_BYTES, type LineEvent } from './framing.js';
export type { AdapterHandlers, InProcessAdapter, AdapterFactory } from './types.js';
export { AdapterDecline } from '../../../suites/framework/errors.js';
export { PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, RPC_ERROR } from '../../protocol/messages.js';
export type { MethodName, Params, Result, HandshakeT, HarnessPolicyT, AdapterIssueT, InstantiatedT, EffectiveContractT } from '../../protocol/messages.js';

/** Is a running module the process entry point? (for `if (isMain(import.meta.url)) serveStdio(...)`) */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  const path = new URL(moduleUrl).pathname;
  return path === entry || path.replace(/\.[cm]?[jt]s$/, '') === entry.replace(/\.[cm]?[jt]s$/, '');
}
