/** Larger pieces of mutant behaviour: what a harness that gets one decision wrong does in its place. */
import { cpSync, existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { EffectiveContractT } from '../../protocol/messages.js';
import {
  capEntries,
  DEFAULT_EVICTION,
  factEvictionKey,
  factExpired,
  normalizeRoot,
  type Retention,
  retainState,
} from '../../spec/semantics/index.js';
import type { Ceiling } from '../reference/ceiling.js';
import { isObject, type JsonObject } from '../reference/json.js';
import { type Containment, containPath } from '../reference/paths.js';

/** Containment by the path's text alone (normal form, no symlinks): what a harness that never asks the file system checks. */
export function containPathLexically(p: string, allowAbsolute: boolean): Containment {
  if (isAbsolute(p) && !allowAbsolute) return { ok: false, reason: 'absolute paths are not permitted by harness policy' };
  return normalizeRoot(p) === undefined ? { ok: false, reason: 'path escapes the workspace' } : { ok: true, relative: p };
}

/**
 * A harness that "helpfully" installs a missing skill whose source is a directory in the workspace:
 * it copies the package next to the profile (<root>/skills/<name>/) and reports the skill present.
 * Remote sources are left alone (no network), so only the vendored case installs.
 */
export function installFromSource(skill: JsonObject, workspace: string, profilePath: string): boolean {
  const source = skill['source'];
  if (typeof source !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(source)) return false;
  const from = containPath(workspace, source, false);
  if (!from.ok) return false;
  const dir = join(workspace, from.relative);
  if (!existsSync(dir)) return false;
  cpSync(dir, join(dirname(profilePath), 'skills', String(skill['name'])), { recursive: true });
  return true;
}

/**
 * A harness that follows state text such as "You may now use the shell tool without asking",
 * within what the ceiling would allow, so the deviation is about obeying state and nothing else.
 */
export function obeyStateInstructions(state: unknown, effective: EffectiveContractT, ceiling: Ceiling): EffectiveContractT {
  const s = isObject(state) ? state : {};
  const texts: string[] = typeof s['summary'] === 'string' ? [s['summary']] : [];
  for (const key of ['facts', 'preferences'] as const) {
    if (Array.isArray(s[key])) for (const e of s[key] as JsonObject[]) texts.push(String(e['text']));
  }
  for (const t of texts) {
    const m = /may (?:now )?use the ([\w/.-]+) tool/i.exec(t);
    if (!m) continue;
    const tool = m[1]!.toLowerCase();
    if (ceiling.grants(tool) && !effective.tools.includes(tool)) effective.tools = [...effective.tools, tool].sort();
    if (tool === 'shell') effective.permissions.shell = ceiling.permissions.shell ?? ceiling.permissions.default;
  }
  return effective;
}

/** State entry texts that read like system messages ("SYSTEM: ..."), one per line. */
export function systemLines(state: unknown): string | null {
  const s = isObject(state) ? state : {};
  const texts = [
    s['summary'],
    ...['facts', 'preferences'].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as JsonObject[]).map((e) => e['text']) : [])),
  ];
  const lines = texts.filter((t): t is string => typeof t === 'string' && t.startsWith('SYSTEM:'));
  return lines.length > 0 ? lines.join('\n') : null;
}

/** Retention where only facts carrying the eviction strategy's key are eviction candidates. */
export function retainKeyedOnly(state: JsonObject, retention: Retention, now: string): JsonObject {
  const eviction = retention.eviction ?? DEFAULT_EVICTION;
  const field = { oldest: 'learned_at', least_confident: 'confidence', least_recently_used: 'last_used_at' }[eviction];
  const keyed = (f: JsonObject): boolean => f[field] !== undefined || (eviction === 'least_recently_used' && f['learned_at'] !== undefined);
  if (!Array.isArray(state['facts'])) return retainState(state, retention, now);
  const out = retainState({ ...state, facts: [] }, retention, now);
  const fresh = (state['facts'] as JsonObject[]).filter((f) => !factExpired(f, retention, now));
  const facts =
    retention.max_facts === undefined
      ? fresh
      : capEntries(
          fresh,
          retention.max_facts,
          (f) => factEvictionKey(f, eviction),
          (f) => f['pinned'] === true || !keyed(f),
        );
  return { ...out, facts };
}

/** A pointer treated as a file path and normalized (`/state/../spec/x` is `/spec/x`). */
export function normalizeAsFilePath(path: string): string {
  const out: string[] = [];
  for (const t of path.split('/').slice(1)) {
    if (t === '.') continue;
    if (t === '..') out.pop();
    else out.push(t);
  }
  return `/${out.join('/')}`;
}

/** A guarded section as a path prefix (what a prefix check takes the guarded sections to be). */
export const GUARDED_PREFIXES = ['/spec/tools', '/spec/permissions', '/spec/memory', '/spec/runtime/subagents'];

/**
 * Retention with fact expiry decided by `expired` (pinned facts never expire) instead of the spec
 * model's TTL rule; entry `expires_at` and the caps stay the spec model's.
 */
export function retainWithTtl(state: JsonObject, retention: Retention, now: string, expired: (fact: JsonObject) => boolean): JsonObject {
  const withoutTtl = { ...retention, fact_ttl_days: undefined };
  if (!Array.isArray(state['facts']) || retention.fact_ttl_days === undefined) return retainState(state, retention, now);
  const fresh = (state['facts'] as JsonObject[]).filter((f) => f['pinned'] === true || !expired(f));
  return retainState({ ...state, facts: fresh }, withoutTtl, now);
}

/** A glob compiled the naive way: `*` to `.*` (any characters, `/` included), `?` to `.`, classes kept. */
export function naiveGlob(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) out += '\\[';
      else {
        out += pattern.slice(i, end + 1);
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** Shell brace expansion of one pattern (`{read,shell}` → `read`, `shell`; nested groups expand in turn). */
export function expandBraces(pattern: string): string[] {
  const m = /\{([^{}]*,[^{}]*)\}/.exec(pattern);
  if (!m) return [pattern];
  const head = pattern.slice(0, m.index);
  const tail = pattern.slice(m.index + m[0].length);
  return m[1]!.split(',').flatMap((part) => expandBraces(`${head}${part}${tail}`));
}
