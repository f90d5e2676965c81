import type { RunHeader } from './model.js';
import { schemaProblems } from './schemas.js';

/** conformance.md section 1: the machine-readable conformance statement, as this run demonstrated it. */
export interface ConformanceStatement {
  oap: '1.0';
  implementation: string;
  version: string;
  /** The attained level; 0 when the run demonstrated none. */
  level: 0 | 1 | 2 | 3;
  encodings: string[];
  discovery_roots: string[];
  unimplemented: string[];
}

export function buildStatement(header: RunHeader, attained: 0 | 1 | 2 | 3): ConformanceStatement {
  const hs = header.adapter.handshake;
  const statement: ConformanceStatement = {
    oap: '1.0',
    implementation: hs.implementation.name,
    version: hs.implementation.version,
    level: attained,
    encodings: [...new Set(hs.encodings)],
    discovery_roots: [...new Set(hs.discovery_roots)],
    unimplemented: [...new Set(hs.unimplemented)],
  };
  const problems = schemaProblems('statement', statement);
  if (problems.length > 0) throw new Error(`generated statement.json violates statement.schema.json: ${problems.join('; ')}`);
  return statement;
}
