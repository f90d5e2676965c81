import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { HeaviestFirst } from './tests/support/heaviest-first.js';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // One temporary directory per run for what several files share (tests/support/reference-run.ts).
    globalSetup: ['tests/support/shared-dir.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker per CPU less one: a single worker on a 2-core machine, while
    // most test files spend their time waiting on the processes they spawn. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Test files share their worker's module cache instead of re-importing (and re-transforming)
    // the suite for every file: half the CPU of `npm test`. Files restore what they change
    // (process.env, spawned processes) in their own hooks.
    isolate: false,
    // The longest files first, also on a clean clone (tests/support/heaviest-first.ts).
    sequence: { sequencer: HeaviestFirst },
  },
});
