import { findCredential } from './credentials.js';
import { issue, type OapIssue } from './issue.js';
import { hasLoneSurrogate, pointerOfPath, walkJson } from './json-walk.js';

/**
 * Document-wide checks that apply to every kind and every location: credential-shaped strings
 * in values and keys (SPEC §7.3), numbers JCS cannot represent (SPEC §2.2), unpaired surrogates
 * (also unrepresentable in JCS), and, for documents built in memory rather than parsed, values
 * that are not JSON data at all. Messages never repeat the matched secret.
 */
export function scanDocument(doc: unknown): OapIssue[] {
  const issues: OapIssue[] = [];
  walkJson(doc, {
    string(value, path, isKey) {
      const shape = findCredential(value);
      if (shape !== undefined) {
        const what = isKey ? 'object key' : 'string';
        issues.push(
          issue(
            `secret-pattern.${shape.name}`,
            pointerOfPath(path),
            `${what} looks like ${shape.description}; profiles must not contain credentials`,
          ),
        );
      }
      if (hasLoneSurrogate(value)) {
        issues.push(
          issue(
            'other.lone-surrogate',
            pointerOfPath(path),
            `${isKey ? 'key' : 'string'} contains an unpaired UTF-16 surrogate, which JCS cannot encode`,
          ),
        );
      }
    },
    number(value, path) {
      if (!Number.isFinite(value)) issues.push(issue('non-finite', pointerOfPath(path), `${value} is not a finite number`));
    },
    invalid(reason, path, detail) {
      issues.push(issue(reason === 'cycle' ? 'other.cycle' : 'other.not-json', pointerOfPath(path), `${detail} is not JSON data`));
    },
  });
  return issues;
}
