/**
 * The shapes every part of the reference harness passes around: a parsed document's value, the
 * result of reading one, its digests. Nothing here decides anything.
 */
import type { OapIssue } from '../../spec/document/issue.js';

export type Encoding = 'yaml' | 'json' | 'md';
export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function errorsOf(issues: readonly OapIssue[]): OapIssue[] {
  return issues.filter((i) => i.severity !== 'warning');
}

/** A document as read: its value when it could be read, and what the reader found. */
export interface Read {
  encoding?: Encoding;
  value?: unknown;
  issues: OapIssue[];
}

export interface Digests {
  profile_digest: string;
  spec_digest: string;
}
