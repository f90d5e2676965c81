#!/usr/bin/env node
// Thin launcher: the CLI is compiled from TypeScript into dist/ by `npm run build` (run by `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/runner/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('oap-conform: not built; run `npm install` or `npm run build` first\n');
  process.exit(2);
}
await import(entry.href);
