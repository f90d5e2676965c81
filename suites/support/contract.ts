/**
 * A case's verdict on a session's whole effective contract: the spec model's judge
 * (spec/semantics/contract-judge.ts) finds every place the answer departs from the prediction, and
 * the case fails on those that violate one of its own requirements, naming its own dimensions
 * first. A narrower answer is noted, never failed. A widening that violates only another
 * requirement (a tool the §3.4 table excludes, in a narrowing case) leaves the case inconclusive:
 * the session is more permissive than the spec allows, but the defect is judged by that
 * requirement's own cases, so this case neither passes on it nor fails under the wrong ID. Another
 * requirement's fixed value reported otherwise (the model rule, the writeback mode) is not a
 * widening and does not keep the case from observing its own: it is noted.
 */
import { type ContractFinding, contractDifferences, failsContract, isAncestorOrSelf, type Probes } from '../../spec/semantics/index.js';
import { failWithDifferences } from '../kit/assert.js';
import type { CaseContext } from '../kit/types.js';
import { inconclusive } from './inconclusive.js';

export interface ContractVerdict {
  /** The case's requirement IDs: a failing finding that violates one of them fails the case. */
  requirements: readonly string[];
  /** The dimensions the case is about (pointer labels): named first in the message. */
  dimensions: readonly string[];
  /** What the case judged, for the message. */
  what: string;
}

const short = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 120 ? `${s.slice(0, 119)}…` : s;
};

/** Fail, note or end inconclusive on the findings of one session's contract (see the module comment). */
export function expectContract(ctx: CaseContext, findings: readonly ContractFinding[], verdict: ContractVerdict): void {
  const mine = (f: ContractFinding): boolean => f.requirements.some((id) => verdict.requirements.includes(id));
  const narrower = findings.filter((f) => !failsContract(f));
  if (narrower.length > 0)
    ctx.note(
      'narrower_than_predicted',
      narrower.map((f) => ({ pointer: f.pointer, observed: f.observed })),
    );
  const elsewhere = findings.filter((f) => f.deviation === 'differs' && !mine(f));
  if (elsewhere.length > 0)
    ctx.note(
      'judged_elsewhere',
      elsewhere.map((f) => ({ pointer: f.pointer, requirements: f.requirements, observed: f.observed })),
    );
  const ownDimension = (f: ContractFinding): boolean => verdict.dimensions.some((d) => isAncestorOrSelf(d, f.pointer));
  const own = findings.filter((f) => failsContract(f) && mine(f)).sort((a, b) => Number(ownDimension(b)) - Number(ownDimension(a)));
  const first = own[0];
  if (first) {
    const how = first.deviation === 'wider' ? 'wider than the spec allows' : 'not the value the spec fixes';
    failWithDifferences(
      `${verdict.what}: ${first.pointer} is ${how} (observed ${short(first.observed)}, expected ${short(first.expected)})`,
      // A set's members gathered at the set (`/tools: extra "git/commit"`), the rest as found.
      contractDifferences(own),
      first.expected,
      { observed: first.observed, all: own },
    );
  }
  const other = findings.find((f) => f.deviation === 'wider');
  if (other)
    inconclusive(
      `the answer is wider than the spec allows at ${other.pointer}, a failure of ${other.requirements.join(', ')} judged by its own cases`,
      `${other.pointer}: observed ${short(other.observed)}, expected ${short(other.expected)}`,
      other.requirements[0],
    );
}

/** The place a finding is about: its pointer, and for roots and hosts the probe path or host. */
function place(f: ContractFinding): string {
  return f.pointer.startsWith('/filesystem/') || f.pointer === '/hosts' ? `${f.pointer} ${JSON.stringify(f.observed)}` : f.pointer;
}

/**
 * The paths and hosts at which a session's findings compare roots and hosts: the twin is judged at
 * them too, so a place the subject departs at is a place the twin is asked about (its own roots can
 * derive other probe paths, and a shared defect would otherwise show at different places).
 */
export function probesOf(findings: readonly ContractFinding[]): Probes {
  const at = (key: 'path' | 'host'): string[] =>
    findings.flatMap((f) => {
      const v = typeof f.observed === 'object' && f.observed !== null ? (f.observed as Record<string, unknown>)[key] : undefined;
      return typeof v === 'string' ? [v] : [];
    });
  return { paths: [...new Set(at('path'))], hosts: [...new Set(at('host'))] };
}

/**
 * A composed or delegated session's findings, with those its standalone twin (the same profile
 * instantiated on its own under the policy, observed in the same case) shares at the same place
 * given the twin's requirements: the harness does not narrow that place for any profile, which is
 * the twin's requirement's failure (L1-I3), not the composition's or the delegation's.
 */
export function withTwinAttribution(subject: readonly ContractFinding[], twin: readonly ContractFinding[]): ContractFinding[] {
  const shared = new Map(twin.filter(failsContract).map((f) => [place(f), f.requirements]));
  return subject.map((f) => {
    const twinIds = failsContract(f) ? shared.get(place(f)) : undefined;
    return twinIds ? { ...f, requirements: twinIds } : f;
  });
}
