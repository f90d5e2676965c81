import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunReport } from './model.js';
import { schemaProblems, type SchemaName } from './schemas.js';

/** Reading our own artefacts back (verify, diff, merge, baseline): every failure is one line with a code. */
export class InputError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new InputError('unreadable-file', `cannot read ${path}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new InputError('bad-json', `${path} is not valid JSON: ${(err as Error).message}`);
  }
}

export function readValidated<T>(path: string, schema: SchemaName): T {
  const value = readJsonFile(path);
  const problems = schemaProblems(schema, value);
  if (problems.length > 0) throw new InputError(`bad-${schema}`, `${path} does not match the ${schema} schema: ${problems[0]}`);
  return value as T;
}

/** A result directory (containing report.json) or a report.json file. */
export function reportPathOf(dirOrFile: string): string {
  if (existsSync(dirOrFile) && statSync(dirOrFile).isDirectory()) {
    const file = join(dirOrFile, 'report.json');
    if (!existsSync(file)) throw new InputError('no-report', `${dirOrFile} has no report.json`);
    return file;
  }
  if (!existsSync(dirOrFile)) throw new InputError('not-found', `${dirOrFile} does not exist`);
  return dirOrFile;
}

export function loadReport(dirOrFile: string): RunReport {
  return readValidated<RunReport>(reportPathOf(dirOrFile), 'report');
}

/**
 * The detailed report of a run named by its directory, its report.json or its result.json (whose
 * sibling report.json holds the cases). Anything else is refused with what it is and what is wanted.
 */
export function loadRunReport(path: string): RunReport {
  if (!existsSync(path)) throw new InputError('not-found', `${path} does not exist`);
  if (statSync(path).isDirectory()) return loadReport(path);
  const value = readJsonFile(path);
  if (schemaProblems('result', value).length === 0) {
    const sibling = join(dirname(path), 'report.json');
    if (!existsSync(sibling))
      throw new InputError('no-report', `${path} is a result.json without the report.json beside it, which holds the cases this compares`);
    return readValidated<RunReport>(sibling, 'report');
  }
  const problems = schemaProblems('report', value);
  if (problems.length === 0) return value as RunReport;
  const schema = (value as { schema?: unknown } | null)?.schema;
  throw new InputError(
    'not-a-run',
    `${path} is ${typeof schema === 'string' ? `an ${schema} document` : 'neither a report.json nor a result.json'}; give a result directory, its report.json or its result.json${typeof schema === 'string' ? '' : ` (${problems[0]})`}`,
  );
}
