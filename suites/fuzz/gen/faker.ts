/**
 * Schema-driven random profiles from json-schema-faker 0.6.3, seeded (its own PRNG, `seed`
 * option), bounded (maxItems 3, maxLength 40) and few per run: ~20-30 ms per document, against
 * microseconds for the fast-check arbitraries. About half of the raw output fails the schema (the
 * generator ignores some keywords), which is why every document is filtered through the oracle.
 */
import { readFileSync } from 'node:fs';
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { fromRoot } from '../../../spec/package-root.js';

let schema: JsonSchema | undefined;
function profileSchema(): JsonSchema {
  schema ??= JSON.parse(readFileSync(fromRoot('spec', 'schemas', 'oap-1.0.1', 'agent-profile.schema.json'), 'utf8')) as JsonSchema;
  return schema;
}

/** The raw generator output for `seed`: the same document on any machine. */
export function rawFakerDocument(seed: number): unknown {
  return generateSync(profileSchema(), { seed, maxItems: 3, maxLength: 40 });
}

/**
 * Pin what random strings would otherwise make meaningless: the version this suite speaks (a
 * random `1.N` is a higher minor the adapter must reject, L1-P4), and no `extends` (random base
 * names never resolve; inheritance is fuzzed by the extends property).
 */
export function fakerDocument(seed: number): Record<string, unknown> {
  const raw = rawFakerDocument(seed);
  const doc = (raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {}) as Record<
    string,
    unknown
  >;
  doc.oap = '1.0';
  doc.kind = 'AgentProfile';
  delete doc.extends;
  return doc;
}
