/**
 * The example harness's own, deliberately small document check (JSON encoding only). It is not
 * the full JSON Schema: it checks the required structure, the version and the kind, and reports
 * each problem with a category and a JSON Pointer, which is what the protocol asks of an adapter.
 * The handshake's `unimplemented` list says what it leaves out.
 */
import { pointerOf, type AdapterIssueT } from '../../../sdk/ts/index.js';

const TOP_LEVEL_KEYS = ['oap', 'kind', 'extends', 'metadata', 'spec', 'state', 'history'];
const NAME = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;
/** The minor version of OAP 1.x this harness implements. */
const MINOR = 0;

export type Profile = {
  oap: string;
  kind: string;
  metadata: { name: string; description: string; revision?: number; [k: string]: unknown };
  spec: { role: { instructions: string; [k: string]: unknown }; [k: string]: unknown };
  [k: string]: unknown;
};

export interface CheckOutcome {
  profile?: Profile;
  errors: AdapterIssueT[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseJsonProfile(text: string): CheckOutcome {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { errors: [{ category: 'parse', pointer: '', message: `not JSON: ${(err as Error).message}` }] };
  }
  return checkProfile(doc);
}

export function checkProfile(doc: unknown): CheckOutcome {
  const errors: AdapterIssueT[] = [];
  const issue = (category: AdapterIssueT['category'], pointer: string, message: string): void => {
    errors.push({ category, pointer, message });
  };
  if (!isObject(doc)) {
    issue('schema', '', 'a profile is a JSON object');
    return { errors };
  }
  for (const key of ['oap', 'kind', 'metadata', 'spec']) if (!(key in doc)) issue('schema', '', `missing required member ${key}`);
  for (const key of Object.keys(doc)) if (!TOP_LEVEL_KEYS.includes(key)) issue('schema', pointerOf([key]), `unknown member ${key}`);
  if ('oap' in doc) {
    const m = typeof doc.oap === 'string' ? /^(\d+)\.(\d+)$/.exec(doc.oap) : null;
    if (!m) issue('schema', '/oap', 'oap must be "MAJOR.MINOR"');
    else if (Number(m[1]) !== 1) issue('version-major', '/oap', `oap major version ${m[1]} is not implemented`);
    else if (Number(m[2]) > MINOR) issue('version-minor', '/oap', `oap 1.${m[2]} is newer than the implemented 1.${MINOR}`);
  }
  if ('kind' in doc && doc.kind !== 'AgentProfile') issue('kind', '/kind', `unknown kind ${JSON.stringify(doc.kind)}`);
  if ('metadata' in doc) {
    const md = doc.metadata;
    if (!isObject(md)) issue('schema', '/metadata', 'metadata must be an object');
    else {
      if (typeof md.name !== 'string' || !NAME.test(md.name)) issue('schema', '/metadata/name', 'metadata.name must be a lowercase slug');
      if (typeof md.description !== 'string' || md.description.length === 0)
        issue('schema', '/metadata/description', 'metadata.description is required');
      if ('revision' in md && !(Number.isInteger(md.revision) && (md.revision as number) >= 1))
        issue('schema', '/metadata/revision', 'revision must be an integer >= 1');
    }
  }
  if ('spec' in doc) {
    const spec = doc.spec;
    if (!isObject(spec)) issue('schema', '/spec', 'spec must be an object');
    else if (!isObject(spec.role)) issue('schema', '/spec', 'spec.role is required');
    else if (typeof spec.role.instructions !== 'string' || spec.role.instructions.length === 0) {
      issue('schema', '/spec/role/instructions', 'spec.role.instructions is required');
    }
  }
  return errors.length ? { errors } : { profile: doc as Profile, errors };
}
