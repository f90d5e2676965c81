import type { HandshakeT } from '../../protocol/messages.js';
import { AdapterCrashed, AdapterNotImplemented, AdapterProtocolError, AdapterSkipped, AdapterTimeout } from '../../protocol/errors.js';
import { isDeepStrictEqual } from 'node:util';
import { differencesOf } from '../../spec/document/differences.js';
import { CaseInconclusive, CaseNotApplicable, CheckFailure } from '../../suites/kit/errors.js';
import { FindingFailure } from '../../fuzz/findings.js';
import { describeNeed, disclaimedNeeds, omissionSentence, probe } from '../../suites/support/probes.js';
import type { AdapterRpc, CaseContext, CaseDef, KillableAdapter, RootKind } from '../../suites/kit/types.js';
import type { CaseOutcome } from '../../results/record.js';
import { Workspace } from '../../suites/kit/workspace.js';
import { caseSeed } from '../../suites/kit/random.js';
import { type Accommodation, accommodationsFor } from '../../suites/kit/accommodations.js';
import { withCaseScope } from '../../suites/kit/scope.js';
import { accommodatingKillable, accommodatingRpc } from '../../suites/kit/accommodating-rpc.js';
import { type Calibration, calibrate } from '../../suites/calibration/calibrate.js';

export interface RunCaseOptions {
  adapter: AdapterRpc;
  handshake: HandshakeT;
  runSeed: number;
  keepWorkspace?: boolean;
  workspaceParent?: string;
  spawnAdapter?: () => Promise<KillableAdapter>;
  /** Called with the workspace before the case runs (the engine binds the adapter's env to it). */
  onWorkspace?: (ws: Workspace) => void | Promise<void>;
  /** The run's accommodations (calibration); the case takes those of aspects it is not about. */
  accommodations?: readonly Accommodation[];
}

/** The outcome for whatever a case threw: each typed ending to its own status, anything else a suite fault. */
export function outcomeOf(err: unknown, base: { id: string; requirements: string[]; durationMs: number }): CaseOutcome {
  if (err instanceof CheckFailure) {
    // The differences are computed once, here, and every format renders them.
    const differences = err.differences ? [...err.differences] : differencesOf(err.expected, err.observed);
    return {
      ...base,
      status: 'fail',
      message: err.message,
      ...(err.expected !== undefined ? { expected: err.expected } : {}),
      ...(err.observed !== undefined ? { observed: err.observed } : {}),
      ...(differences.length > 0 ? { differences } : {}),
      ...(err instanceof FindingFailure ? { finding: err.file } : {}),
    };
  }
  if (err instanceof CaseInconclusive) {
    return {
      ...base,
      status: 'inconclusive',
      message: err.message,
      ...(err.rootCause ? { cause: err.rootCause } : {}),
      ...(err.causeId ? { cause_id: err.causeId } : {}),
    };
  }
  if (err instanceof AdapterNotImplemented) {
    return {
      ...base,
      status: 'skipped',
      message: `adapter: not implemented: ${err.method}: ${err.reason}`,
      method: err.method,
      reason: err.reason,
    };
  }
  if (err instanceof AdapterSkipped) {
    return { ...base, status: 'skipped', message: `adapter skipped ${err.method}: ${err.reason}`, method: err.method, reason: err.reason };
  }
  if (err instanceof AdapterTimeout)
    return { ...base, status: 'timeout', message: err.message, method: err.method, limit_ms: err.timeoutMs };
  if (err instanceof AdapterCrashed) {
    return {
      ...base,
      status: 'error',
      message: err.message,
      fault: 'adapter',
      error: { kind: 'crash', exit_code: err.exitCode, signal: err.signal },
      ran: true,
    };
  }
  if (err instanceof AdapterProtocolError) {
    return {
      ...base,
      status: 'error',
      message: `protocol error (${err.code}): ${err.message}`,
      fault: 'adapter',
      error: { kind: 'protocol', code: err.code },
      ran: true,
    };
  }
  if (err instanceof CaseNotApplicable) {
    // A case may declare itself not applicable only through `needs` (probed); anything else is our bug.
    return {
      ...base,
      status: 'error',
      message: `check error: not-applicable outside the needs mechanism: ${err.message}`,
      fault: 'suite',
      error: { kind: 'check' },
      ran: true,
    };
  }
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return { ...base, status: 'error', message: `check error: ${message}`, fault: 'suite', error: { kind: 'check' }, ran: true };
}

/** How many of a case's last requests a result other than a pass shows. */
const SHOWN_REQUESTS = 3;
/** A string in a shown request longer than this (a document's content) is cut. */
const SHOWN_STRING = 2000;

/**
 * A request as a reader of the failure needs it: the harness policy is its own input, so it is
 * named rather than repeated; paths inside the case are relative to it, as the file inputs are; a
 * long string is cut.
 */
function shownParams(params: unknown, caseRoot: string): unknown {
  const walk = (v: unknown, key?: string): unknown => {
    if (key === 'policy' && typeof v === 'object' && v !== null) return '(the policy input)';
    if (typeof v === 'string') {
      const rel = v === caseRoot ? '.' : v.startsWith(`${caseRoot}/`) ? v.slice(caseRoot.length + 1) : v;
      return rel.length > SHOWN_STRING ? `${rel.slice(0, SHOWN_STRING)}… (${rel.length - SHOWN_STRING} more characters)` : rel;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(params);
}

export async function runCase(def: CaseDef, opts: RunCaseOptions): Promise<CaseOutcome> {
  const started = performance.now();
  const base = { id: def.id, requirements: def.requirements };
  const elapsed = (): number => performance.now() - started;
  if (def.needs?.process && !opts.spawnAdapter) {
    return {
      ...base,
      status: 'inconclusive',
      message: 'the case needs a separately spawned adapter process and this adapter cannot be spawned as one',
      durationMs: 0,
    };
  }
  // A kept workspace is named after the case, so the report can point at it.
  const workspace = new Workspace(opts.workspaceParent, opts.keepWorkspace ? def.id : undefined);
  const notes: Record<string, unknown> = {};
  const inputs: Record<string, unknown> = {};
  const used = new Set<Accommodation>();
  const accommodations = accommodationsFor(opts.accommodations ?? [], def.about);
  const spawn = opts.spawnAdapter;
  const rootsFound: RootKind[] = [];
  // The last requests the case sent, kept to show with a result other than a pass.
  const recent: { n: number; method: string; params: unknown }[] = [];
  let sent = 0;
  const adapter: AdapterRpc = {
    call(method, params) {
      recent.push({ n: ++sent, method, params });
      if (recent.length > SHOWN_REQUESTS) recent.shift();
      return opts.adapter.call(method, params);
    },
  };
  const ctx: CaseContext = {
    // A delta takes the case's accommodations before it is sent (and recorded as sent).
    adapter: accommodations.length ? accommodatingRpc(adapter) : adapter,
    handshake: opts.handshake,
    workspace,
    seed: caseSeed(opts.runSeed, def.id),
    rootsFound,
    note: (k, v) => {
      notes[k] = v;
    },
    input: (name, value) => {
      for (let n = 1; ; n++) {
        const key = n === 1 ? name : `${name} (${n})`;
        if (!(key in inputs)) {
          inputs[key] = value;
          return;
        }
        if (isDeepStrictEqual(inputs[key], value)) return;
      }
    },
    ...(spawn ? { spawnAdapter: accommodations.length ? async () => accommodatingKillable(await spawn()) : spawn } : {}),
  };
  // Probes and the case's body write their documents and deltas in the case's accommodated forms.
  const inScope = <T>(body: () => Promise<T>): Promise<T> =>
    withCaseScope({ requirements: def.requirements, accommodations, used: (a) => used.add(a), input: ctx.input }, body);
  const withNotes = (): { notes?: Record<string, unknown>; accommodations?: string[] } => ({
    ...(Object.keys(notes).length ? { notes } : {}),
    ...(used.size ? { accommodations: [...used].sort() } : {}),
  });
  // Inputs explain a result other than a pass; a pass carries none, which keeps report.json small.
  const kept = opts.keepWorkspace ? { workspace: workspace.root } : {};
  const withInputs = (): { inputs?: Record<string, unknown>; workspace?: string } => {
    for (const r of recent) inputs[`request ${r.n}: ${r.method}`] = shownParams(r.params, workspace.root);
    return { ...(Object.keys(inputs).length ? { inputs } : {}), ...kept };
  };
  try {
    await opts.onWorkspace?.(workspace);
    const disclaimed = disclaimedNeeds(def, opts.handshake);
    if (disclaimed.length > 0) {
      const absent: string[] = [];
      for (const need of disclaimed) {
        const found = await inScope(() => probe(ctx, need));
        if (found.absent) absent.push(found.observed);
        else {
          // Present after all: the case runs in full, judging with what the probe found.
          if (need.kind === 'root') rootsFound.push(need.root);
          ctx.note('capability-present-although-disclaimed', [
            ...((notes['capability-present-although-disclaimed'] as string[]) ?? []),
            found.observed,
          ]);
        }
      }
      // Every disclaimed capability confirmed absent: the case's question does not arise for this harness.
      if (absent.length === disclaimed.length) {
        return {
          ...base,
          status: 'not-applicable',
          message: `the harness declares it lacks ${disclaimed.map(describeNeed).join(' and ')}`,
          need: disclaimed.map(describeNeed).join(', '),
          probe: absent.join('; '),
          permitted_by: [...new Set(disclaimed.map(omissionSentence))],
          durationMs: elapsed(),
          ...withNotes(),
          ...kept,
        };
      }
    }
    await inScope(() => def.run(ctx));
    return { ...base, status: 'pass', durationMs: elapsed(), ...withNotes(), ...kept };
  } catch (err) {
    return { ...outcomeOf(err, { ...base, durationMs: elapsed() }), ...withNotes(), ...withInputs() };
  } finally {
    if (!opts.keepWorkspace) workspace.remove();
  }
}

/**
 * The calibration phase (suites/calibration): a handful of requests in a workspace of its own,
 * before the cases, on the main thread's adapter. It never ends the run: an adapter that fails
 * during it is recorded, and the run goes on with the plain forms (the cases then meet the refusal
 * themselves).
 */
export async function runCalibration(opts: RunCaseOptions, level: 1 | 2 | 3): Promise<Calibration> {
  const workspace = new Workspace(opts.workspaceParent, opts.keepWorkspace ? 'calibration' : undefined);
  const ctx: CaseContext = {
    adapter: opts.adapter,
    handshake: opts.handshake,
    workspace,
    seed: caseSeed(opts.runSeed, 'calibration'),
    note: () => {},
    input: () => {},
  };
  try {
    await opts.onWorkspace?.(workspace);
    return await calibrate(ctx, level);
  } catch (err) {
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return { accommodations: [], probes: [], requests: 0, error: message };
  } finally {
    if (!opts.keepWorkspace) workspace.remove();
  }
}
