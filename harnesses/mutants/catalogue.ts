/**
 * The mutants (MUTANTS.md): the reference harness with exactly one rule replaced, each by the bug an
 * implementer would write in that rule. Each violates the named requirement ID(s) and, as far as a
 * black-box check can tell, nothing else; a conformance suite is only as good as the set of mutants
 * it kills. Several mutants may replace the same rule (different bugs in one decision).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { documentDigest, specDigestInput, validationSubject } from '../../spec/document/index.js';
import { issue } from '../../spec/document/issue.js';
import {
  BUDGET_KEYS,
  budgetSection,
  type Decision,
  DEFAULT_MAX_HISTORY,
  decodePointer,
  evictionOrder,
  globMatch,
  idOfToken,
  isGlob,
  matchesAny,
  minBudget,
  PERMISSION_CATEGORIES,
  parsePointer,
  profileBudgets,
  type RequestedPermissions,
  requestedHosts,
  type ToolsRequest,
  tierRoute,
  toolTable,
  writebackOf,
} from '../../spec/semantics/index.js';
import { applyDelta } from '../reference/apply/applicator.js';
import { OperationError } from '../reference/apply/operation.js';
import { writeFileAtomic } from '../reference/atomic-write.js';
import { ceilingFromPolicy } from '../reference/ceiling.js';
import { mcpSecretAt } from '../reference/document.js';
import { HARNESS_NAME, REFERENCE_RULES } from '../reference/index.js';
import { isObject, type JsonObject } from '../reference/json.js';
import type { Risk } from '../reference/rules.js';
import { MAX_EXTENDS_DEPTH } from '../reference/rules/discovery.js';
import { ofCategory } from '../reference/rules/documents.js';
import { STATE_LABEL } from '../reference/rules/prompt.js';
import { serializeProfile } from '../reference/serialize.js';
import {
  containPathLexically,
  GUARDED_PREFIXES,
  installFromSource,
  normalizeAsFilePath,
  obeyStateInstructions,
  retainKeyedOnly,
  systemLines,
} from './behaviours.js';
import { BOUNDARY_MUTANTS } from './boundaries.js';
import { CLASS_WALK_MUTANTS } from './class-walk.js';
import { asciiJson, byCodePoints, canonicalDigest, canonicalDigests, plainJsonDigest, pythonFloatRepr } from './digests.js';
import { createStoreCollection, cutToFit, preferencesAsSettings, reapplyApprovedPermissions, revokedSession } from './clause-behaviours.js';
import { type Mutant, mutant } from './mutant.js';
import { compactJson, lenientMarkdown, textOf, withLenientDefaults } from './readers.js';
import { writeViaTmpdir } from './temp-elsewhere.js';

/** Nesting level from which a merge that stops early replaces objects (document = 0, spec = 1, spec.role = 2). */
const MERGE_DEPTH_REACHED = 3;

/** An object without its own null members (nested ones stay). */
function withoutNullMembersHere(o: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}

/** A profile layer's own `spec.permissions`. */
function ownPermissions(spec: JsonObject): JsonObject {
  return isObject(spec['permissions']) ? spec['permissions'] : {};
}

/** `spec.role` of a parsed document, when it has one. */
function roleOf(value: unknown): JsonObject | undefined {
  const spec = isObject(value) ? value['spec'] : undefined;
  return isObject(spec) && isObject(spec['role']) ? spec['role'] : undefined;
}

export const MUTANTS: readonly Mutant[] = [
  mutant(
    'json-claimed-not-accepted',
    'readDocument',
    (reference) => (input, encoding) =>
      encoding === 'json' ? { issues: [issue('parse', '', 'this harness does not read JSON documents')] } : reference(input, encoding),
    ['L1-P1', 'L3-G1'],
    'Claims the json encoding in the handshake but refuses every JSON document as unparsable.',
  ),
  mutant(
    'instantiates-schema-invalid',
    'instantiable',
    (reference) => (value, rules) => ({
      profile: withLenientDefaults(value),
      issues: reference(value, rules).issues.filter((i) => !ofCategory(i, 'schema')),
    }),
    ['L1-P2'],
    'Instantiates documents that fail JSON Schema validation (validate still reports them).',
  ),
  mutant(
    'accepts-unknown-major',
    'profileIssues',
    (reference) => (value, rules) => {
      // Its version grammar is MAJOR[.MINOR] of any major: `2.0` and `10` pass, `1.` does not.
      const oap = isObject(value) ? value['oap'] : undefined;
      const wellFormed = typeof oap === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(oap);
      return reference(value, rules).filter(
        (i) => !(wellFormed && (ofCategory(i, 'version-major') || (ofCategory(i, 'schema') && i.pointer === '/oap'))),
      );
    },
    ['L1-P3'],
    'Accepts any well-formed oap version whatever its major (`2.0`, `7.3`, `10`).',
  ),
  mutant(
    'accepts-higher-minor',
    'profileIssues',
    (reference) => (value, rules) => reference(value, rules).filter((i) => !ofCategory(i, 'version-minor')),
    ['L1-P4'],
    'Accepts oap minor versions above 1.0.',
  ),
  mutant(
    'accepts-unknown-kind',
    'profileIssues',
    (reference) => (value, rules) =>
      reference(value, rules).filter((i) => !(ofCategory(i, 'kind') || (ofCategory(i, 'schema') && i.pointer === '/kind'))),
    ['L1-P5'],
    'Accepts unknown and reserved kind values.',
  ),
  mutant(
    'schema-errors-without-pointer',
    'profileIssues',
    (reference) => (value, rules) => reference(value, rules).map((i) => (ofCategory(i, 'schema') ? { ...i, pointer: '' } : i)),
    ['L1-P6'],
    'Reports schema errors with pointer "" (whole document).',
  ),
  mutant(
    'ignores-project-root',
    'discoveryRoots',
    (reference) => (roots, purpose) =>
      reference(roots, purpose).filter((r) => !(r.kind === 'project' && (purpose === 'discover' || purpose === 'select'))),
    ['L1-D1'],
    'Discovery and by-name selection never look in <workspace>/.agents/.',
  ),
  mutant(
    'within-root-collision-silent',
    'withinRootCollision',
    () => (_name, found) => found[0],
    ['L1-D2'],
    'Two files with one name in one root: the first by file name wins silently.',
  ),
  mutant(
    'cross-root-collision-unreported',
    'crossRootCollision',
    () => () => undefined,
    ['L1-D3'],
    'Cross-root precedence is right but collisions are not reported.',
  ),
  mutant(
    'file-name-wins',
    'profileName',
    () => (_metadataName, fileName) => fileName,
    ['L1-D4'],
    'Profiles are known by their file name instead of metadata.name.',
  ),
  mutant(
    'prompt-constraints-before-instructions',
    'promptOrder',
    (reference) => () => reference().map((k) => (k === 'instructions' ? 'constraints' : k === 'constraints' ? 'instructions' : k)),
    ['L1-I1'],
    'Renders constraints before instructions.',
  ),
  mutant(
    'denylist-ignored',
    'selectTools',
    (reference) => (request, from, ctx) =>
      request.policy === 'denylist'
        ? { value: toolTable({ policy: 'inherit' }, from.granted).value, ignored: [] }
        : reference(request, from, ctx),
    ['L1-I2'],
    'tools.policy denylist behaves like inherit: the deny list is not subtracted.',
  ),
  mutant(
    'permission-profile-wins',
    'permissionDecision',
    (reference) => (request, ceiling, key, ctx) => {
      const asked = ctx.stated[key];
      return ctx.origin === 'policy' && key !== 'default' && asked ? asked : reference(request, ceiling, key, ctx);
    },
    ['L1-I3'],
    "An explicit profile permission (shell/edit/network) replaces the policy's instead of taking the minimum; the adjustment is still recorded.",
  ),
  mutant(
    'union-tools',
    'selectTools',
    (reference) => (request, from, ctx) => {
      const selected = reference(request, from, ctx);
      if (ctx.origin !== 'policy' || request.policy === 'inherit' || request.policy === 'denylist') return selected;
      const added = request.allow.filter(
        (entry) => !from.granted.some((n) => globMatch(entry, n)) && !isGlob(entry) && !matchesAny(request.deny, entry),
      );
      return { ...selected, value: [...selected.value, ...added] };
    },
    ['L1-I3'],
    'Allowlisted tool names the policy does not grant are added anyway (union instead of intersection).',
  ),
  mutant(
    'trust-from-file',
    'assignTrust',
    () => (rootTrust, fileTrust) => (typeof fileTrust === 'string' && fileTrust ? (fileTrust as typeof rootTrust) : rootTrust),
    ['L1-I4'],
    'metadata.trust from the file is used when present.',
  ),
  mutant(
    'context-path-unchecked',
    'contextFile',
    () => (path) => ({ ok: true, relative: path }),
    ['L1-I5'],
    'context.files paths are not checked for workspace escapes.',
  ),
  mutant(
    'literal-secret-accepted',
    'profileIssues',
    (reference) => (value, rules) =>
      reference(value, rules).filter(
        (i) =>
          !(
            /^\/spec\/tools\/mcp_servers\/\d+\/(env|headers)(\/|$)/.test(i.pointer) &&
            (ofCategory(i, 'schema') || ofCategory(i, 'secret-literal') || ofCategory(i, 'secret-pattern'))
          ),
      ),
    ['L1-I6', 'L1-P2', 'ADV-env-same-name'],
    'Literal values in mcp_servers env/headers are accepted (and with them a reference of another name, which the same check refuses; the schema errors there too: the same refusal L1-P2 sees).',
  ),
  mutant(
    'required-skill-missing-ignored',
    'refusesMissing',
    (reference) => (what, required) => what !== 'skill' && reference(what, required),
    ['L1-I7'],
    'A missing required skill is dropped with a warning instead of failing instantiation.',
  ),
  mutant(
    'session-records-profile-digest',
    'sessionSpecDigest',
    () =>
      ({ digests }) =>
        digests.profile_digest,
    ['L1-I8'],
    'The session records the profile digest where the spec digest belongs.',
  ),
  mutant(
    'no-adjustment-record',
    'recordedAdjustments',
    (reference) => (all) => reference(all).filter((a) => a.action === 'substituted'),
    ['L1-I9'],
    'Drops and narrowings are not recorded (model substitutions still are).',
  ),
  mutant(
    'reload-mid-session',
    'describedContract',
    () => (held, reload) => reload() ?? held,
    ['L1-I10'],
    'describe_session re-reads the profile file and replaces the running contract.',
  ),
  mutant(
    'creates-cache-file-on-resolve',
    'resolutionFootprint',
    () => (name, profilePath) =>
      writeFileSync(join(dirname(profilePath), '.oap-resolve-cache.json'), JSON.stringify({ name, resolved_at: Date.now() })),
    ['L1-I11'],
    'Resolution writes .oap-resolve-cache.json next to the profile.',
  ),
  mutant(
    'model-rule-unreported',
    'reportedModelRule',
    () => () => 1,
    ['L1-I12'],
    'Always reports model rule 1, even when it substituted another model.',
  ),
  mutant(
    'drops-unknown-annotations',
    'writeAnnotation',
    (reference) => (key, value) => (key.startsWith('oap-conform.dev/') ? reference(key, value) : undefined),
    ['L1-R1'],
    'The writer drops annotations outside its own oap-conform.dev/ namespace.',
  ),
  mutant(
    'annotation-json-reformatted',
    'writeAnnotation',
    (reference) => (key, value) => reference(key, typeof value === 'string' ? compactJson(value) : value),
    ['L1-R2'],
    'The writer re-serializes annotation values holding JSON objects/arrays (compact form).',
  ),
  mutant(
    'state-after-postamble',
    'promptOrder',
    (reference) => () => [...reference().filter((k) => k !== 'state'), 'state'],
    ['L2-S1'],
    'State is injected after the harness postamble instead of at position 7.',
  ),
  mutant(
    'state-no-delimiter-escape',
    'stateFraming',
    () => () => ({
      line: (body) => body,
      block(kept, notice) {
        const body = kept.map((e) => e.line).join('\n');
        return ['<<<OAP-STATE BEGIN>>>', STATE_LABEL, ...(body ? [body] : []), ...(notice ? [notice] : []), '<<<OAP-STATE END>>>'].join(
          '\n',
        );
      },
    }),
    ['L2-S2'],
    'State fences are fixed strings and state lines are not quoted, so state text can close the block.',
  ),
  mutant(
    'state-grants-authority',
    'stateAuthority',
    () => (state, effective, ceiling) => obeyStateInstructions(state, effective, ceiling),
    ['L2-S3'],
    'Follows "you may now use the X tool" in state, adding the tool and lifting its permission (within policy).',
  ),
  mutant(
    'state-budget-ignored',
    'withinStateBudget',
    () => () => true,
    ['L2-S4'],
    'max_state_tokens and max_state_bytes are ignored; all state is injected.',
  ),
  mutant(
    'state-vars-substituted',
    'substitutionTargets',
    (reference) => () => [...reference(), 'state'],
    ['L2-S5'],
    '${{ vars.KEY }} is substituted inside state text too.',
  ),
  mutant(
    'delta-extra-field',
    'assembleDelta',
    (reference) => (parts) => ({ ...reference(parts), generated_by: HARNESS_NAME }),
    ['L2-G1'],
    'Generated deltas carry an extra top-level field (generated_by), which the schema forbids.',
  ),
  mutant(
    'target-revision-next',
    'deltaTargetRevision',
    () => (instantiated) => instantiated + 1,
    ['L2-G2'],
    'target.revision is the next revision (instantiated + 1).',
  ),
  mutant(
    'writes-profile-on-end',
    'sessionEndFootprint',
    (reference) => async (session, delta, now, rules) => {
      await reference(session, delta, now, rules);
      writeFileAtomic(session.path, serializeProfile(session.doc, session.encoding, rules), rules.fsyncBeforeRename);
    },
    ['L2-G3'],
    'end_session rewrites the profile file while generating the delta.',
  ),
  mutant(
    'capability-request-dropped',
    'proposesCapability',
    () => () => false,
    ['L2-G4'],
    'capability_request evidence is dropped instead of becoming a proposal.',
  ),
  mutant(
    'evidence-free-summary',
    'summaryOperation',
    () => (sessionId, outcome) => ({
      op: 'replace',
      path: '/state/summary',
      value: `Session ${sessionId} ${outcome}; the agent summarised its own work.`,
    }),
    ['L2-G5'],
    'Every delta replaces /state/summary with a self-written summary, evidence or not.',
  ),
  mutant(
    'skips-delta-validation',
    'deltaIssues',
    (reference) => (delta) => reference(delta).filter((i) => i.code.startsWith('delta-scope')),
    ['L2-A1'],
    'Applies deltas without schema validation (only the /state scope rule is kept).',
  ),
  mutant(
    'ops-outside-state-applied',
    'operationPath',
    // A string that is no JSON Pointer at all is refused as the reference refuses it: the defect is the missing scope rule.
    (reference) => (path) =>
      typeof path === 'string' && decodePointer(path) !== undefined ? { path: normalizeAsFilePath(path) } : reference(path),
    ['L2-A2'],
    'No scope rule; pointers are normalized like file paths, so /state/../spec/x writes /spec/x.',
  ),
  mutant(
    'blind-write-on-conflict',
    'revisionConflict',
    () => () => false,
    ['L2-A3'],
    'A delta for another revision is applied as if it matched.',
  ),
  mutant('ignores-target-digest', 'targetDigestOf', () => () => undefined, ['L2-A4'], 'target.digest is not verified.'),
  mutant(
    'non-atomic-ops',
    'operationCheckpoint',
    () =>
      (next, { path, encoding }, rules) =>
        rules.saveProfile(path, serializeProfile(next, encoding, rules), 'applicator', rules),
    ['L2-A5'],
    'The profile is saved (atomically) after each operation: a failing operation, or a kill between two, leaves the ones before it on disk.',
  ),
  mutant(
    'writeback-default-auto',
    'writebackMode',
    (reference) => (doc, ctx) => {
      const spec = isObject(doc['spec']) ? doc['spec'] : {};
      const lifecycle = isObject(spec['lifecycle']) ? spec['lifecycle'] : {};
      return lifecycle['writeback'] === undefined ? 'auto' : reference(doc, ctx);
    },
    ['L2-A6'],
    'A profile without lifecycle.writeback is treated as auto instead of propose.',
  ),
  mutant(
    'proposals-applied-under-auto',
    'appliedProposals',
    () => (writeback, proposals) => (writeback === 'auto' ? [...proposals] : []),
    ['L2-A7'],
    'Under writeback auto, proposals are applied to the profile.',
  ),
  mutant(
    'proposal-risk-from-document',
    'proposalRisk',
    () => (proposal) => (proposal['risk'] as Risk | undefined) ?? 'medium',
    ['L2-A8'],
    "Proposal risk is taken from the delta's risk field.",
  ),
  mutant('retention-not-enforced', 'retain', () => (state) => state, ['L2-A9'], 'lifecycle.retention is not enforced at write time.'),
  mutant(
    'state-updated-at-not-set',
    'stampRevision',
    () => (doc, revision, now) => {
      const meta = doc['metadata'] as JsonObject;
      meta['revision'] = revision;
      meta['updated_at'] = now;
    },
    ['L2-A10'],
    'Revision and metadata.updated_at are set, state.updated_at is not.',
  ),
  mutant(
    'history-not-trimmed',
    'keptHistory',
    () => (history) => history,
    ['L2-A11'],
    'History is appended but never trimmed to max_history.',
  ),
  mutant(
    'write-in-place',
    'saveProfile',
    (reference) => (path, text, writer, rules) =>
      writer === 'applicator' ? writeFileSync(path, text) : reference(path, text, writer, rules),
    ['L2-A12'],
    'The profile is rewritten in place (truncate + write) instead of temp file + fsync + rename.',
  ),
  mutant(
    'remove-missing-is-error',
    'removeMissing',
    () => (op) => {
      throw new OperationError(`${op.path}: nothing to remove`);
    },
    ['L2-A13'],
    'remove on a missing path rejects the delta.',
  ),
  mutant('no-id-pointers', 'entryId', () => () => undefined, ['L2-A14'], '/state/<collection>/id:<entry-id> pointers are not understood.'),
  mutant(
    'array-concat-extends',
    'mergeValue',
    (reference) => (base, child, depth, rules) =>
      Array.isArray(base) && Array.isArray(child)
        ? [...structuredClone(base), ...structuredClone(child)]
        : reference(base, child, depth, rules),
    ['L3-E1'],
    'extends concatenates arrays instead of replacing them.',
  ),
  mutant(
    'inherited-permissions-not-narrowed',
    'extendedContract',
    (reference) => (effective, layers) => {
      const own = ownPermissions(layers.ownSpec);
      const permissions = { ...effective.permissions };
      for (const f of PERMISSION_CATEGORIES) {
        const merged = layers.merged[f];
        if (merged && own[f] === undefined) permissions[f] = merged;
      }
      return reference({ ...effective, permissions }, layers);
    },
    ['L3-E2'],
    'Permissions a profile inherits through extends are not narrowed by policy (only its own are).',
  ),
  mutant(
    'mcp-server-tool-deny-ignored',
    'serverOffersTool',
    (reference) => (filters, tool, full) => reference({ ...filters, deny: [] }, tool, full),
    ['L3-M1'],
    'Per-server tools.deny of an MCP server is ignored.',
  ),
  mutant(
    'mcp-auto-launch-untrusted',
    'mcpLaunch',
    () => (_trust, autoLaunch) => (autoLaunch ? 'auto' : 'confirm'),
    ['L3-M2'],
    'MCP servers of project and imported profiles launch without confirmation.',
  ),
  mutant('skill-digest-unverified', 'skillPinMatches', () => () => true, ['L3-K1'], 'Skill digest pins are not verified.'),
  mutant(
    'store-mode-above-memory-mode',
    'storeMode',
    (reference) => (requested, ctx) => reference(requested, { ...ctx, sectionMode: ctx.ceilingMode }),
    ['L3-Y1'],
    "A store's mode is capped by policy, not by the effective spec.memory.mode.",
  ),
  mutant(
    'subagent-from-harness-default',
    'subagentCeiling',
    () =>
      ({ policy, workspace }) =>
        ceilingFromPolicy(policy, workspace, REFERENCE_RULES),
    ['L3-B1'],
    "A subagent is intersected with the harness policy instead of the parent's effective contract.",
  ),
  mutant(
    'subagent-concurrency-unbounded',
    'delegationConcurrencyAllowed',
    () => () => true,
    ['L3-B2'],
    'max_concurrent is not enforced (max_depth still is).',
  ),
  mutant(
    'md-both-instructions-accepted',
    'readDocument',
    (reference) => (input, encoding) => {
      const read = reference(input, encoding);
      if (encoding !== 'md' || read.value !== undefined || !read.issues.every((i) => i.code.startsWith('encoding'))) return read;
      const lenient = lenientMarkdown(textOf(input));
      return lenient ? { value: lenient, issues: [] } : read;
    },
    ['L3-G1'],
    'A Markdown profile with instructions in both frontmatter and body is accepted (body wins).',
  ),
  mutant(
    'extends-pin-unverified',
    'extendsPinMismatch',
    () => () => undefined,
    ['L3-G2'],
    'Digest pins on extends references are not verified.',
  ),
  mutant(
    'digest-not-canonical',
    'reportedDigests',
    () => (doc) => ({ profile_digest: plainJsonDigest(doc), spec_digest: plainJsonDigest(specDigestInput(doc)) }),
    ['L3-G2'],
    'The digest method hashes JSON.stringify output instead of JCS.',
  ),
  mutant(
    'ignores-plugin-root',
    'discoveryRoots',
    (reference) => (roots, purpose) => reference(roots, purpose).filter((r) => r.kind !== 'plugin'),
    ['L3-G3'],
    'The plugin discovery root is never read (the handshake still claims it).',
  ),
  // Case-level sensitivity mutants (tests/support/sensitivity.ts): each makes fail checks no mutant above did.
  mutant(
    'error-pointers-jsonpath',
    'reportedPointer',
    () => (pointer) => ['$', ...parsePointer(pointer)].join('.'),
    ['L1-P6'],
    'validate reports the pointers of validation (schema, version, kind, rule) errors in JSONPath form ($, $.metadata.name); parse errors keep JSON Pointers.',
  ),
  mutant(
    'allowlist-deny-ignored',
    'selectTools',
    (reference) => (request, from, ctx) =>
      reference(request.policy === 'inherit' || request.policy === 'denylist' ? request : { ...request, deny: [] }, from, ctx),
    ['L1-I2'],
    'Under tools.policy allowlist the deny list is not subtracted (denylist still honours it).',
  ),
  mutant(
    'inherit-applies-lists',
    'selectTools',
    (reference) => (request, from, ctx) => {
      if (request.policy !== 'inherit') return reference(request, from, ctx);
      const { allow, deny } = request;
      const asList: ToolsRequest = allow.length === 0 ? { policy: 'denylist', deny } : { policy: 'allowlist', allow, deny };
      return { value: toolTable(asList, from.granted).value, ignored: [] };
    },
    ['L1-I2'],
    'Under tools.policy inherit, allow and deny are applied instead of ignored.',
  ),
  mutant(
    'ungranted-tools-outside-allowlist',
    'selectTools',
    (reference) => (request, from, ctx) =>
      ctx.origin === 'policy' && (request.policy === 'inherit' || request.policy === 'denylist')
        ? reference(request, { ...from, granted: from.universe }, ctx)
        : reference(request, from, ctx),
    ['L1-I3'],
    'Under denylist and inherit the effective tools start from every tool the harness has, not from what policy grants.',
  ),
  mutant(
    'roots-not-intersected',
    'intersectRoots',
    (reference) => (requested, limit, ctx) =>
      ctx.origin === 'policy' && requested ? { value: [...requested], adjustments: [] } : reference(requested, limit, ctx),
    ['L1-I3'],
    'Profile filesystem read_roots/write_roots are taken as requested, not intersected with policy roots.',
  ),
  mutant(
    'hosts-not-intersected',
    'intersectHosts',
    (reference) => (allowHosts, limit, ctx) =>
      ctx.origin === 'policy' && allowHosts && allowHosts.length > 0
        ? { value: [...allowHosts], adjustments: [] }
        : reference(allowHosts, limit, ctx),
    ['L1-I3'],
    'Profile allow_hosts are taken as requested, not intersected with policy hosts.',
  ),
  mutant(
    'budgets-profile-wins',
    'budget',
    (reference) => (requested, limit, ctx) =>
      ctx.origin === 'policy' && requested !== undefined ? requested : reference(requested, limit, ctx),
    ['L1-I3'],
    "A budget the profile sets replaces the policy's instead of taking the smaller.",
  ),
  mutant(
    'memory-scopes-not-narrowed',
    'memoryScopes',
    (reference) => (requested, ceiling, ctx) =>
      ctx.origin === 'policy' && requested ? [...requested] : reference(requested, ceiling, ctx),
    ['L1-I3'],
    'Requested memory scopes the policy does not permit are kept.',
  ),
  mutant(
    'required-store-missing-ignored',
    'refusesMissing',
    (reference) => (what, required) => what !== 'store' && reference(what, required),
    ['L1-I7'],
    'A required memory store that is unreachable or of an unimplemented kind is dropped with a warning instead of failing instantiation.',
  ),
  mutant(
    'discovery-writes-index',
    'discoveryFootprint',
    () => (dirs, names) => {
      for (const dir of dirs.filter((d) => existsSync(d))) writeFileSync(join(dir, '.oap-index.json'), JSON.stringify(names));
    },
    ['L1-I11'],
    'discover writes a .oap-index.json cache into every root it reads.',
  ),
  mutant(
    'state-section-marked-trusted',
    'sectionTrusted',
    () => () => true,
    ['L2-S2'],
    "The state section's trusted flag is true (delimiters and escaping unchanged).",
  ),
  mutant(
    'evidence-not-redacted',
    'redactEvidence',
    () => (value) => value,
    ['ADV-delta-redaction'],
    'Evidence text goes into the generated delta without the secret-redaction pass.',
  ),
  mutant(
    'writeback-off-ignored',
    'writebackMode',
    (reference) => (doc, ctx) => {
      const writeback = reference(doc, ctx);
      return writeback === 'off' ? 'propose' : writeback;
    },
    ['L2-A6'],
    'lifecycle.writeback off is treated as propose: an approved delta is applied.',
  ),
  mutant(
    'propose-approval-ignored',
    'writebackGate',
    (reference) => (writeback, ctx) => (writeback === 'propose' ? 'apply' : reference(writeback, ctx)),
    ['L2-A6'],
    'Under writeback propose (explicit or default) deltas are applied without approval.',
  ),
  mutant(
    'auto-needs-approval',
    'writebackGate',
    (reference) => (writeback, ctx) => (writeback === 'auto' && !ctx.approved ? 'queue' : reference(writeback, ctx)),
    ['L2-A6'],
    'Under writeback auto an unapproved delta is queued instead of applied.',
  ),
  mutant(
    'extends-depth-uncapped',
    'extendsDepthAllowed',
    () => () => true,
    ['L3-E1'],
    'No extends depth cap: a chain of 9 links is merged.',
  ),
  mutant(
    'extends-depth-capped-at-seven',
    'extendsDepthAllowed',
    () => (depth) => depth <= MAX_EXTENDS_DEPTH - 1,
    ['L3-E1'],
    'The extends depth cap is 7 instead of 8: a chain of exactly 8 links is rejected.',
  ),
  mutant(
    'extends-cycle-undetected',
    'extendsCycle',
    () => () => false,
    ['L3-E1'],
    'No extends cycle check; a cycle runs into the depth cap and is rejected as extends-depth, not extends-cycle.',
  ),
  mutant(
    'extends-diamond-as-cycle',
    'extendsChain',
    () => (chain, base) => {
      chain.push(base);
      return chain;
    },
    ['L3-E1'],
    'One visited set for the whole extends walk: two bases sharing an ancestor are rejected as a cycle.',
  ),
  mutant(
    'extends-missing-base-ignored',
    'missingExtendsBase',
    () => () => undefined,
    ['L3-E1'],
    'An extends base found in no root is skipped instead of rejected.',
  ),
  mutant(
    'extends-nested-objects-replaced',
    'mergeValue',
    (reference) => (base, child, depth, rules) =>
      depth >= MERGE_DEPTH_REACHED && isObject(base) && isObject(child) ? structuredClone(child) : reference(base, child, depth, rules),
    ['L3-E1'],
    'The merge is deep only two levels (spec.<section>.<key>); objects below that (e.g. role.persona) are replaced.',
  ),
  mutant(
    'null-not-deleting',
    'mergeValue',
    (reference) => (base, child, depth, rules) =>
      reference(base, isObject(base) && isObject(child) ? withoutNullMembersHere(child) : child, depth, rules),
    ['L3-E1'],
    'An explicit null in a child keeps the inherited value instead of deleting it.',
  ),
  mutant(
    'extends-inherits-state',
    'inheritedPart',
    (reference) => (base) => {
      const out = reference(base);
      for (const k of ['state', 'history'] as const) if (base[k] !== undefined) out[k] = structuredClone(base[k]);
      return out;
    },
    ['L3-E1'],
    "A child without state/history inherits its base's state and history.",
  ),
  mutant(
    'child-override-after-narrowing',
    'extendedContract',
    (reference) => (effective, layers) => {
      const own = ownPermissions(layers.ownSpec);
      const permissions = { ...effective.permissions };
      for (const f of PERMISSION_CATEGORIES) if (typeof own[f] === 'string') permissions[f] = own[f] as Decision;
      const budgets = { ...effective.budgets };
      const ownBudgets = profileBudgets(layers.ownSpec);
      for (const key of BUDGET_KEYS) {
        const value = ownBudgets[key];
        if (budgetSection(key) === 'runtime' && value !== undefined) budgets[key] = value;
      }
      return reference({ ...effective, permissions, budgets }, layers);
    },
    ['L3-E2'],
    "The child's own permissions and runtime budgets are laid over the narrowed merge without being narrowed.",
  ),
  mutant(
    'null-delete-unrestricted',
    'extendedContract',
    (reference) => (effective, layers) => {
      const own = ownPermissions(layers.ownSpec);
      const permissions = { ...effective.permissions };
      for (const f of PERMISSION_CATEGORIES) if (own[f] === null) permissions[f] = 'allow';
      return reference({ ...effective, permissions }, layers);
    },
    ['L3-E2'],
    'A permission the child deletes with null becomes allow, bypassing policy.',
  ),
  mutant(
    'mcp-env-unresolved',
    'keepsMcpServer',
    () => () => true,
    ['L3-M1'],
    'An MCP server whose ${VAR} is not set is kept (with the literal reference) instead of dropped.',
  ),
  mutant('mcp-http-as-stdio', 'mcpTransport', () => () => 'stdio', ['L3-M1'], 'Every MCP server is reported with transport stdio.'),
  mutant(
    'skill-installed-on-load',
    'acquireSkill',
    () =>
      (skill, { workspace, profilePath }) =>
        installFromSource(skill, workspace, profilePath),
    ['L1-I11', 'L3-K1'],
    'A missing skill whose source is a workspace directory is copied next to the profile and reported present.',
  ),
  mutant(
    'memory-scope-request-ignored',
    'memoryScopes',
    () => (_requested, ceiling) => [...ceiling],
    ['L1-I3', 'L3-Y1'],
    'Memory scopes are every scope the ceiling permits, whatever the profile requested.',
  ),
  mutant(
    'store-mode-uncapped',
    'storeMode',
    () => (requested) => requested,
    ['L3-Y1'],
    'A memory store keeps its requested mode, capped neither by spec.memory.mode nor by policy.',
  ),
  mutant(
    'subagent-allow-ignored',
    'delegationAllowed',
    () => () => true,
    ['L3-B1'],
    'runtime.subagents.allow is not checked: any profile may be delegated to.',
  ),
  mutant(
    'subagent-depth-unbounded',
    'exceedsDelegationDepth',
    () => () => false,
    ['L3-B2'],
    'max_depth is not enforced (max_concurrent still is).',
  ),
  mutant(
    'non-finite-accepted',
    'readDocument',
    (reference) => (input, encoding) => {
      const read = reference(input, encoding);
      if (encoding === 'md' || read.value !== undefined || !read.issues.every((i) => i.code.startsWith('non-finite'))) return read;
      // A plain parser, which turns 1e400 / .inf into Infinity.
      const text = textOf(input);
      return { value: encoding === 'json' ? (JSON.parse(text) as unknown) : (parseYaml(text) as unknown), issues: [] };
    },
    ['L3-G2'],
    'Numbers JCS cannot represent (1e400, .inf) are read as Infinity and accepted.',
  ),
  mutant(
    'tier-before-exact',
    'modelChoice',
    (reference) => (request, models) => tierRoute(request, models) ?? reference(request, models),
    ['L1-I12'],
    'Model tier routing (rule 3) is tried before the exact provider/id (rule 1).',
  ),
  mutant(
    'installed-skills-unrecognized',
    'installedSkill',
    () => () => undefined,
    ['L3-K1'],
    "The harness's installed skills are never consulted: every skill is missing.",
  ),
  mutant(
    'external-store-kinds-unsupported',
    'storeKindImplemented',
    () => () => false,
    ['L3-Y1'],
    'No memory store kind beyond oap-state is implemented (whatever the policy lists).',
  ),
  mutant(
    'extends-pin-over-file-bytes',
    'extendsPinMismatch',
    () => (pin, _base, basePath) => {
      const actual = `sha256:${createHash('sha256').update(readFileSync(basePath)).digest('hex')}`;
      return actual === pin ? undefined : actual;
    },
    ['L3-G2'],
    'An extends pin is compared with the sha256 of the base file bytes, so no document digest ever matches.',
  ),
  // Issue 14 part B (Level 2 blind spots): each is caught by a check added for that issue.
  mutant(
    'state-json-line',
    'stateFraming',
    (reference) => () => ({
      line: reference().line,
      // JSON escaping hides every line break in state text, but not the closing tag.
      block: (kept, notice) =>
        ['<oap-state trust="untrusted">', JSON.stringify(kept.map((e) => e.body)), ...(notice ? [notice] : []), '</oap-state>'].join('\n'),
    }),
    ['L2-S2'],
    'State is rendered as <oap-state>, the entries as one JSON line, </oap-state>: JSON escaping hides line breaks, not the closing tag.',
  ),
  mutant(
    'writeback-from-annotation',
    'writebackMode',
    (reference) => (doc, ctx) => {
      const meta = isObject(doc['metadata']) ? doc['metadata'] : {};
      const annotations = isObject(meta['annotations']) ? meta['annotations'] : {};
      const annotated = annotations['writeback'];
      return typeof annotated === 'string' ? writebackOf({ lifecycle: { writeback: annotated } }) : reference(doc, ctx);
    },
    ['L2-A6'],
    'An annotation named writeback overrides spec.lifecycle.writeback.',
  ),
  mutant(
    'writeback-yaml11-off',
    'writebackMode',
    (reference) => (doc, ctx) =>
      ctx.encoding === 'yaml'
        ? writebackOf((parseYaml(readFileSync(ctx.path, 'utf8'), { version: '1.1' }) as JsonObject | null)?.['spec'])
        : reference(doc, ctx),
    ['L2-A6'],
    'The applicator re-reads a YAML profile with YAML 1.1 booleans, so an unquoted writeback: off is false and read as the default propose.',
  ),
  mutant(
    'state-snapshot-skips-writeback',
    'writebackGate',
    (reference) => (writeback, ctx) => {
      const [only, ...rest] = ctx.operations;
      return only && rest.length === 0 && only.op === 'replace' && only.path === '/state' ? 'apply' : reference(writeback, ctx);
    },
    ['L2-A6'],
    'A delta whose one operation replaces the whole /state is written as a snapshot before the writeback gate (off and propose alike).',
  ),
  mutant(
    'writeback-off-persisted-at-end',
    'sessionEndFootprint',
    (reference) => async (session, delta, now, rules) => {
      await reference(session, delta, now, rules);
      // "No review step": the session applies its own delta, as if the profile said auto.
      if (delta && writebackOf(session.doc['spec']) === 'off')
        await applyDelta(
          { profile_path: session.path, delta, approval: { operations: true }, actor: HARNESS_NAME, now },
          { ...rules, writebackMode: () => 'auto' },
        );
    },
    ['L2-A6'],
    'writeback off is read as "no review step": end_session applies the session\'s delta to the profile itself.',
  ),
  mutant(
    'retention-skips-unkeyed-facts',
    'retain',
    () => (state, retention, now) => retainKeyedOnly(state, retention, now),
    ['L2-A9'],
    "Only facts carrying the eviction strategy's key (learned_at, confidence, last_used_at) are eviction candidates; minimal facts are never evicted.",
  ),
  mutant(
    'fact-ttl-ignored',
    'retain',
    (reference) => (state, retention, now) => reference(state, { ...retention, fact_ttl_days: undefined }, now),
    ['L2-A9'],
    "lifecycle.retention.fact_ttl_days is not applied at write time (a fact's own expires_at still is).",
  ),
  mutant(
    'retention-zero-means-unlimited',
    'retain',
    (reference) => (state, retention, now) =>
      reference(
        state,
        { ...retention, max_facts: retention.max_facts || undefined, max_open_threads: retention.max_open_threads || undefined },
        now,
      ),
    ['L2-A9'],
    'max_facts: 0 and max_open_threads: 0 are read as "no cap" (a falsy check).',
  ),
  mutant(
    'history-zero-means-unlimited',
    'keptHistory',
    (reference) => (history, retention) => reference(history, { ...retention, max_history: retention.max_history || DEFAULT_MAX_HISTORY }),
    ['L2-A11'],
    'max_history: 0 is read as unset (`max_history || 50`): history is kept up to 50.',
  ),
  mutant(
    'array-index-off-by-one',
    'indexExists',
    () => (index, length) => index <= length,
    ['L2-A5'],
    'Array indexes are bounds-checked with <= length: a replace at index == length appends instead of failing the delta.',
  ),
  mutant(
    'array-add-index-clamped',
    'insertAllowed',
    () => () => true,
    ['L2-A5'],
    'An add at an array index past the end is clamped to an append (splice without a bounds check).',
  ),
  mutant(
    'replace-by-id-upserts',
    'replaceMissing',
    (reference) => (array, op, byId) => {
      if (!byId) return reference(array, op, byId);
      array.push(structuredClone(op.value));
      return { applied: true };
    },
    ['L2-A5'],
    'A replace of an id: entry that does not exist adds it (upsert) instead of failing the delta.',
  ),
  mutant(
    'result-not-validated',
    'changedProfileIssues',
    () => () => [],
    ['L2-A5'],
    'The changed profile is written without validating it, so a delta can leave a schema-invalid profile.',
  ),
  mutant(
    'remove-missing-id-is-error',
    'removeMissing',
    (reference) => (op) => {
      if (parsePointer(op.path).some((t) => idOfToken(t) !== undefined)) throw new OperationError(`${op.path}: no entry with that id`);
      return reference(op);
    },
    ['L2-A13'],
    'A remove whose id: names no entry rejects the delta (a remove of a missing index still warns).',
  ),
  mutant(
    'target-digest-not-canonical',
    'targetDigestOf',
    () => (doc) => plainJsonDigest(doc),
    ['L2-A4'],
    "target.digest is compared with the SHA-256 of the document's JSON in the file's key order, not its JCS form.",
  ),
  mutant(
    'risk-guarded-paths-only',
    'proposalRisk',
    (reference) => (proposal, doc) =>
      GUARDED_PREFIXES.some((g) => String(proposal['path']).startsWith(g))
        ? reference(proposal, doc)
        : ((proposal['risk'] as Risk | undefined) ?? 'medium'),
    ['L2-A8'],
    "Only proposal paths starting with a guarded section's path are classified; /spec/runtime and /spec keep the document's risk.",
  ),
  mutant(
    'redaction-statements-only',
    'redactEvidence',
    (reference) => (value, field) => (field === 'statement' || field === 'decision' ? reference(value, field) : value),
    ['ADV-delta-redaction'],
    'The redaction pass covers statement and decision texts only: thread titles, proposal values and rationales reach the delta as they are.',
  ),
  // Issue 13 part A: the cases split one thing per case (L3-G1 encodings, L1-I9 dimensions, L2-S3 claims).
  mutant(
    'md-heading-as-title',
    'readDocument',
    (reference) => (input, encoding) => {
      const read = reference(input, encoding);
      const role = encoding === 'md' ? roleOf(read.value) : undefined;
      if (role && typeof role['instructions'] === 'string') role['instructions'] = role['instructions'].replace(/^# [^\n]*\n+/, '');
      return read;
    },
    ['L3-G1'],
    'The Markdown reader takes a leading "# Title" line of the body as a title, not as instructions.',
  ),
  mutant(
    'md-role-from-body-only',
    'readDocument',
    (reference) => (input, encoding) => {
      const read = reference(input, encoding);
      const role = encoding === 'md' ? roleOf(read.value) : undefined;
      if (role) ((read.value as JsonObject)['spec'] as JsonObject)['role'] = { instructions: role['instructions'] };
      return read;
    },
    ['L3-G1'],
    "The Markdown reader builds spec.role from the body alone: the frontmatter's role supplements are lost.",
  ),
  mutant(
    'md-frontmatter-state-dropped',
    'readDocument',
    (reference) => (input, encoding) => {
      const read = reference(input, encoding);
      if (encoding === 'md' && isObject(read.value)) delete read.value['state'];
      return read;
    },
    ['L3-G1'],
    'The Markdown reader keeps only the configuration of the frontmatter: its state is dropped.',
  ),
  mutant(
    'model-substitution-unrecorded',
    'modelAdjustment',
    () => () => undefined,
    ['L1-I9'],
    'A substituted model is reported with its resolution rule but not recorded as a substituted field.',
  ),
  mutant(
    'state-system-lines-promoted',
    'harnessSection',
    () => (state) => systemLines(state),
    ['L2-S3'],
    'State entries that start with "SYSTEM:" are also rendered in a trusted harness section (as system messages).',
  ),
  // Issue 14 (Level 1 blind spots and the Level 1 advisories).
  mutant(
    'env-reference-name-unchecked',
    'profileIssues',
    (reference) => (value, rules) => {
      const doc = validationSubject(value);
      return reference(value, rules).filter((i) => {
        const v = ofCategory(i, 'secret-literal') ? mcpSecretAt(i, doc) : undefined;
        return !(v?.place === 'env' && /^\$\{[A-Z][A-Z0-9_]{0,63}\}$/.test(String(v.value)));
      });
    },
    ['ADV-env-same-name'],
    'An mcp_servers env value is accepted when it has the ${VAR} shape, whatever variable it names (FILES_TOKEN: ${HOME_TOKEN}).',
  ),
  mutant(
    'secret-reference-trailing-newline',
    'profileIssues',
    (reference) => (value, rules) => {
      const doc = validationSubject(value);
      return reference(value, rules).filter((i) => {
        const v = mcpSecretAt(i, doc);
        if (!v || typeof v.value !== 'string' || !v.value.endsWith('\n') || !(ofCategory(i, 'schema') || ofCategory(i, 'secret-literal')))
          return true;
        const trimmed = v.value.slice(0, -1);
        return !(v.place === 'env' ? trimmed === `\${${v.key}}` : /^(Bearer )?\$\{[A-Z][A-Z0-9_]{0,63}\}$/.test(trimmed));
      });
    },
    ['L1-I6', 'L1-P2'],
    'env and header values are matched with a $ that also matches before a final newline (as Python re does), so "${TOKEN}\\n" passes.',
  ),
  mutant(
    'allowlist-without-allow-grants-all',
    'selectTools',
    (reference) => (request, from, ctx) =>
      request.policy !== 'inherit' && request.policy !== 'denylist' && request.allow.length === 0 && request.stated
        ? { value: toolTable({ policy: 'denylist', deny: request.deny }, from.granted).value, ignored: [] }
        : reference(request, from, ctx),
    ['L1-I2'],
    'An allowlist without an allow list is read as "no restriction": every granted tool minus deny.',
  ),
  mutant(
    'inherit-applies-deny',
    'selectTools',
    (reference) => (request, from, ctx) => {
      const selected = reference(request, from, ctx);
      return request.policy === 'inherit'
        ? { ...selected, value: toolTable({ policy: 'denylist', deny: request.deny }, from.granted).value }
        : selected;
    },
    ['L1-I2'],
    'tools.policy inherit subtracts the deny list (as denylist does); allow is ignored.',
  ),
  mutant(
    'lone-permission-ignored',
    'requestedPermissions',
    (reference) => (stated, ctx) => (ctx.origin === 'policy' && stated.default === undefined ? {} : reference(stated, ctx)),
    ['L1-I3'],
    "The profile's permission decisions are read only when it states a default: shell: deny alone has no effect.",
  ),
  mutant(
    'unset-categories-filled-with-ask',
    'requestedPermissions',
    (reference) => (stated, ctx) => {
      if (ctx.origin !== 'policy' || stated.default === undefined) return reference(stated, ctx);
      const filled: RequestedPermissions = { ...stated };
      for (const f of PERMISSION_CATEGORIES) filled[f] = stated[f] ?? 'ask';
      return filled;
    },
    ['L1-I3'],
    "Categories a profile with a default leaves unset are filled with the harness's own default, ask, instead of the profile's default.",
  ),
  mutant(
    'profile-hosts-need-network-allow',
    'intersectHosts',
    (reference) => (allowHosts, limit, ctx) => {
      const granted = reference(allowHosts, limit, ctx);
      const ignored = ctx.origin === 'policy' && ctx.network !== 'allow' && requestedHosts(allowHosts) !== undefined;
      return ignored ? { ...granted, value: [...limit] } : granted;
    },
    ['L1-I3'],
    "The profile's allow_hosts are read only when the profile also says network: allow.",
  ),
  mutant(
    'profile-memory-mode-ignored',
    'memoryMode',
    (reference) => (requested, ceiling, ctx) => (ctx.origin === 'policy' ? ceiling : reference(requested, ceiling, ctx)),
    ['L1-I3', 'L3-Y1'],
    "The session's memory mode is the policy's, whatever lower mode the profile asks for (stores are still capped). Both IDs: L3-Y1 requires spec.memory.mode to be enforced, and no narrower form of the defect exists.",
  ),
  mutant(
    'profile-timeout-and-context-window-ignored',
    'requestedBudgets',
    (reference) => (spec, ctx) => {
      const asked = reference(spec, ctx);
      if (ctx.origin !== 'policy') return asked;
      const own = { ...asked };
      delete own.timeout_seconds;
      delete own.max_context_tokens;
      return own;
    },
    ['L1-I3'],
    "The profile's timeout_seconds and max_context_tokens are not read: the harness's own limits apply.",
  ),
  mutant(
    'zero-budget-unlimited',
    'budget',
    (reference) => (requested, limit, ctx) => {
      if (ctx.origin !== 'policy') return reference(requested, limit, ctx);
      // `limit || undefined`, on both sides.
      return minBudget(requested === 0 ? undefined : requested, limit === 0 ? undefined : limit);
    },
    ['L1-I3'],
    'A budget of 0 (in the profile or the policy) is read as "no limit".',
  ),
  mutant(
    'budgets-int32',
    'budget',
    (reference) => (requested, limit, ctx) => {
      const value = reference(requested, limit, ctx);
      if (ctx.origin !== 'policy' || value === null || ctx.key === 'max_cost_usd') return value;
      return (value | 0) < 0 ? null : value | 0;
    },
    ['L1-I3'],
    'Integer budgets are kept in 32-bit signed fields with -1 as "no limit": 2^31 wraps negative and reads as unlimited.',
  ),
  mutant(
    'fs-root-symlinks-not-resolved',
    'containRoot',
    () => (root, ctx) => containPathLexically(root, ctx.allowAbsolute),
    ['L1-I3'],
    'permissions.filesystem roots are checked by their text only: a root through a symlink (or a .. after one) that leaves the workspace is granted.',
  ),
  mutant(
    'fs-roots-taken-as-written',
    'grantRoots',
    () => (request, limits, ctx, rules) => {
      const asWritten = (key: 'read_roots' | 'write_roots'): string[] | undefined => request[key]?.map(String);
      if (ctx.origin === 'policy')
        return {
          read_roots: asWritten('read_roots') ?? [...limits.read_roots],
          write_roots: asWritten('write_roots') ?? [...limits.write_roots],
          adjustments: [],
        };
      const read = rules.intersectRoots(asWritten('read_roots'), limits.read_roots, { key: 'read_roots', origin: ctx.origin });
      const write = rules.intersectRoots(asWritten('write_roots'), limits.write_roots, { key: 'write_roots', origin: ctx.origin });
      return { read_roots: read.value, write_roots: write.value, adjustments: [...read.adjustments, ...write.adjustments] };
    },
    ['L1-I3'],
    'permissions.filesystem roots are copied into the session as written: not checked for .., not normalized, not narrowed.',
  ),
  mutant(
    'context-symlinks-not-resolved',
    'contextFile',
    (reference) => (path, workspace) => (workspace === undefined ? reference(path, workspace) : containPathLexically(path, false)),
    ['L1-I5'],
    'context.files paths are checked by their text only: a symlink (or a .. after one) that leaves the workspace is accepted.',
  ),
  mutant(
    'empty-annotations-dropped',
    'writeAnnotation',
    (reference) => (key, value) => (value ? reference(key, value) : undefined),
    ['L1-R1'],
    'The writer drops annotations whose value is the empty string (a truthiness filter).',
  ),
  mutant(
    'structured-annotations-dropped',
    'writeAnnotation',
    (reference) => (key, value) =>
      typeof value === 'string' && (value.includes('\n') || /^\s*[[{]/.test(value)) ? undefined : reference(key, value),
    ['L1-R1'],
    'The writer drops annotations whose value holds a line break or JSON text; one-line plain values survive.',
  ),
  mutant(
    'digest-keys-code-point-order',
    'reportedDigests',
    () => (doc) => canonicalDigests(doc, { compare: byCodePoints }),
    ['L3-G2'],
    "The digest command sorts keys by Unicode code point (Python's sorted) instead of UTF-16 code units.",
  ),
  mutant(
    'digest-numbers-python-repr',
    'reportedDigests',
    () => (doc) => canonicalDigests(doc, { number: pythonFloatRepr }),
    ['L3-G2'],
    "The digest command writes numbers as Python's repr does (1e+16, 2e-05) instead of ECMAScript's form (RFC 8785).",
  ),
  mutant(
    'digest-non-ascii-escaped',
    'reportedDigests',
    () => (doc) => canonicalDigests(doc, { string: asciiJson }),
    ['L3-G2'],
    'The digest command escapes non-ASCII characters as \\uXXXX (ensure_ascii) instead of writing UTF-8.',
  ),
  mutant(
    'digest-spec-keeps-owned-metadata',
    'reportedDigests',
    () => (doc) => {
      const d = doc as JsonObject;
      return { profile_digest: canonicalDigest(doc, {}), spec_digest: canonicalDigest({ metadata: d['metadata'], spec: d['spec'] }, {}) };
    },
    ['L3-G2'],
    "The digest command's spec digest keeps metadata.revision, updated_at and trust, so writeback and trust assignment change it.",
  ),
  mutant(
    'digest-non-finite-as-null',
    'digestRead',
    (reference) => (read, source) => {
      const own = reference(read, source);
      const { encoding } = source;
      if (own.value !== undefined || !encoding || encoding === 'md' || !own.issues.every((i) => i.code.startsWith('non-finite')))
        return own;
      // A plain parser reads 1e400 / .inf as Infinity, which JSON.stringify writes as null.
      const text = source.text();
      const plain = (encoding === 'json' ? JSON.parse(text) : parseYaml(text)) as unknown;
      return { value: JSON.parse(JSON.stringify(plain)) as unknown, issues: [] };
    },
    ['L3-G2'],
    'The digest command reads 1e400 / .inf with a plain parser and canonicalises the resulting Infinity as null (as JSON.stringify does).',
  ),
  mutant(
    'session-spec-digest-keeps-owned-metadata',
    'sessionSpecDigest',
    () =>
      ({ doc }) =>
        documentDigest({ metadata: doc['metadata'], spec: doc['spec'] }),
    ['L1-I8'],
    'The session records a spec digest computed with metadata.revision, updated_at and trust still in it.',
  ),
  mutant(
    'vars-instructions-only',
    'substitutionTargets',
    () => () => ['instructions'],
    ['ADV-vars-role-fields'],
    '${{ vars.KEY }} is substituted in instructions only, not in objectives or constraints.',
  ),
  mutant(
    'undefined-vars-empty',
    'undefinedVariable',
    () => () => '',
    ['ADV-vars-undefined'],
    'An undefined ${{ vars.KEY }} is replaced by the empty string instead of failing instantiation.',
  ),
  mutant(
    'vars-empty-is-undefined',
    'definedVariable',
    (reference) => (vars, key) => reference(vars, key) || undefined,
    ['ADV-vars-undefined'],
    'A variable is looked up by truthiness: one defined as the empty string is undefined, and instantiation fails.',
  ),
  mutant(
    'writer-adds-tools-policy-inherit',
    'roundTripDocument',
    (reference) => (doc) => {
      const out = reference(doc);
      const spec = out['spec'];
      if (isObject(spec)) spec['tools'] = { policy: 'inherit', ...(isObject(spec['tools']) ? spec['tools'] : {}) };
      return out;
    },
    ['ADV-roundtrip-spec-digest'],
    'The write-back writer serializes its model, whose tools.policy defaults to inherit, so a round trip widens the contract.',
  ),
  mutant(
    'json-duplicate-keys-last-wins',
    'readDocument',
    (reference) => (input, encoding) => {
      const read = reference(input, encoding);
      if (encoding !== 'json' || read.value !== undefined || !read.issues.every((i) => i.code.startsWith('duplicate-key'))) return read;
      return { value: JSON.parse(textOf(input)) as unknown, issues: [] };
    },
    ['ADV-duplicate-keys'],
    'A JSON key written twice is read as its last value (JSON.parse), not refused.',
  ),
  mutant(
    'yaml-duplicate-keys-last-wins',
    'readDocument',
    (reference) => (input, encoding) => {
      const read = reference(input, encoding);
      if (encoding !== 'yaml' || read.value !== undefined || !read.issues.every((i) => i.code.startsWith('duplicate-key'))) return read;
      return { value: parseYaml(textOf(input), { uniqueKeys: false }) as unknown, issues: [] };
    },
    ['ADV-duplicate-keys'],
    'A YAML key written twice is read as its last value (a lenient loader), not refused.',
  ),
  mutant(
    'limit-refusal-retried-with-backoff',
    'retryDelays',
    () => (issues) => (issues.some((i) => i.code.startsWith('limit.')) ? [250, 500, 1000, 2000, 4000] : []),
    ['ADV-hostile-parse-time'],
    'validate takes a resource-limit refusal (alias bomb, deep nesting) for a transient failure and retries with backoff for 7.75 s before answering.',
  ),
  // Issue 17 (crash points, every write path atomic, side effects where they happen).
  mutant(
    'rename-without-fsync',
    'fsyncBeforeRename',
    () => () => undefined,
    ['L2-A12'],
    'The temporary file is written and renamed over the profile without fsync: a kill leaves a whole file, a power cut may not.',
  ),
  mutant(
    'write-back-in-place',
    'saveProfile',
    (reference) => (path, text, writer, rules) =>
      writer === 'round-trip' ? writeFileSync(path, text) : reference(path, text, writer, rules),
    ['L2-A12'],
    'write_back (the round-trip writer) truncates and rewrites the profile in place; apply_delta is atomic.',
  ),
  {
    ...mutant(
      'writes-xdg-config-on-resolve',
      'resolutionFootprint',
      () => (name, profilePath) => {
        if (!process.env.XDG_CONFIG_HOME) return;
        const dir = join(process.env.XDG_CONFIG_HOME, 'oap-reference');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'last-resolved.json'), JSON.stringify({ name, path: profilePath }));
      },
      ['L1-I11'],
      'Resolution writes oap-reference/last-resolved.json into $XDG_CONFIG_HOME (the adapter process environment), not next to the profile.',
    ),
    asProcess: true,
  },
  // Issue 22 part 4: the MUST sentences the sentence manifest found without a mutant of their clause.
  mutant(
    'skill-pins-unsupported',
    'skillPinMatches',
    () => () => false,
    ['L3-G2'],
    "Skill digest pins are not supported: every pinned skill is taken for a mismatch, also when the installed content's digest is the pin, so a required pinned skill refuses the profile.",
  ),
  mutant(
    'model-parameters-fatal',
    'modelParameters',
    (reference) => (parameters, ctx) => {
      const out = reference(parameters, ctx);
      if (!('warnings' in out) || out.warnings.length === 0) return out;
      const model = `${ctx.model.provider}/${ctx.model.id}`;
      return { errors: out.warnings.map((w) => ({ ...w, message: `${model} does not support ${w.pointer.split('/').pop()}` })) };
    },
    ['ADV-model-parameters'],
    "seed or reasoning_effort the model's provider does not support fails instantiation instead of being dropped with a warning.",
  ),
  mutant(
    'array-add-at-index-overwrites',
    'addAtIndex',
    (reference) => (array, index, value) => {
      if (index < array.length) array[index] = value;
      else reference(array, index, value);
    },
    ['ADV-pointer-paths'],
    '`add` at an existing array index replaces the element there instead of inserting before it (an append at the end still works).',
  ),
  // Clauses whose defect no mutant above had: each of these breaks one clause its ID's cases observe.
  mutant(
    'temp-file-in-tmpdir',
    'saveProfile',
    () => (path, text) => writeViaTmpdir(path, text),
    ['L2-A12'],
    "The profile's temporary file is written, fsync-ed and renamed from the system temporary directory, not the profile's own (a copy when the rename crosses file systems).",
  ),
  mutant(
    'first-root-wins',
    'discoveryRoots',
    (reference) => (roots, purpose) => reference(roots, purpose).map((r) => ({ ...r, rank: -r.rank })),
    ['L1-D3'],
    'A name defined in several roots resolves to the first root searched (managed before user before project), as a search that stops at the first hit does; the collision is still reported.',
  ),
  mutant(
    'metadata-updated-at-not-set',
    'stampRevision',
    (reference) => (doc, revision, now) => {
      const meta = doc['metadata'] as JsonObject;
      const before = meta['updated_at'];
      reference(doc, revision, now);
      if (before === undefined) delete meta['updated_at'];
      else meta['updated_at'] = before;
    },
    ['L2-A10'],
    'Revision and state.updated_at are set, metadata.updated_at keeps its old value.',
  ),
  mutant(
    'history-not-appended',
    'keptHistory',
    (reference) => (history, retention) => reference(history.slice(0, -1), retention),
    ['L2-A11'],
    'A change is written without a history entry; the history a profile has is still trimmed to max_history.',
  ),
  mutant(
    'state-elision-unannounced',
    'stateFraming',
    (reference) => () => {
      const framing = reference();
      return { line: framing.line, block: (kept) => framing.block(kept, null) };
    },
    ['L2-S4'],
    'State entries dropped to fit the budget are dropped silently: the notice is reported in prompt.state but never written into the prompt.',
  ),
  mutant(
    'metadata-requests-dropped',
    'proposesCapability',
    (reference) => (request) => reference(request) && request.path.startsWith('/spec'),
    ['L2-G4'],
    'Only capability requests for /spec become proposals; a request to change /metadata (description, tags) is dropped.',
  ),
  mutant(
    'retention-eviction-always-oldest',
    'retain',
    (reference) => (state, retention, now) => reference(state, { ...retention, eviction: 'oldest' }, now),
    ['L2-A9'],
    'lifecycle.retention.eviction is ignored at write time: over a cap, the oldest entries go whatever the strategy says.',
  ),
  mutant(
    'retention-evicts-pinned',
    'retain',
    (reference) => (state, retention, now) => {
      const pinned = new Set<unknown>();
      const unpinned = (list: unknown): unknown =>
        Array.isArray(list)
          ? list.map((e) => {
              if (!isObject(e) || e['pinned'] !== true) return e;
              pinned.add(e['id']);
              const { pinned: _pin, ...rest } = e;
              return rest;
            })
          : list;
      const repinned = (list: unknown): unknown =>
        Array.isArray(list) ? list.map((e) => (isObject(e) && pinned.has(e['id']) ? { ...e, pinned: true } : e)) : list;
      const asked = { ...state };
      for (const key of ['facts', 'open_threads']) if (key in state) asked[key] = unpinned(state[key]);
      const kept = reference(asked, retention, now);
      for (const key of ['facts', 'open_threads']) if (key in kept) kept[key] = repinned(kept[key]);
      return kept;
    },
    ['L2-A9'],
    'Pinned entries count toward the retention caps and are evicted like the rest at write time (the pin is kept on those that stay).',
  ),
  mutant(
    'state-bytes-budget-ignored',
    'withinStateBudget',
    (reference) => (bytes, budgets) => reference(bytes, { ...budgets, max_state_bytes: null }),
    ['L2-S4'],
    'Only max_state_tokens bounds injected state; max_state_bytes is never checked.',
  ),
  mutant(
    'state-tokens-budget-ignored',
    'withinStateBudget',
    (reference) => (bytes, budgets) => reference(bytes, { ...budgets, max_state_tokens: null }),
    ['L2-S4'],
    'Only max_state_bytes bounds injected state; max_state_tokens is never checked.',
  ),
  // The legal forms calibration varies (suites/calibration): each refused form, as a rule.
  mutant(
    'metadata-revision-required',
    'profileIssues',
    (reference) => (value, rules) => {
      const found = reference(value, rules);
      const meta = isObject(value) && isObject(value['metadata']) ? value['metadata'] : undefined;
      return meta && meta['revision'] === undefined
        ? [...found, issue('schema.required', '/metadata/revision', 'metadata.revision is required here')]
        : found;
    },
    ['L1-P2'],
    'Refuses every profile that leaves the optional metadata.revision out (its default is 1).',
  ),
  mutant(
    'append-at-dash-refused',
    'operationPath',
    (reference) => (path) =>
      typeof path === 'string' && path.endsWith('/-') ? { error: `${path}: cannot append at /-` } : reference(path),
    ['ADV-pointer-paths'],
    'Cannot apply an add at /state/<collection>/-; an index or an id: pointer applies.',
  ),
  mutant(
    'unpinned-delta-refused',
    'deltaIssues',
    (reference) => (delta) => {
      const found = reference(delta);
      const target = isObject(delta) && isObject(delta['target']) ? delta['target'] : undefined;
      return target && target['digest'] === undefined
        ? [...found, issue('digest-mismatch', '/target/digest', 'the delta names no digest, which matches nothing')]
        : found;
    },
    ['L2-A4'],
    'Checks target.digest even when the delta has none, so every unpinned delta is refused as a digest mismatch.',
  ),

  // Clause sensitivity (MUTANTS.md, last section): one mutant for each clause or case that no mutant
  // of its own failed. Each replaces one rule with the realistic bug in that decision.
  mutant(
    'session-name-from-id',
    'sessionName',
    (reference) => (metadata) => (typeof metadata['id'] === 'string' ? metadata['id'] : reference(metadata)),
    ['L1-I8'],
    'The session records metadata.id (a URN) as its profile name when the profile has one.',
  ),
  mutant(
    'session-revision-absent-is-0',
    'sessionRevision',
    (reference) => (metadata) => (metadata['revision'] === undefined ? 0 : reference(metadata)),
    ['L1-I8'],
    'A profile without metadata.revision is recorded as revision 0 (the default is 1).',
  ),
  mutant(
    'store-created-on-load',
    'storeFootprint',
    () => (store) => createStoreCollection(store),
    ['L1-I11'],
    'Every declared memory store is opened at load by a get-or-create client: PUT <uri> during resolution.',
  ),
  mutant(
    'tool-policy-default-inherit',
    'toolPolicy',
    (reference) => (stated) => (stated === undefined ? 'inherit' : reference(stated)),
    ['L1-I2'],
    'A profile that states no tools.policy gets inherit (the granted set, its lists ignored), not the default allowlist.',
  ),
  mutant(
    'session-revoked-when-file-gone',
    'describedContract',
    () => (held, reload) => (reload() === undefined ? revokedSession(held) : held),
    ['L1-I10'],
    'describe_session checks that the profile still resolves and revokes (no tools, every permission deny) a session whose file is gone.',
  ),
  mutant(
    'scope-guards-spec-and-metadata-only',
    'operationPath',
    (reference) => (path) =>
      // Only a well-formed pointer passes its guard: the defect is the missing scope, not the grammar.
      typeof path === 'string' && decodePointer(path) !== undefined && !/^\/(spec|metadata)(\/|$)/.test(path) ? { path } : reference(path),
    ['L2-A2'],
    'The scope rule refuses only pointers under /spec and /metadata, so /history (and any other member) can be written.',
  ),
  mutant(
    'propose-never-applies',
    'writebackGate',
    (reference) => (writeback, ctx) => (writeback === 'propose' ? 'queue' : reference(writeback, ctx)),
    ['L2-A6'],
    'writeback propose (explicit or by default) always queues: an approved delta is never applied.',
  ),
  mutant(
    'state-approvals-reapplied',
    'stateAuthority',
    () => (state, effective, ceiling) => reapplyApprovedPermissions(state, effective, ceiling),
    ['L2-S3'],
    'Approved permission changes remembered in state ("Permissions update approved …: shell allow") are applied again at load, within policy.',
  ),
  mutant(
    'state-preferences-as-settings',
    'stateAuthority',
    () => (state, effective, ceiling) => preferencesAsSettings(state, effective, ceiling),
    ['L2-S3'],
    'Learned preferences of the form "memory.mode is read_write" are applied as settings, within policy.',
  ),
  mutant(
    'revision-bumped-per-operation',
    'nextRevision',
    (reference) => (revision, delta) => reference(revision, delta) + Math.max(delta.operations - 1, 0),
    ['L2-A10'],
    'metadata.revision is bumped once per applied operation (inside the operation loop), not once per write.',
  ),
  mutant(
    'state-pinned-evicted',
    'stateEvictionOrder',
    () => (entries, eviction) =>
      evictionOrder(
        entries,
        (e) => [Number(e.last), e.key(eviction)],
        () => false,
      ),
    ['L2-S4'],
    'Pinned entries are elided like any other to fit the state budget (pinning read as a write-time retention flag only).',
  ),
  mutant(
    'state-eviction-strategy-ignored',
    'stateEvictionOrder',
    (reference) => (entries) => reference(entries, 'oldest'),
    ['L2-S4'],
    'State over the injection budget is elided oldest first, whatever lifecycle.retention.eviction says.',
  ),
  mutant(
    'state-entry-truncated-to-fit',
    'stateRemainder',
    () => (line, fits) => cutToFit(line, fits),
    ['L2-S4'],
    'The last entry elided to fit the state budget is cut to the room left instead of dropped whole.',
  ),
  mutant(
    'conflict-always-rebased',
    'conflictRebasable',
    () => () => true,
    ['L2-A3'],
    'Every delta for an older revision is rebased: its operations are replayed on the current revision as written, array positions included.',
  ),
  mutant(
    'vars-role-lists-only',
    'substitutionTargets',
    () => () => ['objectives', 'constraints'],
    ['ADV-vars-role-fields'],
    '${{ vars.KEY }} is substituted in the role lists (objectives, constraints) only: instructions, one block of text, pass through as written.',
  ),
  mutant(
    'stdio-env-left-to-child',
    'keepsMcpServer',
    (reference) => (missing, server) => server['transport'] === 'stdio' || reference(missing, server),
    ['L3-M1'],
    "A stdio server's env is handed to the child process as written, for its environment to resolve: one whose ${VAR} is not set is kept, not dropped.",
  ),
  mutant(
    'extends-skips-managed-root',
    'discoveryRoots',
    (reference) => (roots, purpose) => reference(roots, purpose).filter((r) => purpose !== 'extends' || r.kind !== 'managed'),
    ['L3-G3'],
    'Bases are looked up in the roots people author profiles in (user, project, plugins): the managed root, read as policy, is never searched for a base.',
  ),
  mutant(
    'extends-skips-user-root',
    'discoveryRoots',
    (reference) => (roots, purpose) => reference(roots, purpose).filter((r) => purpose !== 'extends' || r.kind !== 'user'),
    ['L3-G3'],
    "Bases are looked up in the shared roots only (managed, project, plugins): the user root, one person's own profiles, is never searched for a base.",
  ),
  mutant(
    'session-records-next-revision',
    'sessionRevision',
    (reference) => (metadata) => reference(metadata) + 1,
    ['L1-I8'],
    'The session records the revision its first write will produce (metadata.revision + 1), not the one it loaded.',
  ),
  mutant(
    'state-oldest-in-document-order',
    'stateEvictionOrder',
    (reference) => (entries, eviction) =>
      eviction === 'oldest'
        ? evictionOrder(
            entries,
            (e) => [Number(e.last)],
            (e) => e.pinned,
          )
        : reference(entries, eviction),
    ['L2-S4'],
    'Under eviction oldest, entries are elided in the order they are listed (as if appends were always newest), not by learned_at.',
  ),
  mutant(
    'working-directory-unchecked',
    'workingDirectory',
    () => (path) => ({ ok: true, relative: path }),
    ['ADV-working-directory-escape'],
    'context.working_directory is taken as written: not checked for .., absolute paths or symlinks leaving the workspace.',
  ),
  // Issue 20 part 4: found by walking the boundary catalogue (./boundaries.ts).
  ...BOUNDARY_MUTANTS,
  ...CLASS_WALK_MUTANTS,
];
