/**
 * The oracle's document layer: parse the three OAP encodings safely, validate against the
 * vendored OAP 1.0.1 schemas plus the rules JSON Schema cannot express, and canonicalise/digest.
 * Other parts of oap-conform import from here only.
 */
export { categoryOf } from './issue.js';
export type { OapIssue } from './issue.js';

export { encodingFromPath, isOapDocumentName } from './encoding.js';
export type { Encoding } from './encoding.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { ParseLimits } from './limits.js';
export type { ParseResult } from './parse-result.js';
export { parseDocument } from './parse.js';

export { validateProfileSchema, validateDeltaSchema, validateResultSchema, resultSchemaValidator } from './schema.js';
export { checkVersion } from './rules-version.js';
export { classifyKind, checkKind } from './rules-kind.js';
export { checkProfileRules } from './rules-profile.js';
export { checkDeltaRules, checkStatePointer } from './rules-delta.js';
export { checkHistory } from './rules-history.js';
export { checkWorkspacePath } from './paths.js';
export { findCredential } from './credentials.js';
export { validateDocument, isValid, validationSubject, withoutNullMembers } from './validate.js';

export { canonicalJson, CanonicalizationError } from './jcs.js';
export { documentDigest, profileDigest, specDigest, specDigestInput, sha256Hex } from './digest.js';

export { loadDocument, loadDocumentFile } from './load.js';
export type { LoadedDocument } from './load.js';
