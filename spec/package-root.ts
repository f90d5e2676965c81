import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Source runs from <root>/runner/... under vitest and from <root>/dist/runner/... when built,
// so non-TypeScript assets (schemas, fixtures) are found by walking up to our package.json.
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'oap-conform') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('oap-conform: package root not found');
    dir = parent;
  }
}

export const packageRoot: string = findRoot();

export function fromRoot(...segments: string[]): string {
  return join(packageRoot, ...segments);
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
