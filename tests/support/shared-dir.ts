/**
 * vitest's global setup: one temporary directory for the whole `vitest run`, handed to the test
 * files (inject('sharedDir')) and removed when the run ends. It holds what several test files read
 * but none writes (./reference-run.ts); a worker process is stopped without running its exit
 * handlers, so only the global teardown can remove it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'oap-test-shared-'));
  project.provide('sharedDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
