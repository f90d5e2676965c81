import { pointerOf } from '../semantics/pointer.js';
import type { OapIssue } from './issue.js';
import { checkWorkspacePath } from './paths.js';
import { selectPattern, type PatternPath } from './select.js';

/**
 * Profile fields holding workspace paths (SPEC §3.5, §3.6, security.md T6).
 *
 * `permissions.filesystem.deny_paths` is deliberately absent: a deny entry can only narrow
 * access, so one pointing outside the workspace (`/etc`, `../secrets`) removes nothing the
 * workspace would otherwise grant, and absolute deny paths are a legitimate way to fence off
 * system locations.
 */
const WORKSPACE_PATH_FIELDS: readonly PatternPath[] = [
  ['spec', 'context', 'files', '*', 'path'],
  ['spec', 'context', 'working_directory'],
  ['spec', 'permissions', 'filesystem', ['read_roots', 'write_roots'], '*'],
];

export interface PathRuleOptions {
  /** The harness explicitly permits absolute paths (SPEC §3.5). Default: not permitted. */
  allowAbsolutePaths?: boolean;
}

export function checkProfilePaths(root: unknown, options: PathRuleOptions = {}, base: readonly string[] = [], prefix = ''): OapIssue[] {
  const issues: OapIssue[] = [];
  for (const field of WORKSPACE_PATH_FIELDS) {
    selectPattern(root, base, field, (value, relative) => {
      if (typeof value !== 'string') return;
      const found = checkWorkspacePath(value, { allowAbsolute: options.allowAbsolutePaths, pointer: prefix + pointerOf(relative) });
      if (found !== null) issues.push(found);
    });
  }
  return issues;
}
