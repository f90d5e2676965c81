/**
 * Finding files: one shrunk counterexample per failing fuzz case, self-contained enough to replay
 * against any adapter (`oap-conform replay FILE --adapter X`). The file holds the input, not the
 * generator state, so replaying needs neither the seed nor this version's generators.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../spec/document/ajv.js';
import { fromRoot } from '../spec/package-root.js';
import type { Difference } from '../spec/document/differences.js';
import { CheckFailure } from '../suites/kit/errors.js';

const FINDING_FORMAT = 'oap-conform.fuzz-finding.v1';

export interface Finding {
  format: typeof FINDING_FORMAT;
  /** The fuzz run seed (`--seed`) and the case's derived fast-check seed. */
  seed: number;
  case_seed: number;
  case_id: string;
  requirements: string[];
  /** Name of the fuzz property (fuzz/registry.ts) that judges `input`. */
  property: string;
  message: string;
  input: unknown;
  expected?: unknown;
  observed?: unknown;
  adapter?: { name: string; version: string };
  shrinking: { num_shrinks: number; counterexample_path: string | null; adapter_calls: number; reproduced: boolean };
}

/** A fuzz case failed and wrote its shrunk counterexample to `file`: the engine records it as the case's `finding`. */
export class FindingFailure extends CheckFailure {
  constructor(
    message: string,
    expected: unknown,
    observed: unknown,
    readonly file: string,
    differences?: readonly Difference[],
  ) {
    super(message, expected, observed, differences);
    this.name = 'FindingFailure';
  }
}

function findingFileName(caseId: string): string {
  return `${caseId.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`;
}

export function writeFinding(dir: string, finding: Finding): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, findingFileName(finding.case_id));
  writeFileSync(path, `${JSON.stringify(finding, null, 2)}\n`);
  return path;
}

export function readFinding(path: string): Finding {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read finding ${path}: ${(err as Error).message}`);
  }
  const f = data as Partial<Finding>;
  if (f === null || typeof f !== 'object' || f.format !== FINDING_FORMAT) {
    throw new Error(`${path} is not an ${FINDING_FORMAT} file`);
  }
  const check = findingValidator();
  if (!check(f)) {
    const first = check.errors?.[0];
    throw new Error(
      `${path}: not a valid finding (results-schema/fuzz-finding.schema.json): ${first ? `${first.instancePath || '/'} ${first.message ?? ''}` : 'invalid'}`,
    );
  }
  return f as Finding;
}

let validator: ValidateFunction | undefined;

function findingValidator(): ValidateFunction {
  validator ??= createAjv({ allErrors: true, strict: true }).compile(
    JSON.parse(readFileSync(fromRoot('results-schema', 'fuzz-finding.schema.json'), 'utf8')) as object,
  );
  return validator;
}
