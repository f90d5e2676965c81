import type { EffectiveContractT } from '../../protocol/messages.js';
import type { ContractPrediction } from '../../spec/semantics/index.js';

/**
 * The answer a prediction allows at its most permissive, read off value by value (each MCP server
 * at the last, widest launch it allows): the effective contract a correct harness may report.
 */
export function mostPermissive(p: ContractPrediction): EffectiveContractT {
  const value = <T>(r: Record<string, { value: T }>): Record<string, T> =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.value]));
  return {
    tools: p.tools.value,
    permissions: value(p.permissions) as EffectiveContractT['permissions'],
    rules: p.rules.value,
    filesystem: {
      read_roots: p.filesystem.read_roots.value,
      write_roots: p.filesystem.write_roots.value,
      deny_paths: p.filesystem.deny_paths,
    },
    hosts: p.hosts.value,
    memory: {
      mode: p.memory.mode.value,
      scopes: p.memory.scopes.value,
      stores: p.memory.stores.map(({ name, kind, mode }) => ({ name, kind, mode })),
    },
    budgets: value(p.budgets) as EffectiveContractT['budgets'],
    model: { ...p.model.models[0]!, rule: p.model.rule },
    mcp_servers: p.mcp_servers.map((s) => ({ name: s.name, transport: s.transport, launch: s.launch.at(-1)!, tools: s.tools })),
    skills: p.skills.map(({ name, status }) => ({ name, status })),
    subagents: { allow: p.subagents.allow, max_depth: p.subagents.max_depth.value, max_concurrent: p.subagents.max_concurrent.value },
    writeback: p.writeback.value,
  };
}
