/**
 * Grammar boundaries of agent-profile.schema.json (issue 20 part 3): for every `pattern`,
 * `minLength`, `maxLength`, `minimum`, `maximum`, `exclusiveMinimum`, `maxItems`, `enum`, `const`
 * and `format`, fixed documents just inside the bound and just outside it
 * (spec/document/schema-bounds.ts derives them from the keyword: names using every allowed
 * character class, the longest legal values and one past, numbers at the bound and the next
 * double). So a harness that refuses legal names, or accepts one character too many, fails
 * deterministically instead of when the fuzzer happens to draw the edge.
 *
 * Each document is the minimal valid profile with one value at its place, written in JSON where the
 * harness claims it (else its working encoding: suites/support/bound-values.ts says why); one case
 * per keyword and side, so a defect at one edge fails one case. A case submits every document of its
 * group and lists every wrong answer, so nothing is hidden behind the first. Inside a bound a
 * document must validate, outside `validate` must refuse it; the largest document of each bound must
 * also instantiate inside and be rejected by `instantiate` outside. Where they are filed
 * (INTERPRETATIONS.md "Grammar boundaries"):
 * - inside, and outside the schema: L1-P2 ("MUST validate every loaded document against
 *   agent-profile.schema.json"; a refused valid document was validated against some other schema,
 *   as the reading of "L1-P2 vs L1-P6" says);
 * - outside `oap`'s pattern: L1-P3 where the version rule refuses the value too (`10`: major 10),
 *   L1-P2 where only the pattern does (`1.`, ` 1.0`); beyond it (`1.9`, valid for the pattern): L1-P4;
 * - outside `kind`'s const: L1-P5 (an unknown kind is refused before any schema applies).
 * The minimal profile is each case's control (a precondition), so a value it already holds (`oap:
 * "1.0"`, `kind: AgentProfile`) is not submitted again. Inside values are submitted together, as
 * many to a document as the schema allows (packTogether); a document refused together is followed
 * by each of its values alone, so a failure lists exactly the values refused alone.
 * Not judged: the outside values of `format` (an annotation in JSON Schema 2020-12), the disputed
 * date-time edges, instantiating a document inside an `extends` bound (resolving bases is L3-E1's;
 * a pin that matches no base is refused by L3-G2's rule whatever its grammar) or a provider-dependent
 * model parameter (`seed`, `reasoning_effort`: ADV-model-parameters'), instantiating a document at a
 * skill's `digest` bound on either side (pinning is L3-G2's, and may be declared unimplemented), and, when the working
 * encoding is Markdown, the `instructions` length edges (the body's last line break is not content).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { InstantiateOutcomeT, Result } from '../../protocol/messages.js';
import { isValid, validateDocument } from '../../spec/document/index.js';
import { type BoundPlace, minimalDocument, placeAt, placedPointer, type SchemaBound } from '../../spec/document/schema-bounds.js';
import { isAncestorOrSelf, PROVIDER_DEPENDENT_PARAMETERS, valueAt } from '../../spec/semantics/index.js';
import type { ClauseId } from '../../spec/requirements.js';
import { fail } from '../kit/assert.js';
import type { CaseContext, CaseDef, Encoding } from '../kit/types.js';
import { serializeDocument } from '../kit/workspace.js';
import {
  type Answered,
  answered,
  type BoundGroup,
  type BoundValue,
  boundGroups,
  KEYWORD_SLUGS,
  LISTED_WRONG,
  RECORDED_WRONG,
  valueLabel,
} from '../support/bound-values.js';
import {
  briefIssues,
  claimedRoots,
  GENERATED_ENCODINGS,
  permissivePolicy,
  profileFileName,
  rejectionCause,
  requireObservable,
  workingEncoding,
} from '../support/index.js';

/** The subject's name: none of the values placed at a name is this one, so no document extends itself. */
const SUBJECT = 'grammar-bounds';

/** The minimal valid profile, named SUBJECT. */
function subject(): Record<string, unknown> {
  const doc = minimalDocument('profile');
  (doc['metadata'] as Record<string, unknown>)['name'] = SUBJECT;
  return doc;
}

/**
 * Documents at some bounds are only validated, their instantiation being another ID's question. A
 * skill's `digest` on both sides: pinning is L3-G2's, and a harness may declare skill pinning
 * unimplemented and decline any profile that pins. Inside only: resolving bases is L3-E1's and a
 * pin that matches no base L3-G2's (`extends`; outside, every reading refuses the document), and a
 * provider-dependent model parameter (`seed`, `reasoning_effort`) is dropped with a warning or not,
 * ADV-model-parameters'.
 */
function instantiated(b: BoundPlace, accept: boolean): boolean {
  if (b.pointer === '/spec/tools/skills/*/digest') return false;
  if (!accept) return true;
  return !b.pointer.startsWith('/extends') && !PROVIDER_DEPENDENT_PARAMETERS.some((key) => b.pointer === `/spec/model/parameters/${key}`);
}

interface Answer {
  validate: Answered<Result<'validate'>>;
  instantiate?: Answered<InstantiateOutcomeT>;
}

/** Validate the document by content and, when asked, instantiate it from the project root by path. */
async function submit(ctx: CaseContext, text: string, encoding: Encoding, instantiate: boolean): Promise<Answer> {
  const validate = await answered(ctx.adapter.call('validate', { document: { content: text, encoding } }));
  if (!instantiate) return { validate };
  mkdirSync(ctx.workspace.projectAgents, { recursive: true });
  const path = `${ctx.workspace.projectAgents}/${profileFileName(SUBJECT, encoding)}`;
  writeFileSync(path, text);
  // Hundreds of documents go through one file; only the wrongly answered ones are recorded as inputs.
  const outcome = await answered(
    ctx.adapter.call('instantiate', {
      workspace: ctx.workspace.dir,
      roots: claimedRoots(ctx),
      profile: { path },
      policy: permissivePolicy(),
    }),
  );
  return { validate, instantiate: outcome };
}

const validated = (a: Answer, valid: boolean): boolean => a.validate.ok && a.validate.result.valid === valid;
/** Instantiation ended with `status` (or was not asked for). */
const instantiation = (a: Answer, status: InstantiateOutcomeT['status']): boolean =>
  a.instantiate === undefined || (a.instantiate.ok && a.instantiate.result.status === status);

function brief(a: Answer): Record<string, unknown> {
  const v = a.validate;
  const i = a.instantiate;
  return {
    ...(v.ok
      ? { valid: v.result.valid, ...(v.result.valid ? {} : { errors: briefIssues(v.result.errors.slice(0, 3)) }) }
      : { validate: v }),
    ...(i === undefined
      ? {}
      : i.ok
        ? {
            instantiate: i.result.status,
            ...(i.result.status === 'rejected' ? { rejected: briefIssues(i.result.errors.slice(0, 3)) } : {}),
          }
        : { instantiate: i }),
  };
}

/**
 * The minimal profile must validate and instantiate, or no answer about a bound means anything. Here
 * it is a precondition: refusing it fails the parsing cases' own control (L1-P2), and a reader that
 * cannot read the encoding is L1-P1's, so one such defect does not also fail every bound case.
 */
async function control(ctx: CaseContext, encoding: Encoding): Promise<void> {
  const a = await submit(ctx, serializeDocument(subject(), encoding), encoding, true);
  const refused =
    a.validate.ok && !a.validate.result.valid
      ? a.validate.result.errors
      : a.instantiate?.ok && a.instantiate.result.status === 'rejected'
        ? a.instantiate.result.errors
        : [];
  requireObservable(
    validated(a, true) && instantiation(a, 'instantiated'),
    'the minimal profile every bound document starts from was refused, so no document says anything about its bound',
    a.validate.ok ? rejectionCause('minimal profile', refused) : `minimal profile refused (validate: ${a.validate.protocolError})`,
  );
}

interface BoundCase {
  id: string;
  requirement: string;
  clauses: readonly ClauseId[];
  title: string;
  accept: boolean;
  group: BoundGroup;
  /** The values of the group this case submits (default: all). */
  only?: (v: BoundValue) => boolean;
}

/** A value's document and whether it is instantiated as well as validated. */
interface Submission {
  v: BoundValue;
  text: string;
  instantiate: boolean;
}

/**
 * The documents of a group in one encoding, written when its case runs (kept, they would hold
 * megabytes of text in every worker for the rest of the run). `validate` judges every document; `instantiate` the largest of each bound (the longest
 * name, the longest string, the longest list: where a limit of resolution would bite), bar
 * `extends` inside (above). Whether a document is instantiated at all is one decision per bound,
 * and two thousand instantiations would cost the certification seconds for nothing more.
 */
function submissions(c: BoundCase, encoding: Encoding): Submission[] {
  const control = subject();
  const list = c.group.values().flatMap((v) => {
    if (c.only && !c.only(v)) return [];
    // A Markdown body ends with a line break that is not content (L3-G1's reading), so
    // `instructions` of exactly n characters cannot be written as one.
    if (encoding === 'md' && v.bound.pointer === '/spec/role/instructions') return [];
    const doc = placeAt('profile', v.bound.pointer, v.value, subject());
    // A value the minimal profile already holds (`oap: "1.0"`, `kind`) is the control's document.
    if (isDeepStrictEqual(doc, control)) return [];
    return [{ v, text: serializeDocument(doc, encoding), instantiate: false }];
  });
  const largest = new Map<string, Submission>();
  for (const d of list) {
    const best = largest.get(d.v.bound.id);
    if (best === undefined || d.text.length > best.text.length) largest.set(d.v.bound.id, d);
  }
  for (const d of largest.values()) d.instantiate = instantiated(d.v.bound, c.accept);
  return list;
}

/** Several inside values in one document, and whether it is instantiated as well as validated. */
interface Together {
  members: Submission[];
  text: string;
  instantiate: boolean;
}

/**
 * Places two values of one document can both hold: neither place contains the other, and the
 * history and the revision it raises (placeAt keeps `metadata.revision` at the last entry's) stay apart.
 */
function compatible(a: string, b: string): boolean {
  const history = (p: string): boolean => p === '/metadata/revision' || p.startsWith('/history');
  return !isAncestorOrSelf(a, b) && !isAncestorOrSelf(b, a) && !(history(a) && history(b));
}

/**
 * The inside values of a group packed into as few documents as the schema allows: a value joins
 * the first document whose places it is compatible with; a document is kept when the oracle finds it
 * valid with every value still at its place, else it is halved until it is (one value alone is its
 * own document). The largest documents of each bound go together and are instantiated, the others
 * only validated, as when each is submitted alone.
 */
function packTogether(members: readonly Submission[], encoding: Encoding): Together[] {
  const bins: Submission[][] = [];
  for (const m of members) {
    const bin = bins.find((b) => b.every((o) => compatible(o.v.bound.pointer, m.v.bound.pointer)));
    if (bin) bin.push(m);
    else bins.push([m]);
  }
  const out: Together[] = [];
  const settle = (group: Submission[]): void => {
    if (group.length === 1) {
      const [only] = group as [Submission];
      out.push({ members: group, text: only.text, instantiate: only.instantiate });
      return;
    }
    const doc = subject();
    for (const { v } of group) placeAt('profile', v.bound.pointer, v.value, doc);
    const inPlace = group.every(({ v }) => {
      const at = placedPointer(v.bound.pointer, v.value, doc);
      return at !== undefined && isDeepStrictEqual(valueAt(doc, at), v.value);
    });
    if (inPlace && isValid(validateDocument(doc).issues)) {
      out.push({ members: group, text: serializeDocument(doc, encoding), instantiate: group[0]!.instantiate });
      return;
    }
    const half = Math.ceil(group.length / 2);
    settle(group.slice(0, half));
    settle(group.slice(half));
  };
  for (const bin of bins) settle(bin);
  return out;
}

function boundCase(c: BoundCase): CaseDef {
  /** Inside values go together (packTogether); outside ones one per document, each refusal its own. */
  const rounds = (all: Submission[], encoding: Encoding): Together[] =>
    c.accept
      ? [
          ...packTogether(
            all.filter((d) => d.instantiate),
            encoding,
          ),
          ...packTogether(
            all.filter((d) => !d.instantiate),
            encoding,
          ),
        ]
      : all.map((d) => ({ members: [d], text: d.text, instantiate: d.instantiate }));
  return {
    id: c.id,
    requirements: [c.requirement],
    clauses: c.clauses,
    title: c.title,
    expectation: {
      bounds: c.group.bounds.map((b) => b.id),
      ...(c.accept ? { validate: { valid: true }, instantiate: 'instantiated' } : { validate: { valid: false }, instantiate: 'rejected' }),
      instantiated: 'the largest document of each bound',
    },
    async run(ctx) {
      const encoding = workingEncoding(ctx.handshake, GENERATED_ENCODINGS);
      await control(ctx, encoding);
      const list = submissions(c, encoding);
      const right = (answer: Answer): boolean =>
        c.accept
          ? validated(answer, true) && instantiation(answer, 'instantiated')
          : validated(answer, false) && instantiation(answer, 'rejected');
      const wrong: Array<{ bound: string; value: string; why: string; observed: Record<string, unknown> }> = [];
      let submitted = 0;
      for (const together of rounds(list, encoding)) {
        submitted += 1;
        const answer = await submit(ctx, together.text, encoding, together.instantiate);
        if (right(answer)) continue;
        // Refused together: each value alone says which (a document of one value has just said it).
        for (const { v, text, instantiate } of together.members) {
          const alone = together.members.length === 1 ? answer : await submit(ctx, text, encoding, instantiate);
          if (together.members.length > 1) submitted += 1;
          if (right(alone)) continue;
          if (wrong.length < RECORDED_WRONG) ctx.input(`document at ${v.bound.id} = ${valueLabel(v.value)}`, text);
          wrong.push({ bound: v.bound.id, value: valueLabel(v.value), why: v.why, observed: brief(alone) });
        }
      }
      ctx.note('documents', {
        encoding,
        values: list.length,
        submitted,
        instantiated: list.filter((d) => d.instantiate).length,
      });
      if (wrong.length > 0) {
        fail(
          `${wrong.length} of ${list.length} documents ${c.accept ? 'just inside their bound were refused' : 'just outside their bound were accepted'}`,
          c.accept ? { valid: true, instantiate: 'instantiated' } : { valid: false, instantiate: 'rejected' },
          wrong.slice(0, LISTED_WRONG),
        );
      }
    },
  };
}

const slug = (k: SchemaBound['keyword']): string => KEYWORD_SLUGS[k];
/** Does the version rule refuse this `oap` value (a major not implemented), not only the pattern? The oracle says. */
function majorRefused(v: BoundValue): boolean {
  return validateDocument(placeAt('profile', '/oap', v.value, subject())).issues.some((i) => i.code.startsWith('version-major'));
}

export const grammarBoundCases: CaseDef[] = [
  // `const`'s one inside value, `kind: AgentProfile`, is the control's document itself.
  ...boundGroups('profile', 'inside', (b) => b.keyword !== 'const').map((group) =>
    boundCase({
      id: `L1-P2/bounds-${slug(group.keyword)}-inside-accepted`,
      requirement: 'L1-P2',
      clauses: ['L1-P2.validate'],
      title: `Profiles just inside every ${group.keyword} bound of the schema validate and instantiate`,
      accept: true,
      group,
    }),
  ),
  ...boundGroups('profile', 'outside', (b) => b.pointer !== '/kind').map((group) =>
    boundCase({
      id: `L1-P2/bounds-${slug(group.keyword)}-outside-refused`,
      requirement: 'L1-P2',
      clauses: ['L1-P2.validate', 'L1-P2.refuse-invalid'],
      title: `Profiles just outside a ${group.keyword} bound of the schema are refused by validate and instantiate`,
      accept: false,
      group,
      only: (v) => v.bound.pointer !== '/oap' || !majorRefused(v),
    }),
  ),
  ...boundGroups('profile', 'outside', (b) => b.pointer === '/oap').map((group) =>
    boundCase({
      id: 'L1-P3/bounds-oap-major-outside-refused',
      requirement: 'L1-P3',
      clauses: ['L1-P3.reject-major'],
      title:
        'oap values outside the pattern that name a major this harness does not implement (`10`) are refused by validate and instantiate',
      accept: false,
      group,
      only: majorRefused,
    }),
  ),
  ...boundGroups('profile', 'beyond', (b) => b.pointer === '/oap').map((group) =>
    boundCase({
      id: 'L1-P4/bounds-oap-minor-beyond-schema-refused',
      requirement: 'L1-P4',
      clauses: ['L1-P4.reject-minor'],
      title: 'oap minors the pattern admits but no 1.x schema defines (`1.9`) are refused by validate and instantiate',
      accept: false,
      group,
    }),
  ),
  ...boundGroups('profile', 'outside', (b) => b.pointer === '/kind').map((group) =>
    boundCase({
      id: 'L1-P5/bounds-kind-outside-refused',
      requirement: 'L1-P5',
      clauses: ['L1-P5.reject-kind'],
      title: 'kind values next to AgentProfile (other letter case, a trailing space, empty) are refused by validate and instantiate',
      accept: false,
      group,
    }),
  ),
];
