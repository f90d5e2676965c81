/** Shared fixtures for the reference-harness tests: a fresh workspace, an RPC, profile helpers. */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { PROTOCOL_VERSION, type HarnessPolicyT, type Result } from '../../protocol/messages.js';
import { createReferenceAdapter } from '../../harnesses/reference/index.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { InProcessRpc } from '../../runner/engine/in-process-rpc.js';
import { minimalProfile, permissivePolicy } from '../../suites/support/index.js';
import { Workspace } from '../../suites/kit/workspace.js';

export { minimalProfile, permissivePolicy };

export interface Harness {
  rpc: InProcessRpc;
  ws: Workspace;
  /** Write a profile into a root (default: project, `<ws>/.agents/`). Returns its path. */
  put(
    doc: Record<string, unknown>,
    opts?: { root?: 'managed' | 'user' | 'project' | 'plugin'; file?: string; encoding?: 'yaml' | 'json' | 'md' },
  ): string;
  instantiate(selector: { name: string } | { path: string }, policy?: HarnessPolicyT, now?: string): Promise<Result<'instantiate'>>;
  instantiateOk(
    selector: { name: string } | { path: string },
    policy?: HarnessPolicyT,
  ): Promise<Extract<Result<'instantiate'>, { status: 'instantiated' }>>;
  read(path: string): Record<string, unknown>;
  close(): void;
}

export async function harness(adapter: InProcessAdapter = createReferenceAdapter()): Promise<Harness> {
  const rpc = new InProcessRpc(adapter);
  await rpc.call('initialize', { protocol_versions: [PROTOCOL_VERSION], runner: { name: 'test', version: '0' } });
  const ws = new Workspace();
  const roots = ws.roots;
  const h: Harness = {
    rpc,
    ws,
    put(doc, opts = {}) {
      const root = opts.root ?? 'project';
      const dir = root === 'project' ? ws.projectAgents : root === 'plugin' ? roots.plugin[0]! : roots[root];
      const encoding = opts.encoding ?? 'yaml';
      const name = (doc['metadata'] as { name: string }).name;
      return ws.writeDocument(dir, opts.file ?? `${name}.agent.${encoding}`, doc, encoding);
    },
    instantiate(selector, policy = permissivePolicy(), now) {
      return rpc.call('instantiate', { workspace: ws.dir, roots, profile: selector, policy, ...(now ? { now } : {}) });
    },
    async instantiateOk(selector, policy) {
      const r = await h.instantiate(selector, policy);
      if (r.status !== 'instantiated') throw new Error(`expected instantiated, got ${JSON.stringify(r.errors)}`);
      return r;
    },
    read(path) {
      const text = readFileSync(path, 'utf8');
      return (path.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Record<string, unknown>;
    },
    close() {
      ws.remove();
    },
  };
  return h;
}

export function sectionText(
  prompt: { text: string; sections: Array<{ kind: string; start: number; end: number }> },
  kind: string,
): string | undefined {
  const s = prompt.sections.find((x) => x.kind === kind);
  if (!s) return undefined;
  return Buffer.from(prompt.text, 'utf8').subarray(s.start, s.end).toString('utf8');
}
