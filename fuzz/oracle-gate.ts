/**
 * The one place the fuzzer asks the oracle whether a generated document is defined by the spec
 * (schema plus the structural rules: secrets, paths, versions, kinds). Only such documents are
 * fuzzed into behavioural properties; the reject rate is reported per case.
 */
import { validateDocument, type OapIssue } from '../spec/document/index.js';

export function oracleIssues(doc: unknown): OapIssue[] {
  return validateDocument(doc).issues.filter((i) => i.severity === 'error');
}
