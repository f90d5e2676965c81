/**
 * Adapters shipped in the package, addressed as `builtin:NAME`:
 *   builtin:reference            the reference implementation (harnesses/reference)
 *   builtin:mutant/<name>        the reference with one rule replaced by a deliberate defect (harnesses/mutants)
 *   builtin:hider/<name>         the reference behind a quirk that hides evidence (harnesses/hiders)
 *   builtin:example/ts           the TypeScript example harness (harnesses/examples/ts)
 *   builtin:chaos/<fault>[?…]    the chaos adapter (process only; see harnesses/chaos)
 * In-process builtins are plain factories; the chaos adapter drives stdio itself, so it only runs
 * as a process (through harnesses/host.ts).
 */
import type { InProcessAdapter } from '../sdk/ts/types.js';
import type { Mutant } from './mutants/index.js';

// Each builtin's modules are loaded when it is asked for: an adapter process (harnesses/host.ts)
// serving builtin:chaos/hang has no use for the reference harness and its parsers, nor the
// reference for the hiders, the chaos adapter and the example.

export type BuiltinAdapter =
  | { name: string; mode: 'in-process'; create(): Promise<InProcessAdapter> }
  | { name: string; mode: 'process-only'; serve(): Promise<void> };

export type MutantInfo = Pick<Mutant, 'name' | 'breaks' | 'description' | 'awaiting'>;

export class UnknownBuiltin extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownBuiltin';
  }
}

export async function loadMutants(): Promise<readonly MutantInfo[]> {
  return (await import('./mutants/index.js')).MUTANTS;
}

/** The chaos adapter's faults (`builtin:chaos/<fault>`), each with what it does. */
export async function chaosFaults(): Promise<{ name: string; description: string }[]> {
  const { CHAOS_FAULTS } = await import('./chaos/index.js');
  return Object.entries(CHAOS_FAULTS).map(([name, description]) => ({ name, description }));
}

/** Resolve `NAME` of `builtin:NAME`. Throws UnknownBuiltin with a one-line reason. */
export async function resolveBuiltin(name: string): Promise<BuiltinAdapter> {
  if (name === 'reference') {
    const { createReferenceAdapter } = await import('./reference/index.js');
    return { name, mode: 'in-process', create: async () => createReferenceAdapter() };
  }
  if (name.startsWith('mutant/')) {
    const mutant = name.slice('mutant/'.length);
    const { createMutantAdapter, MUTANTS } = await import('./mutants/index.js');
    if (!MUTANTS.some((m) => m.name === mutant)) {
      throw new UnknownBuiltin(`unknown mutant ${mutant}; see \`oap-conform list mutants\``);
    }
    return { name, mode: 'in-process', create: async () => createMutantAdapter(mutant) };
  }
  if (name.startsWith('hider/')) {
    const hider = name.slice('hider/'.length);
    const { createHiderAdapter, HIDERS } = await import('./hiders/index.js');
    if (!(HIDERS as readonly string[]).includes(hider)) throw new UnknownBuiltin(`unknown hider ${hider}; known: ${HIDERS.join(', ')}`);
    return { name, mode: 'in-process', create: async () => createHiderAdapter(hider) };
  }
  if (name === 'example/ts') {
    const { default: createExampleAdapter } = await import('./examples/ts/example-adapter.js');
    return { name, mode: 'in-process', create: async () => createExampleAdapter() };
  }
  if (name.startsWith('chaos/')) {
    const { parseChaosSpec, serveChaos } = await import('./chaos/index.js');
    let parsed: ReturnType<typeof parseChaosSpec>;
    try {
      parsed = parseChaosSpec(name.slice('chaos/'.length));
    } catch (err) {
      throw new UnknownBuiltin((err as Error).message);
    }
    return { name, mode: 'process-only', serve: () => serveChaos(parsed.fault, parsed.options) };
  }
  throw new UnknownBuiltin(`unknown builtin adapter ${name}; known: reference, mutant/<name>, hider/<name>, example/ts, chaos/<fault>`);
}
