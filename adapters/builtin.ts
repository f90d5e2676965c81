/**
 * Adapters shipped in the package, addressed as `builtin:NAME`:
 *   builtin:reference            the reference implementation (adapters/reference)
 *   builtin:mutant/<name>        a reference adapter with one deliberate defect
 *   builtin:example/ts           the TypeScript example harness (adapters/examples/ts)
 *   builtin:chaos/<fault>[?…]    the chaos adapter (process only; see adapters/chaos)
 * In-process builtins are plain factories; the chaos adapter drives stdio itself, so it only runs
 * as a process (through adapters/host.ts).
 */
import type { InProcessAdapter } from './sdk/ts/types.js';
import { parseChaosSpec, serveChaos } from './chaos/index.js';
import { createExampleAdapter } from './examples/ts/example-adapter.js';

export type BuiltinAdapter =
  | { name: string; mode: 'in-process'; create(): Promise<InProcessAdapter> }
  | { name: string; mode: 'process-only'; serve(): Promise<void> };

/** The shapes we rely on from adapters/reference (written separately; imported lazily). */
interface ReferenceModule {
  createReferenceAdapter(opts?: { quirks?: ReadonlySet<string> }): InProcessAdapter;
}
export interface MutantInfo {
  name: string;
  breaks: string[];
  description: string;
}
interface MutantsModule {
  MUTANTS: MutantInfo[];
  createMutantAdapter(name: string): InProcessAdapter;
}

// Specifiers in variables: the reference adapter is loaded only when asked for, so the runner
// (and every other builtin) works even where it is absent or broken.
const REFERENCE_MODULE = './reference/index.js';
const MUTANTS_MODULE = './reference/mutants.js';

export class UnknownBuiltin extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownBuiltin';
  }
}

async function importOrExplain<T>(specifier: string, what: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (err) {
    throw new UnknownBuiltin(`${what} is not available in this build: ${(err as Error).message.split('\n')[0]}`);
  }
}

export async function loadMutants(): Promise<MutantInfo[]> {
  const mod = await importOrExplain<MutantsModule>(MUTANTS_MODULE, 'the mutant catalogue');
  return mod.MUTANTS;
}

/** Resolve `NAME` of `builtin:NAME`. Throws UnknownBuiltin with a one-line reason. */
export async function resolveBuiltin(name: string): Promise<BuiltinAdapter> {
  if (name === 'reference') {
    const mod = await importOrExplain<ReferenceModule>(REFERENCE_MODULE, 'builtin:reference');
    return { name, mode: 'in-process', create: async () => mod.createReferenceAdapter() };
  }
  if (name.startsWith('mutant/')) {
    const mutant = name.slice('mutant/'.length);
    const mod = await importOrExplain<MutantsModule>(MUTANTS_MODULE, 'builtin:mutant');
    if (!mod.MUTANTS.some((m) => m.name === mutant)) {
      throw new UnknownBuiltin(`unknown mutant ${mutant}; see \`oap-conform list mutants\``);
    }
    return { name, mode: 'in-process', create: async () => mod.createMutantAdapter(mutant) };
  }
  if (name === 'example/ts') return { name, mode: 'in-process', create: async () => createExampleAdapter() };
  if (name.startsWith('chaos/')) {
    let parsed: ReturnType<typeof parseChaosSpec>;
    try {
      parsed = parseChaosSpec(name.slice('chaos/'.length));
    } catch (err) {
      throw new UnknownBuiltin((err as Error).message);
    }
    return { name, mode: 'process-only', serve: () => serveChaos(parsed.fault, parsed.options) };
  }
  throw new UnknownBuiltin(`unknown builtin adapter ${name}; known: reference, mutant/<name>, example/ts, chaos/<fault>`);
}
