/**
 * L3-G1: all three encodings, Markdown included, give the same session, and a Markdown document with
 * spec.role.instructions in frontmatter AND body is rejected.
 *
 * A Level 3 claim must support every encoding (L3-G1 says so), so the handshake is checked inside
 * the case: an adapter that does not declare md fails G1 rather than being "not applicable".
 *
 * One case per thing compared, each with a minimal profile, so that one field a harness handles
 * differently costs one case: the Markdown body, Markdown frontmatter carrying role supplements or
 * state (what the Markdown encoding splits or leaves beside the body), and JSON. Each encoding of a document is loaded from the project root
 * of its own workspace (no name collision, and nothing needs a profile from outside every root).
 */
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import type { InstantiatedT, InstantiateOutcomeT } from '../../protocol/messages.js';
import { encodingFromPath, parseDocument, specDigest } from '../../spec/document/index.js';
import { isAncestorOrSelf } from '../../spec/semantics/index.js';
import { expectTrue, fail } from '../kit/assert.js';
import type { CaseContext, CaseDef, Encoding } from '../kit/types.js';
import { serializeDocument } from '../kit/workspace.js';
import { fixture, fixtureBytes } from '../../fixtures/index.js';
import { briefIssues, inconclusive, minimalProfile, permissivePolicy, rejectionCause, sectionTexts } from '../support/index.js';

const ALL: Encoding[] = ['yaml', 'json', 'md'];

function requireAllEncodings(ctx: CaseContext): void {
  const missing = ALL.filter((e) => !ctx.handshake.encodings.includes(e));
  if (missing.length > 0)
    fail(`a Level 3 harness must accept every encoding; handshake lacks ${missing.join(', ')}`, ALL, ctx.handshake.encodings);
}

/** Instantiate `text` from the project root of a workspace of its own (`ws-<tag>`). */
async function instantiateAlone(ctx: CaseContext, tag: string, fileName: string, text: string): Promise<InstantiateOutcomeT> {
  const ws = join(ctx.workspace.root, `ws-${tag}`);
  const path = ctx.workspace.writeFile(join(ws, '.agents', fileName), text);
  return ctx.adapter.call('instantiate', { workspace: ws, roots: { project: ws }, profile: { path }, policy: permissivePolicy() });
}

/**
 * The comparable part of a session: no session id, path or trust; no state text (its delimiters
 * may carry per-session nonces: included/elided are compared instead); section texts without
 * trailing whitespace (where a Markdown body ends is not content); the spec digest apart.
 */
function comparable(s: InstantiatedT): Record<string, unknown> {
  return {
    session: { name: s.session.name, revision: s.session.revision },
    effective: s.effective,
    sections: sectionTexts(s).map((x) => ({ kind: x.kind, text: x.text.trimEnd() })),
    state: { included: s.prompt.state.included, elided: s.prompt.state.elided },
    adjustments: s.adjustments.map((a) => `${a.action} ${a.pointer}`).sort(),
  };
}

interface Twin {
  encoding: Encoding;
  fileName: string;
  text: string;
  /** Spec digests that also name this document (Markdown: the body read with its trailing newlines kept or stripped). */
  digests?: string[];
}

/**
 * The same logical document as YAML and as `twin` must instantiate to the same session. The YAML
 * session is the baseline: when it is refused, the case cannot compare anything (the refusal is
 * judged by L1-P1/L1-P2). A refused twin, or any difference, is this ID's failure.
 */
async function sameAsYaml(ctx: CaseContext, yaml: { fileName: string; text: string }, twin: Twin): Promise<void> {
  requireAllEncodings(ctx);
  const base = await instantiateAlone(ctx, 'yaml', yaml.fileName, yaml.text);
  if (base.status !== 'instantiated')
    return inconclusive(
      'the YAML baseline of a valid document was rejected; L1-P1 and L1-P2 judge that',
      rejectionCause('YAML baseline', base.errors),
    );
  const other = await instantiateAlone(ctx, twin.encoding, twin.fileName, twin.text);
  if (other.status !== 'instantiated')
    fail(
      `the ${twin.encoding} encoding of a document whose YAML instantiates was rejected`,
      { status: 'instantiated' },
      { status: other.status, errors: briefIssues(other.errors) },
    );
  const a = comparable(base);
  const b = comparable(other);
  const differing = Object.keys(a).filter((k) => !isDeepStrictEqual(a[k], b[k]));
  if (differing.length > 0)
    fail(
      `${twin.encoding} instantiates differently from yaml in: ${differing.join(', ')}`,
      Object.fromEntries(differing.map((k) => [k, a[k]])),
      Object.fromEntries(differing.map((k) => [k, b[k]])),
    );
  const digests = [base.session.spec_digest, ...(twin.digests ?? [])];
  expectTrue(digests.includes(other.session.spec_digest), `the ${twin.encoding} session records another spec digest than the yaml one`, {
    expected: { anyOf: digests },
    observed: other.session.spec_digest,
  });
}

/** Spec digests of `doc` with its instructions read as a Markdown body with trailing newlines kept or stripped. */
function bodyReadings(doc: Record<string, unknown>, body: string): string[] {
  const withInstructions = (text: string): string => {
    const copy = structuredClone(doc) as { spec: { role: { instructions: string } } };
    copy.spec.role.instructions = text;
    return specDigest(copy as never);
  };
  const kept = body.replace(/^(?:[ \t]*\r?\n)+/, '');
  return [...new Set([withInstructions(kept), withInstructions(kept.trimEnd())])];
}

// ---------------------------------------------------------------- the fixture triple

function fixtureTwin(encoding: Encoding): { yaml: { fileName: string; text: string }; twin: Twin } {
  const f = fixture('level-3', 'l3-g1-same');
  const files = f.files.map((rel, i) => ({ rel, text: fixtureBytes(f, i).toString('utf8') }));
  // Suite self-check: the fixture files really are one logical document.
  const parsed = files.map(({ rel, text }) => {
    const r = parseDocument(text, encodingFromPath(rel)!);
    if (!r.ok) throw new Error(`fixture ${rel} does not parse: ${r.issues[0]?.code}`);
    return r.value;
  });
  if (!parsed.every((v) => isDeepStrictEqual(v, parsed[0]))) throw new Error('fixture l3-g1-same: the files are not one logical document');
  const pick = (e: Encoding) => files.find((x) => encodingFromPath(x.rel) === e)!;
  const yaml = pick('yaml');
  const other = pick(encoding);
  const name = (rel: string): string => rel.split('/').pop()!;
  const digests =
    encoding === 'md' ? bodyReadings(parsed[0] as Record<string, unknown>, other.text.slice(other.text.indexOf('\n---', 3) + 5)) : [];
  return { yaml: { fileName: name(yaml.rel), text: yaml.text }, twin: { encoding, fileName: name(other.rel), text: other.text, digests } };
}

const jsonSame: CaseDef = {
  id: 'L3-G1/json-same-as-yaml',
  requirements: ['L3-G1'],
  clauses: ['L3-G1.yaml', 'L3-G1.json'],
  title: 'A document as JSON instantiates to the same contract, prompt and spec digest as its YAML',
  fixtures: ['l3-g1-same'],
  expectation: fixture('level-3', 'l3-g1-same').expect,
  async run(ctx) {
    const { yaml, twin } = fixtureTwin('json');
    await sameAsYaml(ctx, yaml, twin);
  },
};

const markdownBody: CaseDef = {
  id: 'L3-G1/markdown-body-same-as-yaml',
  requirements: ['L3-G1'],
  clauses: ['L3-G1.yaml', 'L3-G1.markdown'],
  title: 'A Markdown document whose body is the instructions instantiates like its YAML (body text, non-ASCII, digest)',
  fixtures: ['l3-g1-same'],
  expectation: fixture('level-3', 'l3-g1-same').expect,
  async run(ctx) {
    const { yaml, twin } = fixtureTwin('md');
    await sameAsYaml(ctx, yaml, twin);
  },
};

// ---------------------------------------------------------------- Markdown frontmatter, one kind of field each

function frontmatterCase(slug: string, what: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}): CaseDef {
  // Instructions end with one newline, as a Markdown body does (a YAML literal block's clip chomping).
  const role = { ...((spec['role'] as Record<string, unknown> | undefined) ?? {}), instructions: `You are g1-${slug}.\n` };
  const doc = minimalProfile(`g1-${slug}`, { ...spec, role }, extra);
  const file = `g1-${slug}.agent`;
  return {
    id: `L3-G1/markdown-frontmatter-${slug}-same-as-yaml`,
    requirements: ['L3-G1'],
    clauses: ['L3-G1.yaml', 'L3-G1.markdown'],
    title: `A Markdown document carrying ${what} in its frontmatter instantiates like its YAML`,
    fixtures: ['l3-g1-generated'],
    expectation: { identical_to_yaml: Object.keys(fixture('level-3', 'l3-g1-same').expect) },
    async run(ctx) {
      await sameAsYaml(
        ctx,
        { fileName: `${file}.yaml`, text: serializeDocument(doc, 'yaml') },
        { encoding: 'md', fileName: `${file}.md`, text: serializeDocument(doc, 'md') },
      );
    },
  };
}

const frontmatterRole = frontmatterCase('role', 'role supplements (objectives, persona, constraints, examples)', {
  role: {
    objectives: ['Marker G1-OBJECTIVE publish a draft every Friday.'],
    persona: { tone: 'Marker G1-TONE plain and factual', verbosity: 'terse' },
    constraints: ['Marker G1-CONSTRAINT never invent a ticket id.'],
    examples: [{ input: 'Summarize PR 12: fix crash on empty config', output: 'Fixed a crash when the configuration file is empty.' }],
  },
});

const frontmatterState = frontmatterCase(
  'state',
  'state (a summary and a fact)',
  {},
  {
    state: {
      summary: 'Marker G1-STATE-SUMMARY drafts have gone out for three releases.',
      facts: [{ id: 'fact-g1-cadence', text: 'Marker G1-STATE-FACT releases ship on the second Tuesday.' }],
    },
  },
);

// ---------------------------------------------------------------- instructions in both places

const INSTRUCTIONS = '/spec/role/instructions';

const bothPlaces: CaseDef = {
  id: 'L3-G1/markdown-instructions-in-both-rejected',
  requirements: ['L3-G1'],
  clauses: ['L3-G1.md-both-rejected'],
  title: 'A Markdown profile with spec.role.instructions in frontmatter and body is rejected',
  fixtures: ['l3-g1-both'],
  expectation: {
    ...fixture('level-3', 'l3-g1-both').expect,
    control: 'g1-body-only.agent.md (the same file, instructions only in the body) instantiates',
    categoryAndPointer: 'recorded as a note; the spec names no category',
  },
  async run(ctx) {
    requireAllEncodings(ctx);
    const f = fixture('level-3', 'l3-g1-both');
    const [both, control] = f.files.map((_, i) => fixtureBytes(f, i).toString('utf8')) as [string, string];
    // The control is the same file without the frontmatter instructions: the rejection below can
    // only be for the instructions given twice. A refused control is judged by the body case.
    const c = await instantiateAlone(ctx, 'control', 'g1-both.agent.md', control);
    if (c.status !== 'instantiated')
      return inconclusive(
        'the control (the same Markdown file with its instructions only in the body) was rejected',
        rejectionCause('control', c.errors),
      );
    const validated = await ctx.adapter.call('validate', { document: { content: both, encoding: 'md' } });
    const r = await instantiateAlone(ctx, 'both', 'g1-both.agent.md', both);
    const errors = r.status === 'rejected' ? r.errors : [];
    ctx.note('errors', {
      validate: briefIssues(validated.errors),
      instantiate: briefIssues(errors),
      at_instructions: [...validated.errors, ...errors].some((e) => isAncestorOrSelf(e.pointer, INSTRUCTIONS)),
    });
    expectTrue(!validated.valid, 'validate accepted a Markdown profile with instructions in both places', {
      expected: { valid: false },
      observed: { valid: validated.valid },
    });
    expectTrue(r.status === 'rejected', 'instantiate accepted a Markdown profile with instructions in both places', {
      expected: { status: 'rejected' },
      observed: { status: r.status },
    });
  },
};

export const encodingCases: CaseDef[] = [jsonSame, markdownBody, frontmatterRole, frontmatterState, bothPlaces];
