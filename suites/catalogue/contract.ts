/**
 * Catalogue cases at the profile-policy meeting point (issue 20 part 2): for a dimension the
 * whole-contract judge reads, one case per requirement the dimension files under, submitting every
 * value of every class whose samples set only profile and policy fields. Each value is the minimal
 * profile with the class's profile fields and the permissive policy with its policy fields
 * (./samples.ts); the session's whole effective contract goes to the spec model's judge against the
 * prediction of the whole contract (spec/semantics/contract.ts, contract-judge.ts), and the case
 * fails on a finding of its own requirement. A refused profile grants nothing, so a refusal is
 * noted and the value judged no further (the refusal of a valid profile is L1-P2's). Every value is
 * judged before the verdict: a failure anywhere wins over another value's inconclusive end. A class
 * about document text (`profile:source`, a YAML 1.1 word) is written as YAML holding that text, and
 * predicted as YAML 1.2 reads it.
 */
import { readFileSync } from 'node:fs';
import type { EffectiveContractT, HarnessPolicyT } from '../../protocol/messages.js';
import type { ClauseId } from '../../spec/requirements.js';
import type { Dimension, EquivalenceClass, Sample } from '../../spec/semantics/catalogue-model.js';
import { type ContractFinding, contractFindings, failsContract, predictContract } from '../../spec/semantics/index.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { briefIssues, expectContract, inconclusive, instantiatePath, removeProfiles, writeProjectProfile } from '../support/index.js';
import { classSides, generatedProfile, policyFrom, profileFrom, sourceOf, specOf } from './samples.js';

/** A catalogue case and the classes it covers. */
export interface CatalogueCase {
  def: CaseDef;
  classes: readonly string[];
}

/** The requirements the whole-contract judge files a top-level session's findings under, and the clauses a dimension's case observes of each. */
const CLAUSES: Readonly<Record<string, (dimension: string) => readonly ClauseId[]>> = {
  'L1-I3': (d) => {
    if (d.startsWith('permissions.')) return ['L1-I3.permissions'];
    if (d.startsWith('tools.') || d.startsWith('glob.')) return ['L1-I3.tools'];
    if (d.startsWith('network.')) return ['L1-I3.network-hosts'];
    if (d.startsWith('filesystem.')) return ['L1-I3.filesystem-roots'];
    if (d.startsWith('memory.')) return ['L1-I3.memory'];
    if (d.startsWith('budgets.')) return ['L1-I3.budgets'];
    return ['L1-I3.tools', 'L1-I3.permissions', 'L1-I3.filesystem-roots', 'L1-I3.network-hosts', 'L1-I3.memory', 'L1-I3.budgets'];
  },
  'L1-I2': (d) => (d === 'tools.policy' ? ['L1-I2.allowlist', 'L1-I2.denylist', 'L1-I2.inherit'] : ['L1-I2.allowlist', 'L1-I2.denylist']),
  'L1-I12': () => ['L1-I12.exact', 'L1-I12.fallback', 'L1-I12.tier', 'L1-I12.default'],
  'L3-Y1': (d) => (d === 'memory.scopes' ? ['L3-Y1.scopes'] : ['L3-Y1.mode']),
};

/** The contract pointers a dimension is about, named first in a failure. */
function dimensionPointers(d: string): string[] {
  if (d.startsWith('permissions.rules')) return ['/rules', '/permissions'];
  if (d.startsWith('permissions.')) return [`/permissions/${d.slice('permissions.'.length)}`];
  if (d.startsWith('tools.') || d.startsWith('glob.')) return ['/tools'];
  if (d === 'network.hosts') return ['/hosts'];
  if (d.startsWith('filesystem.')) return [`/filesystem/${d.slice('filesystem.'.length)}`];
  if (d.startsWith('memory.')) return [`/memory/${d.slice('memory.'.length)}`];
  if (d.startsWith('budgets.')) return [`/budgets/${d.slice('budgets.'.length)}`];
  if (d === 'model.resolution') return ['/model'];
  return [''];
}

/** A class that becomes a value of this driver: a case, valid, and about the profile and policy only. */
export function atProfilePolicy(c: EquivalenceClass): boolean {
  if (c.exclusion !== undefined || c.schemaInvalid) return false;
  const sides = classSides(c);
  return sides.size > 0 && [...sides].every((s) => s === 'profile' || s === 'policy');
}

export interface Judged {
  classId: string;
  findings: ContractFinding[];
}

/**
 * Where the value's profile is written: in the generated encoding (samples.ts generatedProfile), but
 * a class about document text (`profile:source`, a YAML 1.1
 * word such as an unquoted `off`) is written as YAML, its text checked to hold the fragment's lines;
 * undefined when the harness reads no YAML (that value is not observable there).
 */
function writeValue(ctx: CaseContext, doc: Record<string, unknown>, sample: Sample): string | undefined {
  const source = sourceOf(sample);
  if (source === undefined) return generatedProfile(ctx, doc);
  if (!ctx.handshake.encodings.includes('yaml')) {
    ctx.note('yaml_text_not_read', source);
    return undefined;
  }
  const path = writeProjectProfile(ctx, doc, { encoding: 'yaml' });
  const written = new Set(
    readFileSync(path, 'utf8')
      .split('\n')
      .map((l) => l.trim()),
  );
  const missing = source
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !written.has(l));
  if (missing.length > 0)
    throw new Error(`suite bug: the YAML written for ${String(sample['profile:source'])} lacks ${missing.join(', ')}`);
  return path;
}

/** Instantiate one value and judge its whole contract; undefined when the harness refused the profile or cannot read it. */
async function judgeValue(ctx: CaseContext, name: string, sample: Sample): Promise<ContractFinding[] | undefined> {
  const doc = profileFrom(name, sample);
  const policy: HarnessPolicyT = policyFrom(sample);
  const path = writeValue(ctx, doc, sample);
  if (path === undefined) return undefined;
  const out = await instantiatePath(ctx, path, policy);
  removeProfiles([path]);
  if (out.status !== 'instantiated') {
    ctx.note(`refused ${name}`, briefIssues(out.errors));
    return undefined;
  }
  const effective: EffectiveContractT = out.effective;
  return contractFindings(effective, predictContract({ spec: specOf(doc), policy, trust: 'project' }), { workspace: ctx.workspace.dir });
}

/**
 * The verdict over every judged value (shared by the parent-child and base-derived drivers): a
 * value failing the case's requirement fails the case, the first such value named; a value whose
 * answer is wider only where another requirement judges it is noted and set aside (that
 * requirement's own cases judge it), so one widening elsewhere does not hide the values that reach
 * this requirement's observation; with no value left to judge the case is inconclusive.
 */
export function verdict(ctx: CaseContext, judged: readonly Judged[], requirement: string, dimensions: string[]): void {
  const own = (j: Judged) => j.findings.some((f) => failsContract(f) && f.requirements.includes(requirement));
  const elsewhere = (j: Judged) => !own(j) && j.findings.some((f) => f.deviation === 'wider');
  for (const j of judged.filter(own)) {
    ctx.note('class', j.classId);
    expectContract(ctx, j.findings, { requirements: [requirement], dimensions, what: `catalogue class ${j.classId}` });
  }
  const aside = judged.filter(elsewhere);
  if (aside.length > 0)
    ctx.note(
      'judged_elsewhere_values',
      aside.map((j) => j.classId),
    );
  const clean = judged.filter((j) => !elsewhere(j));
  if (clean.length === 0) {
    const first = judged[0];
    if (first) expectContract(ctx, first.findings, { requirements: [requirement], dimensions, what: `catalogue class ${first.classId}` });
    inconclusive('no value of the case reached its observation (each was refused or wider where another requirement judges it)');
  }
  for (const j of clean) expectContract(ctx, j.findings, { requirements: [requirement], dimensions, what: `catalogue class ${j.classId}` });
}

/** The case of `requirement` over the dimension's profile-policy classes, or undefined when it has none. */
function contractCase(d: Dimension, requirement: string): CatalogueCase | undefined {
  const classes = d.classes.filter(atProfilePolicy);
  const clauses = CLAUSES[requirement];
  if (classes.length === 0 || clauses === undefined) return undefined;
  const slug = d.id.replace(/[._]/g, '-');
  const def: CaseDef = {
    id: `${requirement}/catalogue-${slug}`,
    requirements: [requirement],
    clauses: clauses(d.id),
    title: `${d.title}: every catalogue class at the profile-policy meeting point, the whole contract judged (${classes.length} classes)`,
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx) {
      const judged: Judged[] = [];
      let n = 0;
      for (const c of classes) {
        for (const sample of c.values) {
          const findings = await judgeValue(ctx, `cat-${slug}-${n++}`.slice(0, 64), sample);
          if (findings) judged.push({ classId: c.id, findings });
        }
      }
      verdict(ctx, judged, requirement, dimensionPointers(d.id));
    },
  };
  return { def, classes: classes.map((c) => c.id) };
}

/** Every profile-policy catalogue case of one dimension. */
export function contractCases(d: Dimension): CatalogueCase[] {
  return d.requirements.flatMap((r) => contractCase(d, r) ?? []);
}
