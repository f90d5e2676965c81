import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
