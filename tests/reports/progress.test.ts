import { describe, expect, it } from 'vitest';
import { createProgressReporter } from '../../reports/progress.js';
import { makeCase, makeReport } from '../results/make-report.js';

function stream(isTTY: boolean) {
  let text = '';
  return {
    isTTY,
    columns: 80,
    write: (s: string) => {
      text += s;
      return true;
    },
    text: () => text,
  };
}

describe('progress reporter', () => {
  it('prints one plain line per finished case when not on a TTY', () => {
    const s = stream(false);
    const p = createProgressReporter(s, { total: 2, env: {} });
    p.onCaseStart({ id: 'L1-P1/basic', title: 't' });
    p.onCaseEnd(makeCase('L1-P1/basic', ['L1-P1']));
    p.onCaseEnd(makeCase('L1-I3/basic', ['L1-I3'], 'fail', { message: 'effective allow\nunder deny \u001b[31m' }));
    p.onRunEnd(makeReport());
    expect(s.text()).toBe('[1/2] PASS         L1-P1/basic (5 ms)\n[2/2] FAIL         L1-I3/basic (5 ms): effective allow under deny\n');
  });

  it('uses plain lines on a TTY when CI=true', () => {
    const s = stream(true);
    const p = createProgressReporter(s, { env: { CI: 'true' } });
    p.onCaseEnd(makeCase('a', ['L1-P1'], 'skipped', { message: 'declined' }));
    expect(s.text()).toBe('SKIPPED      a (5 ms): declined\n');
  });

  it('redraws one status line on a TTY with the elapsed time and an estimate, and keeps only non-passing cases', () => {
    const s = stream(true);
    let t = 0;
    const p = createProgressReporter(s, { total: 3, env: { NO_COLOR: '1' }, now: () => t });
    p.onRunStart({ header: makeReport().header, resumed: 0, toRun: 3 });
    p.onCaseStart({ id: 'x/1', title: 't' });
    t = 10_000;
    p.onCaseEnd(makeCase('x/1', ['L1-P1']));
    p.onCaseStart({ id: 'x/2', title: 't' });
    t = 20_000;
    p.onCaseEnd(makeCase('x/2', ['L1-P1'], 'timeout', { message: 'no answer' }));
    t = 80_000;
    p.onRunEnd(makeReport());
    const kept = s
      .text()
      .split('\r\u001b[2K')
      .filter((l) => l.endsWith('\n'));
    expect(kept).toEqual([expect.stringMatching(/^adapter /), 'TIMEOUT      x/2 (5 ms): no answer\n', 'ran 2 case(s) in 1 min 20 s\n']);
    // 10 s for one case of three: about 20 s left; 20 s for two: about 10 s left.
    expect(s.text()).toContain('1/3 done  pass 1  fail 0  (10.0 s, about 20.0 s left)');
    expect(s.text()).toContain('2/3 done  pass 1  fail 0  timeout 1  (20.0 s, about 10.0 s left)');
  });

  it('colours the counts on a TTY unless NO_COLOR is set', () => {
    const s = stream(true);
    const p = createProgressReporter(s, { total: 2, env: {} });
    p.onCaseStart({ id: 'x/1', title: 't' });
    p.onCaseEnd(makeCase('x/1', ['L1-P1'], 'fail', { message: 'no' }));
    expect(s.text()).toContain('\u001b[31mfail 1\u001b[0m');
    expect(s.text()).toContain('\u001b[31mFAIL ');
  });
});
