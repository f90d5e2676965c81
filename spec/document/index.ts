/**
 * The oracle's document layer: parse the three OAP encodings safely, validate against the
 * vendored OAP 1.0.1 schemas plus the rules JSON Schema cannot express, and canonicalise/digest.
 * Other parts of oap-conform import from here only.
 */
export { categoryOf, issue } from './issue.js';
export type { OapIssue } from './issue.js';

export { encodingFromPath, isOapDocumentName } from './encoding.js';
export type { Encoding } from './encoding.js';
export { DEFAULT_LIMITS, resolveLimits } from './limits.js';
export type { ParseLimits } from './limits.js';
export type { Position } from './source.js';
export type { Locate, ParseResult } from './parse-result.js';
export { parseDocument } from './parse.js';
export { parseJson } from './parse-json.js';
export { parseYaml } from './parse-yaml.js';
export { parseMarkdown } from './parse-markdown.js';

export { validateProfileSchema, validateDeltaSchema, validateResultSchema, resultSchemaValidator } from './schema.js';
export { checkVersion, SUPPORTED_VERSION } from './rules-version.js';
export { classifyKind, checkKind, RESERVED_KINDS } from './rules-kind.js';
export type { DocumentKind } from './rules-kind.js';
export { checkProfileRules } from './rules-profile.js';
export type { RuleOptions } from './rules-profile.js';
export { checkDeltaRules, checkStatePointer, RESERVED_OPS } from './rules-delta.js';
export { checkMcpSecrets } from './rules-mcp.js';
export { checkHistory } from './rules-history.js';
export { scanDocument } from './rules-scan.js';
export { checkWorkspacePath } from './paths.js';
export type { WorkspacePathOptions } from './paths.js';
export { CREDENTIAL_SHAPES, findCredential } from './credentials.js';
export type { CredentialShape } from './credentials.js';
export { validateDocument, isValid } from './validate.js';
export type { DocumentReport } from './validate.js';
export { compareIssues, sortIssues } from './sort.js';

export { canonicalJson, CanonicalizationError } from './jcs.js';
export { documentDigest, profileDigest, specDigest, specDigestInput, sha256Hex } from './digest.js';

export { loadDocument, loadDocumentFile } from './load.js';
export type { LoadedDocument } from './load.js';
