import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { CaseDef } from '../../suites/framework/types.js';
import { REQUIREMENTS, type Requirement } from '../../suites/requirements.js';

/**
 * The manifest digest pins what a run judged against: sha256 (hex, `sha256:` prefix) of the JCS
 * form of {requirements, cases: [{id, requirements}]} with cases sorted by ID. Two runs with the
 * same digest ran the same checks for the same requirements; `--resume` refuses to mix runs that differ.
 */
export function manifestDigest(
  cases: readonly Pick<CaseDef, 'id' | 'requirements'>[],
  requirements: readonly Requirement[] = REQUIREMENTS,
): string {
  const body = {
    requirements,
    cases: [...cases].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((c) => ({ id: c.id, requirements: c.requirements })),
  };
  const text = (canonicalize as unknown as (v: unknown) => string | undefined)(body);
  if (text === undefined) throw new Error('manifest is not canonicalizable');
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}
