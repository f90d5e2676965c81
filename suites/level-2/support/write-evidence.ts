/**
 * Observing how an adapter writes a profile file (L2-A12), rather than assuming it.
 *
 * Primary evidence: syscalls. `strace` is attached to the running adapter process (and its
 * threads and descendants) by pid, so no change to how the runner spawns adapters is needed; the
 * trace must show a file created in the profile's directory, written, fsync'd/fdatasync'd, and then
 * renamed over the profile. Fallback when strace is missing or ptrace is not permitted: directory
 * events (fs.watch) plus the inode, which show a new name appearing and the profile being replaced
 * by a different file (an in-place writer keeps the inode). fsync is not observable that way.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync, watch } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { sleep } from './common.js';

export type WriteEvidenceKind = 'strace' | 'fs-watch';

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
function processTree(pid: number): number[] {
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
  stop(): Promise<string>;
}

const TRACED =
  'trace=open,openat,openat2,creat,write,writev,pwrite64,pwritev,pwritev2,fsync,fdatasync,sync_file_range,rename,renameat,renameat2,link,linkat,close';

/** Attach strace to a running process tree. Undefined when strace cannot attach (missing, ptrace denied). */
export async function attachStrace(pid: number, outFile: string): Promise<Tracer | undefined> {
  if (!straceAvailable()) return undefined;
  const pids = processTree(pid);
  const child = spawn('strace', ['-f', '-y', '-s', '64', '-e', TRACED, '-o', outFile, ...pids.flatMap((p) => ['-p', String(p)])], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let exited = false;
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exit = new Promise<void>((r) =>
    child.once('exit', () => {
      exited = true;
      r();
    }),
  );
  child.once('error', () => (exited = true));
  const deadline = Date.now() + 5000;
  // strace reports "Process N attached" once per pid (with -f, after all its threads).
  while (!exited && Date.now() < deadline && (stderr.match(/attached/g) ?? []).length < pids.length) await sleep(10);
  if (exited || (stderr.match(/attached/g) ?? []).length < pids.length) {
    if (!exited) child.kill('SIGKILL');
    return undefined;
  }
  return {
    async stop(): Promise<string> {
      child.kill('SIGINT'); // detaches and flushes the output file
      await Promise.race([exit, sleep(5000)]);
      return existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
    },
  };
}

interface Call {
  pid: number;
  name: string;
  args: string;
  ret: string;
}

/** strace -f output → calls, with "<unfinished ...>" / "<... resumed>" pairs joined. */
export function parseStrace(text: string): Call[] {
  const out: Call[] = [];
  const pending = new Map<number, string>();
  for (const raw of text.split('\n')) {
    const m = /^(\d+)\s+(.*)$/.exec(raw);
    if (!m) continue;
    const pid = Number(m[1]);
    let line = m[2]!;
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
