/**
 * What the harnesses of the clause-sensitivity mutants do in the place of one decision (MUTANTS.md,
 * "Clause sensitivity"): each piece is a behaviour a real harness could have, kept out of the
 * catalogue so the catalogue reads as one row per mutant.
 */
import { execFileSync } from 'node:child_process';
import type { EffectiveContractT } from '../../protocol/messages.js';
import { type Decision, minDecision, minMemoryMode, PERMISSION_KEYS } from '../../spec/semantics/index.js';
import { MEMORY_MODES } from '../../spec/semantics/memory.js';
import type { Ceiling } from '../reference/ceiling.js';
import { isObject, type JsonObject } from '../reference/json.js';

/** Entry texts of one state collection (`summary` counts as a collection of one). */
function texts(state: unknown, keys: ReadonlyArray<'summary' | 'facts' | 'preferences'>): string[] {
  const s = isObject(state) ? state : {};
  return keys.flatMap((k) => {
    const v = s[k];
    if (k === 'summary') return typeof v === 'string' ? [v] : [];
    return Array.isArray(v) ? (v as JsonObject[]).map((e) => String(e['text'])) : [];
  });
}

/**
 * A harness that remembers approvals by writing them into state ("Permissions update approved …:
 * shell allow, edit allow") and applies them again at every load, within what the ceiling allows.
 */
export function reapplyApprovedPermissions(state: unknown, effective: EffectiveContractT, ceiling: Ceiling): EffectiveContractT {
  for (const t of texts(state, ['summary', 'facts', 'preferences'])) {
    const approved = /approved[^:]*:(.*)$/i.exec(t);
    if (!approved) continue;
    for (const m of approved[1]!.matchAll(/\b(\w+)\s+(allow|ask|deny)\b/g)) {
      const key = PERMISSION_KEYS.find((k) => k === m[1]);
      if (key) effective.permissions[key] = minDecision(m[2] as Decision, ceiling.permissions[key]);
    }
  }
  return effective;
}

/**
 * A harness that reads learned preferences of the form "memory.mode is read_write" as the user's
 * settings and applies them to the session, within what the ceiling allows.
 */
export function preferencesAsSettings(state: unknown, effective: EffectiveContractT, ceiling: Ceiling): EffectiveContractT {
  for (const t of texts(state, ['preferences'])) {
    const m = /\bmemory\.mode is (\w+)/.exec(t);
    const mode = MEMORY_MODES.find((x) => x === m?.[1]);
    if (mode) effective.memory.mode = minMemoryMode(mode, ceiling.memory.mode);
  }
  return effective;
}

/**
 * A session whose profile no longer resolves (the file was deleted) is revoked when it is next
 * described: no tools, every permission `deny`. A harness that checks its sessions against their
 * files "to be safe" does this; it is a mid-session change of the contract all the same.
 */
export function revokedSession<T>(held: T): T {
  const h = held as unknown as { body: { effective: EffectiveContractT } };
  const revoked: Decision = 'deny';
  const effective: EffectiveContractT = {
    ...h.body.effective,
    tools: [],
    permissions: { default: revoked, shell: revoked, edit: revoked, network: revoked },
  };
  return { ...h, body: { ...h.body, effective } } as unknown as T;
}

/** Sends one HTTP request and exits once the bytes are handed to the kernel (no answer awaited). */
const SEND_REQUEST = `
const net = require('node:net');
const [method, uri] = process.argv.slice(1);
const u = new URL(uri);
const s = net.connect(Number(u.port || 80), u.hostname, () =>
  s.end(method + ' ' + u.pathname + ' HTTP/1.1\\r\\nHost: ' + u.host + '\\r\\nContent-Type: application/json\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\n{}'));
s.on('finish', () => process.exit(0));
s.on('error', () => process.exit(0));
`;

/** Only this machine: the mutant never sends a request anywhere else. */
const LOOPBACK_HTTP = /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//;

/**
 * A harness whose store client "gets or creates" the store's collection when the store is opened,
 * and opens every declared store at load: `PUT <uri>` during resolution. The request is sent
 * before resolution goes on (the reference resolves synchronously, so a child process sends it).
 */
export function createStoreCollection(store: { uri?: string }): void {
  if (store.uri === undefined || !LOOPBACK_HTTP.test(store.uri)) return;
  execFileSync(process.execPath, ['-e', SEND_REQUEST, 'PUT', store.uri], { stdio: 'ignore', timeout: 5_000 });
}

/** The longest start of `line` (whole characters) whose UTF-8 bytes, with its line break, `fits` accepts; undefined when none does. */
export function cutToFit(line: string, fits: (bytes: number) => boolean): string | undefined {
  const chars = [...line];
  let n = 0;
  while (n < chars.length && fits(Buffer.byteLength(`${chars.slice(0, n + 1).join('')}\n`, 'utf8'))) n++;
  return n === 0 ? undefined : chars.slice(0, n).join('');
}
