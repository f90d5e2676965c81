import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import {
  CanonicalizationError,
  categoryOf,
  documentDigest,
  isOapDocumentName,
  loadDocumentFile,
  profileDigest,
  specDigest,
  type LoadedDocument,
  type OapIssue,
} from '../../../spec/document/index.js';
import { CliError, EXIT } from '../../exit-codes.js';

interface Digests {
  profile?: string;
  spec?: string;
  document?: string;
  /** Why no digest could be computed (a value JCS cannot represent). */
  unavailable?: string;
}

interface DocumentResult {
  path: string;
  kind: string | null;
  valid: boolean;
  issues: OapIssue[];
  digests?: Digests;
}

interface ValidateOptions {
  json?: boolean;
  digest?: boolean;
}

/**
 * `oap-conform validate PATH... [--json] [--digest]`
 *
 * Files named explicitly are always validated, whatever their name. Directories are walked
 * recursively for `*.agent.{yaml,yml,json,md}` and `*.delta.{yaml,yml,json}` only, so fixture
 * trees can hold helper files. Exit 0 when every document is valid, 1 when any is invalid, 2 when
 * a path is missing or unreadable or nothing was found to validate.
 */
export function register(program: Command): void {
  program
    .command('validate')
    .description('validate OAP profiles and state deltas (schema, version, kind, secrets, paths, delta scope)')
    .argument('<paths...>', 'document files or directories to search for *.agent.* and *.delta.* files')
    .option('--json', 'print one JSON object {documents:[{path, kind, valid, issues, digests?}]}')
    .option('--digest', 'print the profile and spec digests (other documents: the JCS document digest)')
    .action((paths: string[], options: ValidateOptions) => {
      const files = collectFiles(paths);
      const results = files.map((file) => toResult(file, loadDocumentFile(file), options.digest === true));
      process.stdout.write(options.json ? `${JSON.stringify({ documents: results }, null, 2)}\n` : results.map(formatText).join(''));
      process.exitCode = results.every((r) => r.valid) ? EXIT.OK : EXIT.FAILURES;
    });
}

function collectFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    const stat = statOrFail(path);
    if (stat.isDirectory()) files.push(...walk(path));
    else files.push(path);
  }
  if (files.length === 0) {
    throw new CliError('io.no-documents', `no *.agent.* or *.delta.* files under ${paths.join(', ')}`, EXIT.USAGE);
  }
  return files;
}

function statOrFail(path: string): Stats {
  try {
    return statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new CliError('io.not-found', path, EXIT.USAGE);
    throw new CliError('io.read', `${path}: ${code ?? String(err)}`, EXIT.USAGE);
  }
}

// Sorted for stable output; symlinked directories are not followed, so a link cycle cannot loop.
function walk(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    throw new CliError('io.read', `${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, EXIT.USAGE);
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (isOapDocumentName(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && statOrFail(full).isFile()))) out.push(full);
  }
  return out;
}

function toResult(path: string, loaded: LoadedDocument, withDigest: boolean): DocumentResult {
  const unreadable = loaded.issues.find((i) => categoryOf(i.code) === 'io');
  if (unreadable !== undefined) throw new CliError(unreadable.code, path, EXIT.USAGE);
  const result: DocumentResult = { path, kind: loaded.kind ?? null, valid: loaded.valid, issues: loaded.issues };
  if (withDigest && loaded.value !== undefined) result.digests = digestsOf(loaded);
  return result;
}

// Digests are printed even for invalid documents: the Appendix B vectors are plain JSON values,
// not profiles, and comparing digests of rejected documents is how interop bugs get found.
function digestsOf(loaded: LoadedDocument): Digests {
  try {
    if (loaded.kind !== 'AgentProfile') return { document: documentDigest(loaded.value) };
    const digests: Digests = { profile: profileDigest(loaded.value) };
    try {
      digests.spec = specDigest(loaded.value);
    } catch (err) {
      if (!(err instanceof CanonicalizationError)) throw err;
    }
    return digests;
  } catch (err) {
    if (err instanceof CanonicalizationError) return { unavailable: `${err.code} ${err.pointer || '""'}` };
    throw err;
  }
}

function formatText(r: DocumentResult): string {
  let out = `${r.valid ? 'ok  ' : 'FAIL'} ${r.path}\n`;
  for (const i of r.issues) {
    const where = i.line !== undefined ? ` (${i.line}:${i.column ?? 1})` : '';
    const severity = i.severity === 'warning' ? 'warning ' : '';
    out += `  ${severity}${i.code} ${i.pointer === '' ? '""' : i.pointer}${where} ${i.message}\n`;
  }
  const d = r.digests;
  if (d !== undefined) {
    if (d.profile !== undefined) out += `  profile-digest ${d.profile}\n`;
    if (d.spec !== undefined) out += `  spec-digest ${d.spec}\n`;
    if (d.document !== undefined) out += `  digest ${d.document}\n`;
    if (d.unavailable !== undefined) out += `  digest unavailable: ${d.unavailable}\n`;
  }
  return out;
}
