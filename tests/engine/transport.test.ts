import { PassThrough, Writable } from 'node:stream';
import { describe, expect, test, vi } from 'vitest';
import { LineSplitter, type LineEvent } from '../../sdk/ts/framing.js';
import { defineAdapter, serveStdio } from '../../sdk/ts/index.js';
import { StdioAdapterClient } from '../../runner/engine/stdio-client.js';
import { AdapterTimeout } from '../../protocol/errors.js';
import { adapterEnv } from '../../runner/engine/env.js';
import { shellWords, ShellWordsError } from '../../runner/engine/shell-words.js';
import { StderrTail } from '../../runner/engine/stderr-tail.js';
import { tempDir } from './helpers.js';

function split(chunks: (string | Buffer)[], max?: number): LineEvent[] {
  const events: LineEvent[] = [];
  const s = new LineSplitter((e) => events.push(e), max);
  for (const c of chunks) s.push(typeof c === 'string' ? Buffer.from(c) : c);
  return events;
}

describe('LineSplitter', () => {
  test('joins lines split across chunks, splits several lines in one chunk, strips CR, skips blanks', () => {
    expect(split(['{"a":', '1}\n{"b":2}\r\n\n{"c"', ':3}\n'])).toEqual([
      { kind: 'line', text: '{"a":1}' },
      { kind: 'line', text: '{"b":2}' },
      { kind: 'line', text: '{"c":3}' },
    ]);
  });

  test('a multi-byte character split across chunks decodes intact', () => {
    const bytes = Buffer.from('"ü€😀"\n');
    expect(split([bytes.subarray(0, 2), bytes.subarray(2, 5), bytes.subarray(5)])).toEqual([{ kind: 'line', text: '"ü€😀"' }]);
  });

  test('invalid UTF-8 is reported, not repaired', () => {
    expect(split([Buffer.from([0x22, 0xff, 0x22, 0x0a]), '"ok"\n'])).toEqual([
      { kind: 'invalid-utf8', bytes: 3 },
      { kind: 'line', text: '"ok"' },
    ]);
  });

  test('an over-long line is reported once, discarded, and the next line is read normally', () => {
    const events = split(['x'.repeat(10), 'y'.repeat(10), 'z'.repeat(10), '\n"next"\n'], 16);
    expect(events).toEqual([
      { kind: 'overflow', limit: 16 },
      { kind: 'line', text: '"next"' },
    ]);
  });

  test('a line of exactly the limit is accepted', () => {
    expect(split([`${'a'.repeat(16)}\n`], 16)).toEqual([{ kind: 'line', text: 'a'.repeat(16) }]);
  });

  test('an over-long line inside one chunk is reported once; lines around it and a split line still arrive', () => {
    expect(split([`"a"\n${'x'.repeat(17)}\n"b"\n"c`, '"\n"d"\r\n'], 16)).toEqual([
      { kind: 'line', text: '"a"' },
      { kind: 'overflow', limit: 16 },
      { kind: 'line', text: '"b"' },
      { kind: 'line', text: '"c"' },
      { kind: 'line', text: '"d"' },
    ]);
  });
});

describe('shellWords', () => {
  test.each([
    ['python3 adapter.py', ['python3', 'adapter.py']],
    ['  node   "my dir/a.js"  --x ', ['node', 'my dir/a.js', '--x']],
    ["sh -c 'echo $HOME; exit 1'", ['sh', '-c', 'echo $HOME; exit 1']],
    ['a\\ b "q\\"uote" \'\' x""y', ['a b', 'q"uote', '', 'xy']],
    ['"a"\'b\'c', ['abc']],
  ])('%s', (line, argv) => {
    expect(shellWords(line)).toEqual(argv);
  });

  test.each(['"open', "'open", 'trailing\\'])('rejects %s', (line) => {
    expect(() => shellWords(line)).toThrow(ShellWordsError);
  });
});

describe('StderrTail', () => {
  test('keeps only the last capacity bytes and cuts per-case excerpts from a mark', () => {
    const t = new StderrTail(10);
    t.push(Buffer.from('0123456789'));
    const mark = t.written;
    t.push(Buffer.from('abc'));
    expect(t.tail(100)).toBe('3456789abc');
    expect(t.since(mark)).toBe('abc');
    expect(t.since(mark, 2)).toBe('bc');
    t.push(Buffer.from('x'.repeat(25)));
    expect(t.tail(100)).toBe('x'.repeat(10));
    expect(t.since(t.written)).toBe('');
  });
});

describe('adapter environment', () => {
  test('is an allowlist: PATH/LANG/LC_ALL/TZ/SYSTEMROOT and OAP_* copied, HOME/XDG/TMPDIR inside the worker dir, nothing else', () => {
    const dir = tempDir();
    const env = adapterEnv(dir, {
      PATH: '/bin',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      OAP_TOKEN_FOR_ADAPTER: 'x',
      GITHUB_TOKEN: 'secret',
      HOME: '/home/someone',
      XDG_CONFIG_HOME: '/home/someone/.config',
      NODE_OPTIONS: '--inspect',
    });
    expect(Object.keys(env).sort()).toEqual(
      [
        'HOME',
        'LANG',
        'OAP_TOKEN_FOR_ADAPTER',
        'PATH',
        'TMPDIR',
        'TZ',
        'XDG_CACHE_HOME',
        'XDG_CONFIG_HOME',
        'XDG_DATA_HOME',
        'XDG_STATE_HOME',
      ].sort(),
    );
    for (const k of ['HOME', 'TMPDIR', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME'])
      expect(env[k]!.startsWith(dir)).toBe(true);
  });
});

/** Answers validate at once, except a document whose content is "hang", which it never answers. */
const HANGING_ADAPTER = `let buf = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => { buf += d; let i; while ((i = buf.indexOf('\\n')) !== -1) { const m = JSON.parse(buf.slice(0, i)); buf = buf.slice(i + 1); if (m.params.document.content !== 'hang') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { valid: true, errors: [], warnings: [] } }) + '\\n'); } });`;

describe('StdioAdapterClient deadlines (one timer for all pending requests)', () => {
  test('a request made after earlier ones were answered still gets its full timeout, then poisons the connection', async () => {
    // The client's clock (setTimeout, performance.now) is simulated, so the deadline is observed to
    // the millisecond whatever the machine's load; the adapter's answers are real I/O.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const client = await StdioAdapterClient.start({
        argv: [process.execPath, '-e', HANGING_ADAPTER],
        env: { PATH: process.env.PATH ?? '' },
        timeoutMs: 300,
      });
      const doc = (content: string) => ({ document: { content, encoding: 'json' as const } });
      await expect(client.call('validate', doc('{}'))).resolves.toEqual({ valid: true, errors: [], warnings: [] });
      // The shared timer was armed for the first call's deadline (t=300); the hung call, made at
      // t=150, must not inherit it: its deadline is t=450.
      await vi.advanceTimersByTimeAsync(150);
      let settled: unknown;
      const hung = client.call('validate', doc('hang')).then(
        () => (settled = 'answered'),
        (e: unknown) => (settled = e),
      );
      await expect(client.call('validate', doc('{}'))).resolves.toMatchObject({ valid: true });
      await vi.advanceTimersByTimeAsync(299);
      expect(settled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await hung;
      expect(settled).toBeInstanceOf(AdapterTimeout);
      await expect(client.call('validate', doc('{}'))).rejects.toBe(settled);
      await client.exited;
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('serveStdio output', () => {
  test('pipelined requests arriving together are answered in a few coalesced writes, each once', async () => {
    const input = new PassThrough();
    const writes: string[] = [];
    const output = new Writable({
      write(chunk: Buffer, _enc, cb) {
        writes.push(chunk.toString());
        cb();
      },
    });
    const done = serveStdio(defineAdapter({ validate: () => ({ valid: true, errors: [], warnings: [] }) }), { input, output });
    const req = (id: number): string =>
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'validate', params: { document: { content: '{}', encoding: 'json' } } })}\n`;
    input.write(Array.from({ length: 50 }, (_, i) => req(i + 1)).join(''));
    await new Promise((r) => setTimeout(r, 50));
    // About 3.5 KB of responses: sliced at 2 KB, not one write per response.
    expect(writes.length).toBeGreaterThanOrEqual(1);
    expect(writes.length).toBeLessThanOrEqual(3);
    const ids = writes
      .join('')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'shutdown', params: {} })}\n`);
    await done;
    expect(JSON.parse(writes[writes.length - 1]!)).toEqual({ jsonrpc: '2.0', id: 99, result: {} });
  });
});
