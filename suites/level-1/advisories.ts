/**
 * The Level 1 advisories: MUSTs of the specification that have no conformance requirement ID
 * (spec/requirements.ts, ADVISORIES). Each case names its advisory, is judged like a
 * requirement's case and reported with the sentence it rests on, and never gates a claim.
 *
 * - ADV-vars-role-fields (SPEC 3.6): `${{ vars.KEY }}` substituted in instructions, objectives and
 *   constraints alike, one case per field.
 * - ADV-vars-undefined (SPEC 3.6, 5.2 step 5): an undefined variable is an error.
 * - ADV-roundtrip-spec-digest (SPEC 2.3): a read/write cycle does not change the spec digest.
 * - ADV-duplicate-keys (SPEC 2.1): JSON and YAML documents with a duplicate key are refused.
 * - ADV-hostile-parse-time (security.md 1): hostile documents are answered in time. Whether a
 *   hostile document is refused stays L1-P2's question; only the time is judged here.
 * - ADV-model-parameters (SPEC 3.3): parameters a provider may not support (seed, reasoning_effort)
 *   never make instantiation fail; the model is the one the same profile gets without them.
 * - ADV-env-same-name (SPEC 3.4): an MCP env value referencing another variable is refused; its
 *   case is beside the L1-I6 cases it shares a builder with (resolve-rejections.ts).
 *
 * Substitution itself is conditional ("A harness supporting substitution MUST ..."): a harness that
 * substitutes nothing, not even in instructions, leaves both vars advisories inconclusive.
 */
import { isRefused } from '../../protocol/messages.js';
import { fixture, fixtureBytes } from '../../fixtures/index.js';
import { specDigest, specDigestInput } from '../../spec/document/index.js';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import { differencesOf } from '../../spec/document/differences.js';
import type { CaseDef, Encoding } from '../kit/types.js';
import {
  briefIssues,
  HOSTILE_TIME_BUDGET_MS,
  inconclusive,
  instantiatePath,
  instantiateSubject,
  minimalProfile,
  oracleRead,
  permissivePolicy,
  profileFileName,
  readBack,
  rejectionCause,
  requireObservable,
  timedValidate,
  tooLate,
  writeProjectProfile,
} from '../support/index.js';

// ---------------------------------------------------------------- ADV-vars-role-fields

const VARIABLES = { TEAM: 'platform', REPO: 'acme/api' };

/** Each role field with a variable, and the text it must become. */
const ROLE_FIELDS = {
  instructions: { written: 'You serve the ${{ vars.TEAM }} team.', substituted: 'You serve the platform team.' },
  objectives: { written: 'Keep ${{ vars.REPO }} green.', substituted: 'Keep acme/api green.' },
  constraints: { written: 'Never push to ${{vars.REPO}} directly.', substituted: 'Never push to acme/api directly.' },
} as const;
type RoleField = keyof typeof ROLE_FIELDS;
const FIELDS = Object.keys(ROLE_FIELDS) as RoleField[];

/**
 * One case per role field over the same profile. SPEC 3.6's MUST binds "a harness supporting
 * substitution", so a field is judged once the harness is seen substituting in any of the three; a
 * harness that substitutes in none leaves every field inconclusive.
 */
function varsInRoleField(field: RoleField): CaseDef {
  const { substituted } = ROLE_FIELDS[field];
  return {
    id: `ADV-vars-role-fields/${field}-substituted`,
    requirements: ['ADV-vars-role-fields'],
    clauses: [`ADV-vars-role-fields.${field}`],
    title: `\${{ vars.KEY }} is substituted in spec.role.${field}, as it is in the other role fields`,
    expectation: { prompt_contains: [substituted], prompt_lacks: [ROLE_FIELDS[field].written] },
    async run(ctx) {
      const doc = minimalProfile('vars-everywhere', {
        role: {
          instructions: ROLE_FIELDS.instructions.written,
          objectives: [ROLE_FIELDS.objectives.written],
          constraints: [ROLE_FIELDS.constraints.written],
        },
        context: { variables: VARIABLES },
      });
      const session = await instantiateSubject(ctx, writeProjectProfile(ctx, doc), permissivePolicy());
      const text = session.prompt.text;
      requireObservable(
        FIELDS.some((f) => text.includes(ROLE_FIELDS[f].substituted)),
        'the harness substitutes variables in no role field; SPEC 3.6 asks this only of a harness that substitutes',
        'no ${{ vars.KEY }} substitution at all',
      );
      if (!text.includes(substituted))
        fail(`\${{ vars.KEY }} in spec.role.${field} was not substituted`, { prompt_contains: [substituted] }, { prompt: text });
    },
  };
}

// ---------------------------------------------------------------- ADV-vars-undefined

const varsUndefined: CaseDef = {
  id: 'ADV-vars-undefined/undefined-variable-rejected',
  requirements: ['ADV-vars-undefined'],
  clauses: ['ADV-vars-undefined.error'],
  title:
    'A variable the profile does not define makes instantiation fail; it is not replaced by an empty string, and one defined as the empty string is',
  expectation: { control: 'instantiated and substituted (SUFFIX: "" by the empty string)', undefined: 'rejected' },
  async run(ctx) {
    // SUFFIX is defined, as the empty string: the neighbour of an undefined variable (catalogue class
    // context.variables/defined-empty), which must be substituted, not refused.
    const role = (instructions: string) => ({ role: { instructions }, context: { variables: { TEAM: 'platform', SUFFIX: '' } } });
    const control = await instantiateSubject(
      ctx,
      writeProjectProfile(ctx, minimalProfile('vars-defined', role('You serve the ${{ vars.TEAM }} team${{ vars.SUFFIX }}.'))),
      permissivePolicy(),
      { role: 'control' },
    );
    requireObservable(
      control.prompt.text.includes('You serve the platform team'),
      'the harness does not substitute variables in instructions, so an undefined one there cannot be judged',
      'no ${{ vars.KEY }} substitution at all',
    );
    expectTrue(
      control.prompt.text.includes('You serve the platform team.'),
      'a variable defined as "" is substituted by the empty string',
      {
        expected: 'You serve the platform team.',
        observed: control.prompt.text.slice(control.prompt.text.indexOf('You serve the platform team')).slice(0, 120),
      },
    );
    const doc = minimalProfile('vars-undefined', role('You serve the ${{ vars.TEAM }} team in ${{ vars.UNDEFINED_REGION }}.'));
    const out = await instantiatePath(ctx, writeProjectProfile(ctx, doc), permissivePolicy());
    if (out.status === 'instantiated')
      fail(
        'an undefined variable did not make instantiation fail',
        { status: 'rejected', category: 'variable-undefined' },
        {
          status: 'instantiated',
          prompt: out.prompt.text,
        },
      );
    ctx.note('refusal', briefIssues(out.errors));
  },
};

// ---------------------------------------------------------------- ADV-roundtrip-spec-digest

const roundTripSpecDigest: CaseDef = {
  id: 'ADV-roundtrip-spec-digest/write-back-keeps-spec-digest',
  requirements: ['ADV-roundtrip-spec-digest'],
  clauses: ['ADV-roundtrip-spec-digest.unchanged'],
  title: 'A write-back cycle leaves the spec digest unchanged: the writer adds, drops and rewrites no metadata or spec field',
  expectation: { spec_digest: 'unchanged' },
  async run(ctx) {
    // Optional fields left out, so a writer that fills its own defaults (tools.policy, memory.mode) changes the contract.
    const doc = minimalProfile('round-trip-spec', {
      role: { constraints: ['Report only.'] },
      tools: { allow: ['read', 'search'] },
      memory: { scopes: ['project:acme'] },
    });
    const path = writeProjectProfile(ctx, doc);
    const before = oracleRead(path);
    const answer = await ctx.adapter.call('write_back', { path });
    // Refusing to write a valid profile back is L1-R1's finding; here it only leaves nothing to compare.
    if (isRefused(answer)) inconclusive('write_back refused the valid profile', rejectionCause('write_back', answer.errors));
    const written = answer.path;
    const after = readBack(written);
    requireObservable(
      after.ok && after.doc !== undefined,
      'the written profile is not a valid profile the oracle can read, so its spec digest cannot be compared',
      `write_back wrote an unreadable or invalid file: ${after.issues
        .slice(0, 3)
        .map((i) => `${i.code} at ${i.pointer || '/'}`)
        .join('; ')}`,
    );
    // Where the two spec-digest inputs differ, as RFC 6901 pointers (the first 10), for the record.
    const changed = differencesOf(specDigestInput(before), specDigestInput(after.doc))
      .map((d) => d.pointer || '/')
      .slice(0, 10);
    if (changed.length > 0)
      fail(
        `the write-back cycle changed the spec digest at ${changed.join(', ')}`,
        { spec_digest: specDigest(before) },
        { spec_digest: specDigest(after.doc), changed },
      );
  },
};

// ---------------------------------------------------------------- ADV-duplicate-keys

interface DuplicateCase {
  encoding: Exclude<Encoding, 'md'>;
  /** The document with a key written twice, the second occurrence widening the first. */
  duplicate: string;
  /** The same document with only the second occurrence: valid. */
  control: string;
  where: string;
}

const YAML_HEAD =
  'oap: "1.0"\nkind: AgentProfile\nmetadata:\n  name: NAME\n  description: A profile with a key written twice.\nspec:\n  role:\n    instructions: You are NAME.\n';

const DUPLICATES: DuplicateCase[] = [
  {
    encoding: 'json',
    where: '/spec/tools/allow',
    duplicate:
      '{"oap":"1.0","kind":"AgentProfile","metadata":{"name":"NAME","description":"A profile with a key written twice."},"spec":{"role":{"instructions":"You are NAME."},"tools":{"allow":["read"],"allow":["read","shell"]}}}',
    control:
      '{"oap":"1.0","kind":"AgentProfile","metadata":{"name":"NAME","description":"A profile with a key written twice."},"spec":{"role":{"instructions":"You are NAME."},"tools":{"allow":["read","shell"]}}}',
  },
  {
    encoding: 'yaml',
    where: '/spec/permissions/shell',
    duplicate: `${YAML_HEAD}  permissions:\n    shell: deny\n    shell: allow\n`,
    control: `${YAML_HEAD}  permissions:\n    shell: allow\n`,
  },
];

function duplicateCase(d: DuplicateCase): CaseDef {
  return {
    id: `ADV-duplicate-keys/${d.encoding}-duplicate-key-refused`,
    requirements: ['ADV-duplicate-keys'],
    clauses: [`ADV-duplicate-keys.${d.encoding}`],
    title: `A ${d.encoding.toUpperCase()} document with ${d.where} written twice is refused by validate and by instantiate`,
    needs: { encodings: [d.encoding] },
    expectation: { validate: { valid: false }, instantiate: 'rejected', control: 'valid and instantiated' },
    async run(ctx) {
      const write = (name: string, text: string): string =>
        ctx.workspace.writeFile(`${ctx.workspace.projectAgents}/${profileFileName(name, d.encoding)}`, text.replaceAll('NAME', name));
      // The control (the key once) must be read at all, or the encoding is the problem (L1-P1), not the duplicate.
      const controlText = d.control.replaceAll('NAME', 'dup-control');
      const v0 = await ctx.adapter.call('validate', { document: { content: controlText, encoding: d.encoding } });
      requireObservable(
        v0.valid,
        `the same ${d.encoding} document with the key once does not validate, so a refusal of the duplicate proves nothing`,
        rejectionCause(`valid ${d.encoding} control document`, v0.errors),
      );
      await instantiateSubject(ctx, write('dup-control', d.control), permissivePolicy(), { role: 'control' });
      const text = d.duplicate.replaceAll('NAME', 'dup-twice');
      const v = await ctx.adapter.call('validate', { document: { content: text, encoding: d.encoding } });
      expectTrue(!v.valid, `validate accepted a ${d.encoding} document with ${d.where} written twice`, {
        expected: { valid: false },
        observed: { valid: v.valid, warnings: briefIssues(v.warnings) },
      });
      const out = await instantiatePath(ctx, write('dup-twice', d.duplicate));
      expectEqual(out.status, 'rejected', `instantiate of a ${d.encoding} document with ${d.where} written twice`);
      ctx.note('categories', briefIssues(v.errors));
    },
  };
}

// ---------------------------------------------------------------- ADV-hostile-parse-time

interface HostileDocument {
  /** A fixture ID (fixtures/documents) or a name for a generated document. */
  source: string;
  encoding: Exclude<Encoding, 'md'>;
  text: () => string;
}

const fromFixture = (id: string, encoding: 'json' | 'yaml'): HostileDocument => ({
  source: id,
  encoding,
  text: () => fixtureBytes(fixture('documents', id)).toString('utf8'),
});

/** A valid document whose one string is `size` characters long. */
function hugeString(encoding: 'json' | 'yaml', size: number): HostileDocument {
  return {
    source: `generated huge string (${size} characters, ${encoding})`,
    encoding,
    text: () => {
      const s = 'A'.repeat(size);
      return encoding === 'json'
        ? `{"oap":"1.0","kind":"AgentProfile","metadata":{"name":"huge","description":"Huge string."},"spec":{"role":{"instructions":"x"},"tools":{"bindings":[{"name":"read","config":{"v":"${s}"}}]}}}`
        : `${YAML_HEAD.replaceAll('NAME', 'huge')}  tools:\n    bindings:\n      - name: read\n        config:\n          v: ${s}\n`;
    },
  };
}

const HOSTILE: HostileDocument[] = [
  fromFixture('doc-neg-billion-laughs', 'yaml'),
  fromFixture('doc-neg-deep-flow-yaml', 'yaml'),
  fromFixture('doc-neg-deep-block-yaml', 'yaml'),
  fromFixture('doc-neg-deep-map-yaml', 'yaml'),
  fromFixture('doc-neg-deep-json', 'json'),
  fromFixture('doc-neg-depth-65-json', 'json'),
  hugeString('json', 2_000_000),
  hugeString('yaml', 2_000_000),
];

const hostileInTime: CaseDef = {
  id: 'ADV-hostile-parse-time/hostile-documents-answered-in-time',
  requirements: ['ADV-hostile-parse-time'],
  clauses: ['ADV-hostile-parse-time.in-time'],
  title: `Hostile documents (alias bomb, deep nesting, a 2 MB string) are answered, valid or not, within ${HOSTILE_TIME_BUDGET_MS} ms and the per-request timeout`,
  fixtures: HOSTILE.filter((h) => h.source.startsWith('doc-')).map((h) => h.source),
  expectation: { within_ms: HOSTILE_TIME_BUDGET_MS },
  async run(ctx) {
    const claimed = HOSTILE.filter((h) => ctx.handshake.encodings.includes(h.encoding));
    if (claimed.length === 0) inconclusive('the adapter claims neither YAML nor JSON', `encodings: ${ctx.handshake.encodings.join(', ')}`);
    const times: Record<string, number> = {};
    for (const h of claimed) {
      const t = await timedValidate(ctx, h.text(), h.encoding);
      times[h.source] = Math.round(t.elapsedMs);
      if (tooLate(t)) {
        ctx.note('times', times);
        ctx.note('late-input', { source: h.source, encoding: h.encoding, timed_out: t.timedOut });
        fail(
          `${h.source}: ${t.timedOut ? 'no answer before the per-request timeout' : `answered after ${Math.round(t.elapsedMs)} ms`}`,
          { within_ms: HOSTILE_TIME_BUDGET_MS },
          { source: h.source, elapsed_ms: Math.round(t.elapsedMs), timed_out: t.timedOut },
        );
      }
    }
    ctx.note('times', times);
  },
};

// ---------------------------------------------------------------- ADV-model-parameters

const modelParameters: CaseDef = {
  id: 'ADV-model-parameters/unsupported-parameters-never-fatal',
  requirements: ['ADV-model-parameters'],
  clauses: ['ADV-model-parameters.not-fatal'],
  title: 'A profile asking seed and reasoning_effort of a model it gets instantiates with that model, whatever the provider supports',
  expectation: { control: 'instantiated', with_parameters: { outcome: 'instantiated', model: 'the control model' } },
  async run(ctx) {
    const model = { provider: 'anthropic', id: 'claude-sonnet-5' };
    const policy = permissivePolicy();
    const control = await instantiateSubject(ctx, writeProjectProfile(ctx, minimalProfile('params-control', { model })), policy, {
      role: 'control',
    });
    const parameters = { seed: 7, reasoning_effort: 'high', temperature: 0.3 };
    const doc = minimalProfile('params-unsupported', { model: { ...model, parameters } });
    const out = await instantiatePath(ctx, writeProjectProfile(ctx, doc), policy);
    if (out.status !== 'instantiated')
      fail(
        'model parameters a provider may not support made instantiation fail',
        { status: 'instantiated', parameters: 'dropped with a warning where unsupported' },
        { status: out.status, errors: briefIssues(out.errors) },
      );
    expectEqual(out.effective.model, control.effective.model, 'the model used, with and without parameters');
    ctx.note(
      'parameter_adjustments',
      [...out.adjustments.map((a) => a.pointer), ...out.warnings.map((w) => w.pointer)].filter((p) =>
        p.startsWith('/spec/model/parameters'),
      ),
    );
  },
};

export const advisoryCases: CaseDef[] = [
  ...FIELDS.map(varsInRoleField),
  varsUndefined,
  roundTripSpecDigest,
  ...DUPLICATES.map(duplicateCase),
  hostileInTime,
  modelParameters,
];
