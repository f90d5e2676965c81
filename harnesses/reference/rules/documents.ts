/** The reference's rules for reading, validating, digesting and writing documents. */
import { fsyncSync } from 'node:fs';
import {
  checkStatePointer,
  checkWorkspacePath,
  parseDocument,
  profileDigest,
  specDigest,
  validateDocument,
  validationSubject,
} from '../../../spec/document/index.js';
import type { OapIssue } from '../../../spec/document/issue.js';
import { writeFileAtomic } from '../atomic-write.js';
import { isObject } from '../json.js';
import { containPath } from '../paths.js';
import type { Rules } from '../rules.js';

type DocumentRules = Pick<
  Rules,
  | 'readDocument'
  | 'profileIssues'
  | 'instantiable'
  | 'contextFile'
  | 'workingDirectory'
  | 'deltaIssues'
  | 'operationPath'
  | 'reportedPointer'
  | 'retryDelays'
  | 'digestRead'
  | 'reportedDigests'
  | 'writeAnnotation'
  | 'roundTripDocument'
  | 'saveProfile'
  | 'fsyncBeforeRename'
>;

const CONTEXT_FILE_PATH = /^\/spec\/context\/files\/(\d+)\/path$/;
const WORKING_DIRECTORY = '/spec/context/working_directory';

/** Is the issue's code the category `c` or one of its details (`c.detail`)? */
export function ofCategory(i: OapIssue, c: string): boolean {
  return i.code === c || i.code.startsWith(`${c}.`);
}

/** The `spec.context` of a validated document, if it is an object. */
function contextOf(doc: unknown): Record<string, unknown> | undefined {
  const spec = isObject(doc) ? doc['spec'] : undefined;
  const context = isObject(spec) ? spec['context'] : undefined;
  return isObject(context) ? context : undefined;
}

/** The `context.files[n].path` of a validated document, if it is a string. */
function contextFilePath(doc: unknown, index: number): string | undefined {
  const files = contextOf(doc)?.['files'];
  const file: unknown = Array.isArray(files) ? files[index] : undefined;
  const path = isObject(file) ? file['path'] : undefined;
  return typeof path === 'string' ? path : undefined;
}

export const documentRules: DocumentRules = {
  readDocument(input, encoding) {
    const parsed = parseDocument(input, encoding);
    return parsed.ok ? { value: parsed.value, issues: [] } : { issues: parsed.issues };
  },

  profileIssues(value, rules) {
    // A document that uses `extends` may carry explicit nulls, which are merge directives (SPEC §4
    // rule 3), not values: validation reads it without them and the merge result is validated again.
    const subject = validationSubject(value);
    return validateDocument(subject).issues.filter((i) => {
      // A number's range is the reader's decision (readDocument refuses 1e400): every profile the
      // harness holds comes from its reader, its merge or a delta whose validation scanned it.
      if (ofCategory(i, 'non-finite')) return false;
      if (!ofCategory(i, 'path-escape')) return true;
      // A context file's escape is the harness's context-file rule, and the working directory's its
      // working-directory rule, read here by the path's text.
      if (i.pointer === WORKING_DIRECTORY) {
        const dir = contextOf(subject)?.['working_directory'];
        return typeof dir !== 'string' || !rules.workingDirectory(dir).ok;
      }
      const file = CONTEXT_FILE_PATH.exec(i.pointer);
      const path = file ? contextFilePath(subject, Number(file[1])) : undefined;
      return path === undefined || !rules.contextFile(path).ok;
    });
  },

  instantiable: (value, rules) => ({ profile: value, issues: rules.profileIssues(value, rules) }),

  contextFile(path, workspace) {
    // Context files are always workspace-relative (schema: absolute paths MUST be rejected).
    if (workspace !== undefined) return containPath(workspace, path, false);
    const finding = checkWorkspacePath(path);
    return finding ? { ok: false, reason: finding.message } : { ok: true, relative: path };
  },

  workingDirectory(path, workspace, allowAbsolute = false) {
    if (workspace !== undefined) return containPath(workspace, path, allowAbsolute);
    const finding = checkWorkspacePath(path);
    return finding ? { ok: false, reason: finding.message } : { ok: true, relative: path };
  },

  deltaIssues: (delta) => validateDocument(delta).issues,

  operationPath(path) {
    if (typeof path !== 'string') return { error: 'operation path is not a string' };
    const problem = checkStatePointer(path);
    return problem ? { error: problem.message } : { path };
  },

  reportedPointer: (pointer) => pointer,
  retryDelays: () => [],
  digestRead: (read) => read,
  reportedDigests: (doc) => ({ profile_digest: profileDigest(doc), spec_digest: specDigest(doc) }),
  writeAnnotation: (_key, value) => value,
  roundTripDocument: (doc) => doc,
  saveProfile: (path, text, _writer, rules) => writeFileAtomic(path, text, rules.fsyncBeforeRename),
  fsyncBeforeRename: (fd) => fsyncSync(fd),
};
