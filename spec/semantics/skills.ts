/**
 * Skills (SPEC §3.4 `skills`; conformance.md L1-I7, L3-K1, L3-G2).
 *
 * Reading (INTERPRETATIONS.md#skills-and-stores): a skill is present when it is installed (the protocol's
 * `skills`) and, when the profile pins a `digest`, the installed content has that digest ("`digest`
 * pins content"; L3-K1 "MUST verify `digest` when present"); an installed skill whose digest the
 * harness does not know cannot be verified and is not present under a pin. Otherwise it is missing:
 * "A resolver MUST NOT install a skill as a side effect of loading a profile; it either finds the
 * skill already present or reports it missing." Skills are what the machine has installed, so a
 * subagent's skills are judged the same way (the parent's list is its own profile's request).
 */
import type { HarnessPolicyT } from '../../protocol/messages.js';

export type SkillStatus = 'present' | 'missing';

/** A skill a profile asks for. */
export interface SkillRequest {
  index: number;
  name: string;
  digest?: string | undefined;
  required: boolean;
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** `spec.tools.skills` of a profile's `spec`. */
export function skillsOf(spec: unknown): SkillRequest[] {
  const skills = record(record(spec)['tools'])['skills'];
  if (!Array.isArray(skills)) return [];
  return skills.map((raw, index) => {
    const s = record(raw);
    return {
      index,
      name: String(s['name']),
      ...(typeof s['digest'] === 'string' ? { digest: s['digest'] } : {}),
      required: s['required'] === true,
    };
  });
}

/** Is the skill installed with the pinned content (or installed at all, when unpinned)? */
export function skillStatus(skill: Pick<SkillRequest, 'name' | 'digest'>, installed: HarnessPolicyT['skills']): SkillStatus {
  const found = installed.find((k) => k.name === skill.name);
  if (!found) return 'missing';
  return skill.digest === undefined || found.digest === skill.digest ? 'present' : 'missing';
}
