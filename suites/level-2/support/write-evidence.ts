/**
 * Observing how an adapter writes a profile file (L2-A12), rather than assuming it.
 *
 * Primary evidence: syscalls. `strace` is attached to the running adapter process (and its
 * threads and descendants) by pid, so no change to how the runner spawns adapters is needed; the
 * trace must show a file created in the profile's directory, written, fsync'd/fdatasync'd, and then
 * renamed over the profile. The same trace names the write path's crash points (every open for
 * writing, write, fsync and rename in the profile's directory), and `attachStrace`'s `inject`
 * kills a fresh adapter on entry to exactly one of them (strace's `-e inject=SYSCALL:signal=SIGKILL:when=N`,
 * which counts each thread's calls of each syscall from the moment it attached).
 * Fallback when strace is missing or ptrace is not permitted: directory events (fs.watch) plus the
 * inode, which show a new name appearing and the profile being replaced by a different file (an
 * in-place writer keeps the inode). fsync is not observable that way, so the fallback can fail a
 * writer but never pass one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync, watch } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { sleep } from './common.js';

type WriteEvidenceKind = 'strace' | 'fs-watch';

export interface WriteVerdict {
  kind: WriteEvidenceKind;
  /** Empty when the write path is temp-in-same-dir → write → fsync → rename over the target. */
  problems: string[];
  /** Structured summary for the report. */
  observed: Record<string, unknown>;
}

let straceUsable: boolean | undefined;

export function straceAvailable(): boolean {
  if (straceUsable === undefined) {
    const r = spawnSync('strace', ['-V'], { stdio: 'ignore' });
    straceUsable = r.status === 0;
  }
  return straceUsable;
}

/** The pid and every descendant (a wrapper command may run the real adapter as a child). */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const p = out[i]!;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      try {
        for (const c of readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim().split(/\s+/)) if (c) out.push(Number(c));
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return [...new Set(out)];
}

export interface Tracer {
  /** The pids traced, in processTree order (index 0 is the adapter process). */
  readonly pids: number[];
  /** Settles when an injected pause has stopped the tracee (the call's line ends "(DELAYED)"). */
  readonly paused: Promise<void>;
  /** Detach and return the trace. */
  stop(): Promise<string>;
  /**
   * Kill strace itself and return the trace so far. A tracee killed during a pause is reaped only
   * once its tracer lets go, which a pausing strace does only when the pause ends.
   */
  abort(): Promise<string>;
}

/**
 * Act on the traced thread at its `when`-th call of `syscall` (counted from the attach): `kill`
 * SIGKILLs it on entry to the call; `pause` holds it after the call returned (strace's
 * delay_exit), so the caller can kill it there: the state a kill on entry to the next call leaves.
 */
interface Injection {
  syscall: string;
  when: number;
  action?: 'kill' | 'pause';
}

export interface TraceOptions {
  /** Trace this one thread (a process's main thread: its tid is its pid) instead of the whole tree. */
  thread?: number;
  inject?: Injection;
}

const WRITE_SYSCALLS = [
  'open',
  'openat',
  'openat2',
  'creat',
  'write',
  'writev',
  'pwrite64',
  'pwritev',
  'pwritev2',
  'fsync',
  'fdatasync',
  'sync_file_range',
  'rename',
  'renameat',
  'renameat2',
  'link',
  'linkat',
  'unlink',
  'unlinkat',
  'truncate',
  'ftruncate',
];
const TRACED = `trace=${[...WRITE_SYSCALLS, 'close'].join(',')}`;
/** A pause lasts until the caller kills the tracee; this is only the bound if it never does. */
const PAUSE_US = 30_000_000;

/**
 * Attach strace to a running process tree (or one thread of it). Undefined when strace cannot
 * attach (missing, ptrace denied). Without `outFile` the trace streams through strace's stderr
 * (which is what lets `paused` settle the moment the pause begins).
 */
export async function attachStrace(pid: number, outFile: string | undefined, opts: TraceOptions = {}): Promise<Tracer | undefined> {
  if (!straceAvailable()) return undefined;
  const pids = opts.thread !== undefined ? [opts.thread] : processTree(pid);
  const inject = opts.inject;
  const action = inject?.action === 'pause' ? `delay_exit=${PAUSE_US}` : 'signal=SIGKILL';
  const args = [
    ...(opts.thread !== undefined ? [] : ['-f']),
    '-y',
    '-s',
    '64',
    '-e',
    TRACED,
    ...(inject ? ['-e', `inject=${inject.syscall}:${action}:when=${inject.when}`] : []),
    ...(outFile ? ['-o', outFile] : []),
    ...pids.flatMap((p) => ['-p', String(p)]),
  ];
  const child = spawn('strace', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let exited = false;
  let onData = (): void => {};
  let onPause = (): void => {};
  const paused = new Promise<void>((r) => (onPause = r));
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
    if (stderr.includes('(DELAYED)')) onPause();
    onData();
  });
  const exit = new Promise<void>((r) =>
    child.once('exit', () => {
      exited = true;
      onData();
      r();
    }),
  );
  child.once('error', () => {
    exited = true;
    onData();
  });
  // strace reports "Process N attached" once per pid (with -f, after all its threads).
  const attached = (): boolean => (stderr.match(/attached/g) ?? []).length >= pids.length;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5000);
    onData = () => {
      if (exited || attached()) {
        clearTimeout(timer);
        resolve();
      }
    };
    onData();
  });
  onData = () => {};
  const trace = (): string => (outFile ? (existsSync(outFile) ? readFileSync(outFile, 'utf8') : '') : stderr);
  if (exited || !attached()) {
    if (!exited) child.kill('SIGKILL');
    return undefined;
  }
  return {
    pids,
    paused,
    async stop(): Promise<string> {
      if (!exited) child.kill('SIGINT'); // detaches and flushes the output file
      await Promise.race([exit, sleep(5000)]);
      return trace();
    },
    async abort(): Promise<string> {
      if (!exited) child.kill('SIGKILL');
      await exit;
      return trace();
    },
  };
}

interface Call {
  pid: number;
  name: string;
  args: string;
  ret: string;
}

/**
 * strace output → calls, with "<unfinished ...>" / "<... resumed>" pairs joined. Lines carry the
 * thread id with -f; a trace of one thread has none, and its calls get `pid` 0. strace's own
 * messages ("strace: Process N attached") are skipped.
 */
function parseStrace(text: string): Call[] {
  const out: Call[] = [];
  const pending = new Map<number, string>();
  for (const raw of text.split('\n')) {
    // `-o FILE -f` prefixes "PID ", stderr with -f "[pid PID] ", one traced thread nothing.
    const m = /^(?:\[pid\s+(\d+)\]\s+|(\d+)\s+)?([a-z_0-9]+\(.*|<\.\.\. .*)$/.exec(raw);
    if (!m) continue;
    const pid = Number(m[1] ?? m[2] ?? 0);
    let line = m[3]!;
    if (line.endsWith('<unfinished ...>')) {
      pending.set(pid, line.slice(0, -'<unfinished ...>'.length).trimEnd());
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (resumed) {
      line = (pending.get(pid) ?? '') + resumed[1];
      pending.delete(pid);
    }
    const c = /^(\w+)\((.*)\)\s+=\s+(.*)$/.exec(line);
    if (c) out.push({ pid, name: c[1]!, args: c[2]!, ret: c[3]! });
  }
  return out;
}

function strings(args: string): string[] {
  return [...args.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
}

/** Path of the fd in the first argument, from strace -y's `N</path>` annotation. */
function fdPath(args: string): string | undefined {
  return /^-?\d+<([^>]*)>/.exec(args)?.[1];
}

function dirfdPath(token: string | undefined, cwd: string): string {
  const p = token ? /<([^>]*)>/.exec(token)?.[1] : undefined;
  return p ?? cwd;
}

function okRet(ret: string): boolean {
  return /^\d+/.test(ret);
}

/** Every path a call names (path arguments resolved against their dirfd or the cwd, fd paths from -y). */
function pathsOf(c: Call, cwd: string): string[] {
  const abs = (p: string, base: string): string => (isAbsolute(p) ? resolve(p) : resolve(base, p));
  const parts = c.args.split(',').map((x) => x.trim());
  const s = strings(c.args);
  switch (c.name) {
    case 'open':
    case 'creat':
    case 'truncate':
    case 'unlink':
      return s[0] !== undefined ? [abs(s[0], cwd)] : [];
    case 'openat':
    case 'openat2':
    case 'unlinkat':
      return s[0] !== undefined ? [abs(s[0], dirfdPath(parts[0], cwd))] : [];
    case 'rename':
    case 'link':
      return s.slice(0, 2).map((x) => abs(x, cwd));
    case 'renameat':
    case 'renameat2':
    case 'linkat':
      // renameat(olddirfd, "old", newdirfd, "new"[, flags])
      return s.length >= 2 ? [abs(s[0]!, dirfdPath(parts[0], cwd)), abs(s[1]!, dirfdPath(parts[2], cwd))] : [];
    default: {
      const p = fdPath(c.args);
      return p ? [p] : [];
    }
  }
}

/** One step of the write path: a syscall that touches the profile's directory. */
export interface CrashPoint {
  /** Position in the write path, from 0. */
  step: number;
  /** The thread that made the call, as traced (a tid; 0 when one thread was traced alone). */
  tid: number;
  syscall: string;
  /** This thread's how-many-th call of `syscall` since the attach (strace's `when`). */
  when: number;
  /** What it touched: the profile, the directory itself, or another file in the directory. */
  touches: 'profile' | 'directory' | 'other';
  /** Readable form for the report, e.g. `fsync(.profile.json.1a2b.tmp)`. */
  label: string;
  /** The call never returned: a kill run's injection stopped the process on entry to it. */
  killed?: true;
}

interface WriteCall {
  point: CrashPoint;
  call: Call;
  /** The paths in the profile's directory that the call names. */
  paths: string[];
}

function writeCalls(trace: string, target: string, dirs: string[], cwd: string): WriteCall[] {
  const seen = new Map<string, number>();
  const out: WriteCall[] = [];
  const inDir = (p: string): boolean => dirs.includes(p) || dirs.includes(dirname(p));
  const names = profileNames(target, dirs);
  for (const c of parseStrace(trace)) {
    const key = `${c.pid}:${c.name}`;
    const when = (seen.get(key) ?? 0) + 1;
    seen.set(key, when);
    if (!WRITE_SYSCALLS.includes(c.name)) continue;
    const paths = pathsOf(c, cwd).filter(inDir);
    if (paths.length === 0) continue;
    // Opening a file of the directory to read it is no step of a write; opening the directory is (to fsync it).
    if (isOpen(c.name) && c.name !== 'creat' && !/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/.test(c.args) && !paths.some((p) => dirs.includes(p)))
      continue;
    const touches = paths.some((p) => names.has(p)) ? 'profile' : paths.some((p) => dirs.includes(p)) ? 'directory' : 'other';
    const point: CrashPoint = {
      step: out.length,
      tid: c.pid,
      syscall: c.name,
      when,
      touches,
      label: `${c.name}(${paths.map((p) => (dirs.includes(p) ? '.' : p.slice(dirname(p).length + 1))).join(' -> ')})`,
      ...(c.ret.startsWith('?') ? { killed: true as const } : {}),
    };
    out.push({ point, call: c, paths });
  }
  return out;
}

const isOpen = (name: string): boolean => /^(open|openat|openat2|creat)$/.test(name);

function profileNames(target: string, dirs: string[]): Set<string> {
  const base = target.slice(dirname(target).length + 1);
  return new Set([target, ...dirs.map((d) => join(d, base))]);
}

/**
 * The write path of one operation in a trace: every call, in order, that opens a file of the
 * profile's directory for writing (or the directory itself), writes, syncs, truncates, renames,
 * links or unlinks there. `dirs` are the directory's names (as given and real).
 */
export function writePath(trace: string, target: string, dirs: string[], cwd: string): CrashPoint[] {
  return writeCalls(trace, target, dirs, cwd).map((w) => w.point);
}

/**
 * What a power cut, rather than a kill, could leave at each step of a traced write path: data
 * written but not yet fsync-ed may never reach the disk, so a rename over the profile of a file
 * whose data was not fsync-ed, or a write into the profile itself, can leave a torn profile even
 * though every kill found a whole one (the page cache survives a killed process, not a power cut).
 * One entry per step after which the profile could be torn, with the reason.
 */
export function powerCutRisks(
  trace: string,
  target: string,
  dirs: string[],
  cwd: string,
): Array<{ step: number; label: string; why: string }> {
  const names = profileNames(target, dirs);
  const dirty = new Set<string>();
  const risks: Array<{ step: number; label: string; why: string }> = [];
  for (const { point, call: c, paths } of writeCalls(trace, target, dirs, cwd)) {
    const file = (okRet(c.ret) ? fdPath(c.ret) : undefined) ?? paths[0]!;
    const risk = (why: string): void => void risks.push({ step: point.step, label: point.label, why });
    if (isOpen(c.name) && names.has(file) && /O_TRUNC/.test(c.args)) risk('the profile was truncated in place');
    else if (/^(write|writev|pwrite64|pwritev2?)$/.test(c.name)) {
      dirty.add(file);
      if (names.has(file)) risk('the profile was written in place');
    } else if (/^(fsync|fdatasync)$/.test(c.name)) dirty.delete(file);
    else if (/^rename(at2?)?$/.test(c.name) && paths.length === 2 && names.has(paths[1]!) && dirty.has(paths[0]!))
      risk('a file was renamed over the profile before its data was fsync-ed');
  }
  return risks;
}

/** Judge a syscall trace for one write of `target` (an absolute, real path). */
export function judgeStrace(trace: string, target: string, cwd: string): WriteVerdict {
  const calls = parseStrace(trace);
  const dir = dirname(target);
  const abs = (p: string, base: string): string => (isAbsolute(p) ? resolve(p) : resolve(base, p));
  const problems: string[] = [];

  // The rename that put the new content in place.
  let renameAt = -1;
  let src = '';
  calls.forEach((c, i) => {
    if (!/^rename(at2?)?$/.test(c.name) || !okRet(c.ret)) return;
    const s = strings(c.args);
    if (s.length < 2) return;
    const parts = c.args.split(',').map((x) => x.trim());
    const from = c.name === 'rename' ? abs(s[0]!, cwd) : abs(s[0]!, dirfdPath(parts[0], cwd));
    const to = c.name === 'rename' ? abs(s[1]!, cwd) : abs(s[1]!, dirfdPath(parts[2], cwd));
    if (to === target) {
      renameAt = i;
      src = from;
    }
  });
  const inPlace = calls.filter((c) => {
    if (/^(open|openat|openat2|creat)$/.test(c.name))
      return okRet(c.ret) && fdPath(c.ret) === target && /O_WRONLY|O_RDWR|O_TRUNC/.test(c.args);
    if (/^(write|writev|pwrite64|pwritev2?)$/.test(c.name)) return fdPath(c.args) === target;
    return false;
  }).length;
  if (inPlace > 0) problems.push('the profile itself was opened for writing or written');
  if (renameAt < 0) {
    problems.push('no rename over the profile');
    return { kind: 'strace', problems, observed: { renameOverTarget: false, inPlaceWrites: inPlace, calls: calls.length } };
  }
  if (dirname(src) !== dir) problems.push('the temporary file is not in the profile directory');
  const before = calls.slice(0, renameAt);
  const created = before.some(
    (c) =>
      /^(open|openat|openat2|creat)$/.test(c.name) &&
      okRet(c.ret) &&
      fdPath(c.ret) === src &&
      (c.name === 'creat' || /O_CREAT/.test(c.args)),
  );
  const written = before.some(
    (c) => /^(write|writev|pwrite64|pwritev2?)$/.test(c.name) && fdPath(c.args) === src && okRet(c.ret) && c.ret !== '0',
  );
  const synced = before.some((c) => /^(fsync|fdatasync)$/.test(c.name) && fdPath(c.args) === src && c.ret.startsWith('0'));
  if (!created) problems.push('the temporary file was not created before the rename');
  if (!written) problems.push('the temporary file was not written before the rename');
  if (!synced) problems.push('the temporary file was not fsync/fdatasync-ed before the rename');
  const dirSynced = calls.slice(renameAt).some((c) => /^(fsync|fdatasync)$/.test(c.name) && fdPath(c.args) === dir);
  return {
    kind: 'strace',
    problems,
    observed: {
      renameOverTarget: true,
      tempInSameDir: dirname(src) === dir,
      created,
      written,
      synced,
      inPlaceWrites: inPlace,
      directorySynced: dirSynced,
    },
  };
}

export interface DirWatch {
  stop(): Promise<WriteVerdict>;
}

/** Fallback evidence: directory events and the inode of the profile. */
export function watchDirectory(target: string): DirWatch {
  const dir = dirname(target);
  const name = target.slice(dir.length + 1);
  const inoBefore = statSync(target).ino;
  const namesBefore = new Set(readdirSync(dir));
  const events: Array<{ type: string; name: string }> = [];
  const w = watch(dir, (type, file) => events.push({ type, name: String(file ?? '') }));
  return {
    async stop(): Promise<WriteVerdict> {
      await sleep(150); // let queued inotify events arrive
      w.close();
      const problems: string[] = [];
      const inoAfter = existsSync(target) ? statSync(target).ino : -1;
      const namesAfter = new Set(readdirSync(dir));
      const transient = [
        ...new Set(
          events
            .filter((e) => e.type === 'rename' && e.name !== name && !namesBefore.has(e.name) && !namesAfter.has(e.name))
            .map((e) => e.name),
        ),
      ];
      const targetRenamed = events.some((e) => e.type === 'rename' && e.name === name);
      if (inoAfter === inoBefore) problems.push('the profile kept its inode: it was rewritten in place');
      if (!targetRenamed) problems.push('no directory event replacing the profile');
      if (transient.length === 0) problems.push('no temporary name appeared and disappeared in the profile directory');
      return {
        kind: 'fs-watch',
        problems,
        observed: { inodeChanged: inoAfter !== inoBefore, targetRenamed, transientNames: transient.length, events: events.length },
      };
    },
  };
}

/** The process's working directory, for relative paths in the trace. */
export function cwdOf(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return process.cwd();
  }
}

export function realTarget(path: string): string {
  return join(realpathSync(dirname(path)), path.slice(dirname(path).length + 1));
}
