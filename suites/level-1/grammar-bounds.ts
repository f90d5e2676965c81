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
 * "1.0"`, `kind: AgentProfile`) is not submitted again.
 * Not judged: the outside values of `format` (an annotation in JSON Schema 2020-12), the disputed
 * date-time edges, instantiating a document inside an `extends` bound (resolving bases is L3-E1's;
 * a pin that matches no base is refused by L3-G2's rule whatever its grammar), and, when the working
 * encoding is Markdown, the `instructions` length edges (the body's last line break is not content).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { InstantiateOutcomeT, Result } from '../../protocol/messages.js';
import { canonicalJson, validateDocument } from '../../spec/document/index.js';
import { type BoundPlace, minimalDocument, placeAt, type SchemaBound } from '../../spec/document/schema-bounds.js';
import type { ClauseId } from '../../spec/requirements.js';
import { fail } from '../kit/assert.js';
import type { CaseContext, CaseDef, Encoding } from '../kit/types.js';
import { serializeDocument } from '../kit/workspace.js';
import {
  type Answered,
  answered,
  BOUND_ENCODINGS,
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
  issuesCause,
  permissivePolicy,
  profileFileName,
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
 * Resolving bases is L3-E1's and pins are L3-G2's, so a document inside an `extends` bound is only
 * validated; so is one inside a `model.parameters` bound, since whether a parameter the provider does
 * not support may fail instantiation is ADV-model-parameters' question, not the grammar's.
 */
const instantiated = (b: BoundPlace): boolean => !b.pointer.startsWith('/extends') && !b.pointer.startsWith('/spec/model/parameters');

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
    issuesCause(`minimal profile refused${a.validate.ok ? '' : ` (validate: ${a.validate.protocolError})`}`, refused),
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
 * The documents of a group in one encoding, written once per run (a sweep runs a case for every
 * mutant). `validate` judges every document; `instantiate` the largest of each bound (the longest
 * name, the longest string, the longest list: where a limit of resolution would bite), bar
 * `extends` inside (above). Whether a document is instantiated at all is one decision per bound,
 * and two thousand instantiations would cost the certification seconds for nothing more.
 */
function submissions(c: BoundCase): (encoding: Encoding) => Submission[] {
  const written = new Map<Encoding, Submission[]>();
  return (encoding) => {
    let list = written.get(encoding);
    if (list === undefined) {
      const control = canonicalJson(subject());
      list = c.group.values().flatMap((v) => {
        if (c.only && !c.only(v)) return [];
        // A Markdown body ends with a line break that is not content (L3-G1's reading), so
        // `instructions` of exactly n characters cannot be written as one.
        if (encoding === 'md' && v.bound.pointer === '/spec/role/instructions') return [];
        const doc = placeAt('profile', v.bound.pointer, v.value, subject());
        // A value the minimal profile already holds (`oap: "1.0"`, `kind`) is the control's document.
        if (canonicalJson(doc) === control) return [];
        return [{ v, text: serializeDocument(doc, encoding), instantiate: false }];
      });
      const largest = new Map<string, Submission>();
      for (const d of list) {
        const best = largest.get(d.v.bound.id);
        if (best === undefined || d.text.length > best.text.length) largest.set(d.v.bound.id, d);
      }
      for (const d of largest.values()) d.instantiate = !c.accept || instantiated(d.v.bound);
      written.set(encoding, list);
    }
    return list;
  };
}

function boundCase(c: BoundCase): CaseDef {
  const documents = submissions(c);
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
      const encoding = workingEncoding(ctx.handshake, BOUND_ENCODINGS);
      await control(ctx, encoding);
      const list = documents(encoding);
      const wrong: Array<{ bound: string; value: string; why: string; observed: Record<string, unknown> }> = [];
      for (const { v, text, instantiate } of list) {
        const answer = await submit(ctx, text, encoding, instantiate);
        const right = c.accept
          ? validated(answer, true) && instantiation(answer, 'instantiated')
          : validated(answer, false) && instantiation(answer, 'rejected');
        if (right) continue;
        if (wrong.length < RECORDED_WRONG) ctx.input(`document at ${v.bound.id} = ${valueLabel(v.value)}`, text);
        wrong.push({ bound: v.bound.id, value: valueLabel(v.value), why: v.why, observed: brief(answer) });
      }
      ctx.note('documents', { encoding, submitted: list.length, instantiated: list.filter((d) => d.instantiate).length });
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
