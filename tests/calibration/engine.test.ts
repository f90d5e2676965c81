/**
 * Calibration through the engine: it runs once before the cases on the main thread's adapter, the
 * run header records what it learned and what it cost, every case takes the accommodations and
 * names the ones that changed its inputs, and --no-calibrate, --accommodate, --resume and the rerun
 * line keep a case's forms what they were.
 */
import { describe, expect, it } from 'vitest';
import { allCases } from '../../suites/index.js';
import { resumedConfig, type RunConfig } from '../../runner/engine/config.js';
import { rerunCommand } from '../../results/rerun.js';
import { parseAccommodations } from '../../runner/engine/options.js';
import type { CaseRecord, RunHeader } from '../../results/model.js';
import { runSynthetic } from '../engine/helpers.js';
import { createHiderAdapter } from '../../harnesses/hiders/index.js';
import { InProcessRpc } from '../../runner/engine/in-process-rpc.js';
import { runCalibration } from '../../runner/engine/run-case.js';
import { AdapterDecline } from '../../protocol/errors.js';
import { PROTOCOL_VERSION } from '../../protocol/messages.js';

/** A suite case that writes a minimal profile (no revision) through the kit and instantiates it. */
const subject = allCases().filter((c) => c.id === 'L1-I4/file-outside-roots-is-imported' || c.id === 'L1-D4/metadata-name-over-file-name');

describe('calibration in a run', () => {
  it('against the reference: three requests, nothing to accommodate, every form accepted', async () => {
    const run = await runSynthetic('builtin:reference', subject, { calibrate: true });
    const c = run.report.header.calibration!;
    expect(c).toMatchObject({ accommodations: [], requests: 3 });
    expect(c.probes.map((p) => [p.subject, p.accepted])).toEqual([
      ['profile', true],
      ['delta', true],
    ]);
    expect(run.report.cases.every((r) => r.status === 'pass' && r.accommodations === undefined)).toBe(true);
  });

  it('against a harness that requires metadata.revision: learns to give it, records the refusal, and the cases pass naming it', async () => {
    const run = await runSynthetic('builtin:hider/requires-revision', subject, { calibrate: true });
    const { header, cases } = run.report;
    expect(header.calibration!.accommodations).toEqual(['metadata-revision']);
    expect(header.calibration!.probes[0]).toMatchObject({ subject: 'profile', accepted: false, accommodations: [] });
    expect(header.calibration!.probes[0]!.evidence).toMatch(/schema at \/metadata\/revision/);
    expect(header.calibration!.probes[1]).toMatchObject({ accepted: true, accommodations: ['metadata-revision'] });
    for (const r of cases) {
      expect(r.status, r.id).toBe('pass');
      expect(r.accommodations).toEqual(['metadata-revision']);
    }
    // A rerun of one case takes the run's accommodations instead of calibrating again.
    expect(rerunCommand(header, cases[0]!)).toMatch(/ --accommodate metadata-revision /);
  });

  it('--no-calibrate: no calibration in the header, the plain forms, and the refusal named as the cause with L1-P2', async () => {
    const run = await runSynthetic('builtin:hider/requires-revision', subject, { calibrate: false });
    const { header, cases } = run.report;
    expect(header.calibration).toBeUndefined();
    expect(header.options.calibrate).toBe(false);
    for (const r of cases) {
      expect(r.status, r.id).toBe('inconclusive');
      expect(r.status === 'inconclusive' && r.cause_id).toBe('L1-P2');
    }
    expect(rerunCommand(header, cases[0]!)).toMatch(/ --no-calibrate /);
  });

  it('--accommodate: the given accommodations, no request sent to learn them', async () => {
    const run = await runSynthetic('builtin:hider/requires-revision', subject, { calibrate: true, accommodate: ['metadata-revision'] });
    expect(run.report.header.calibration).toEqual({ accommodations: ['metadata-revision'], probes: [], requests: 0 });
    expect(run.report.header.options.accommodate).toEqual(['metadata-revision']);
    expect(run.report.cases.every((r) => r.status === 'pass')).toBe(true);
  });

  it('--resume takes the accommodations of the stream it continues, and refuses one it does not know', () => {
    const config = {
      adapter: 'builtin:reference',
      jobs: 1,
      timeoutMs: 1000,
      fuzz: 0,
      out: '/tmp/x',
      keepWorkspaces: false,
      resume: true,
      process: false,
      checkProtocol: false,
    } satisfies RunConfig;
    const header = {
      seed: 3,
      options: { jobs: 1, timeout_ms: 1000, fuzz: 0 },
      calibration: { accommodations: ['append-by-index'], probes: [], requests: 4 },
    } as unknown as RunHeader;
    expect(resumedConfig(config, header, 'journal.ndjson').calibration?.accommodations).toEqual(['append-by-index']);
    const unknown = { ...header, calibration: { accommodations: ['append-sideways'], probes: [], requests: 4 } } as unknown as RunHeader;
    expect(() => resumedConfig(config, unknown, 'journal.ndjson')).toThrow(/accommodation append-sideways/);
  });

  it('a fuzz finding is replayed with the accommodations its run used', () => {
    const header = {
      adapter: { spec: 'builtin:x', handshake: {} },
      level: 3,
      seed: 1,
      options: { jobs: 1, timeout_ms: 10_000, fuzz: 600 },
      calibration: { accommodations: ['metadata-revision', 'append-by-index'], probes: [], requests: 6 },
    } as unknown as RunHeader;
    const record = { id: 'fuzz/L1-P1/faker#0', status: 'fail', finding: 'findings/f.json', origin: 'fuzz' } as unknown as CaseRecord;
    expect(rerunCommand(header, record)).toBe(
      'oap-conform replay findings/f.json --adapter builtin:x --accommodate metadata-revision,append-by-index',
    );
  });

  it('an adapter that declines apply_delta keeps what the profile search learned, and the decline is recorded', async () => {
    const hider = createHiderAdapter('requires-revision');
    const rpc = new InProcessRpc({
      handle: (method, params) => {
        if (method === 'apply_delta') throw new AdapterDecline('not-implemented', 'no writeback here');
        return hider.handle(method, params);
      },
    });
    const handshake = await rpc.call('initialize', { protocol_versions: [PROTOCOL_VERSION], runner: { name: 'test', version: '0' } });
    const c = await runCalibration({ adapter: rpc, handshake, runSeed: 1 }, 3);
    expect(c.accommodations).toEqual(['metadata-revision']);
    expect(c.error).toMatch(/apply_delta/);
  });

  it('--accommodate takes known names only', () => {
    expect(parseAccommodations('metadata-revision,append-by-id')).toEqual(['metadata-revision', 'append-by-id']);
    expect(parseAccommodations('none')).toEqual([]);
    expect(() => parseAccommodations('metadata-revision,fill-everything')).toThrow(/unknown accommodation fill-everything; known: /);
  });
});
