import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  lstatSync,
  writeFileSync,
  readlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { stringify as yamlStringify } from 'yaml';
import { accommodateDocument } from './forms.js';
import { parseDocument } from '../../spec/document/index.js';

export interface DiscoveryRootDirs {
  managed: string;
  user: string;
  project: string;
  plugin: string[];
}

interface FileState {
  size: number;
  mtimeMs: number;
  sha256: string;
  kind: 'file' | 'dir' | 'symlink';
}

/** Path (relative to the case root, `/`-separated) -> state. */
export type Snapshot = Map<string, FileState>;

export interface SnapshotDiff {
  created: string[];
  removed: string[];
  changed: string[];
}

/**
 * Where case workspaces go: $OAP_CONFORM_TMPDIR, else /dev/shm when it is a writable directory,
 * else the OS temp dir. A run creates and removes a dozen directories per case, and on the overlay
 * filesystems CI machines use that costs ~15 ms a case against ~1 ms on tmpfs (measured).
 */
export function defaultWorkspaceParent(): string {
  const explicit = process.env.OAP_CONFORM_TMPDIR;
  if (explicit) return explicit;
  try {
    accessSync('/dev/shm', constants.W_OK | constants.X_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

/**
 * A fresh temporary tree per case:
 *   <root>/workspace/            the project workspace (project root: workspace/.agents/)
 *   <root>/home/                 HOME, with the XDG dirs below it; user root: home/.config/oap/agents/
 *   <root>/tmp/                  TMPDIR
 *   <root>/managed/agents/       managed root
 *   <root>/plugins/p1/agents/    plugin root
 * While the case runs, the engine points the adapter process's HOME, XDG_* and TMPDIR at
 * <root>/home and <root>/tmp (runner/engine/env.ts CaseHome), so what the adapter writes there is in
 * the snapshot. In-process adapters share the runner's environment instead.
 */
export class Workspace {
  readonly root: string;
  readonly dir: string;
  readonly home: string;
  readonly tmp: string;
  readonly roots: DiscoveryRootDirs;

  /**
   * `name` (a case ID, for --keep-workspaces) names the directory so a reader can find it: unsafe
   * characters become `_`, and a name already taken gets a `-2`, `-3`, ... suffix.
   */
  constructor(parent = defaultWorkspaceParent(), name?: string) {
    this.root = name === undefined ? mkdtempSync(join(parent, 'oap-case-')) : namedDir(parent, name);
    this.dir = join(this.root, 'workspace');
    this.home = join(this.root, 'home');
    this.tmp = join(this.root, 'tmp');
    this.roots = {
      managed: join(this.root, 'managed', 'agents'),
      user: join(this.home, '.config', 'oap', 'agents'),
      project: this.dir,
      plugin: [join(this.root, 'plugins', 'p1', 'agents')],
    };
    const xdg = [join(this.home, '.local', 'share'), join(this.home, '.cache'), join(this.home, '.local', 'state')];
    for (const d of [this.dir, this.tmp, ...xdg, this.roots.managed, this.roots.user, ...this.roots.plugin])
      mkdirSync(d, { recursive: true });
  }

  /** The project root directory the spec recommends, `<workspace>/.agents/`. */
  get projectAgents(): string {
    return join(this.dir, '.agents');
  }

  /** Write a file at an absolute path or a path relative to the case root. Creates parents. */
  writeFile(path: string, content: string | Uint8Array): string {
    const abs = path.startsWith(this.root) ? path : join(this.root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    return abs;
  }

  /** Serialize `doc` in `encoding` (Markdown: instructions become the body) into `dir/fileName`. */
  writeDocument(dir: string, fileName: string, doc: unknown, encoding: 'yaml' | 'json' | 'md' = 'yaml'): string {
    return this.writeFile(join(dir, fileName), serializeDocument(doc, encoding));
  }

  readFile(path: string): Buffer {
    return readFileSync(path.startsWith(this.root) ? path : join(this.root, path));
  }

  snapshot(): Snapshot {
    const out: Snapshot = new Map();
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const abs = join(dir, name);
        const rel = relative(this.root, abs).split(sep).join('/');
        const st = lstatSync(abs);
        if (st.isSymbolicLink()) {
          out.set(rel, { size: 0, mtimeMs: st.mtimeMs, sha256: readlinkSync(abs), kind: 'symlink' });
        } else if (st.isDirectory()) {
          out.set(rel, { size: 0, mtimeMs: 0, sha256: '', kind: 'dir' });
          walk(abs);
        } else {
          const sha = createHash('sha256').update(readFileSync(abs)).digest('hex');
          out.set(rel, { size: st.size, mtimeMs: st.mtimeMs, sha256: sha, kind: 'file' });
        }
      }
    };
    walk(this.root);
    return out;
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A new directory `parent/<safe name>`, suffixed when the name is taken. */
function namedDir(parent: string, name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_') || 'case';
  mkdirSync(parent, { recursive: true });
  for (let n = 1; ; n++) {
    const dir = join(parent, n === 1 ? safe : `${safe}-${n}`);
    try {
      mkdirSync(dir);
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

export function diffSnapshots(before: Snapshot, after: Snapshot, ignore: (path: string) => boolean = () => false): SnapshotDiff {
  const created: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  for (const [p, s] of after) {
    if (ignore(p)) continue;
    const b = before.get(p);
    if (!b) created.push(p);
    else if (b.kind !== s.kind || b.sha256 !== s.sha256 || b.size !== s.size || (s.kind === 'file' && b.mtimeMs !== s.mtimeMs))
      changed.push(p);
  }
  for (const p of before.keys()) if (!after.has(p) && !ignore(p)) removed.push(p);
  return { created, removed, changed };
}

/**
 * A document as the suite writes it. Inside a case, a profile takes the case's accommodations
 * (./forms.ts: the optional metadata the harness would not accept absent), unless the case is about
 * that form.
 */
export function serializeDocument(given: unknown, encoding: 'yaml' | 'json' | 'md'): string {
  const doc = accommodateDocument(given);
  if (encoding === 'json') return `${JSON.stringify(doc, null, 2)}\n`;
  if (encoding === 'yaml') return yamlStringify(doc, { version: '1.2', lineWidth: 0 });
  const copy = structuredClone(doc) as { spec?: { role?: { instructions?: string } } };
  const body = copy.spec?.role?.instructions ?? '';
  if (copy.spec?.role) delete copy.spec.role.instructions;
  return `---\n${yamlStringify(copy, { version: '1.2', lineWidth: 0 })}---\n\n${body}\n`;
}

/**
 * A document file's bytes as a case copies them (a fixture installed byte for byte): unchanged,
 * unless the case's accommodations change the document (./forms.ts), in which case it is written
 * again from its logical document in the same encoding. Text that does not parse is copied as is.
 */
export function accommodateFileBytes(bytes: Buffer, encoding: 'yaml' | 'json' | 'md'): Buffer {
  const parsed = parseDocument(bytes, encoding);
  if (!parsed.ok) return bytes;
  const accommodated = accommodateDocument(parsed.value);
  return accommodated === parsed.value ? bytes : Buffer.from(serializeDocument(accommodated, encoding));
}
