import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium, which .ci/run installs; tests that need it say why they skip without it (never in CI). */
const CHROMIUM = '/usr/bin/chromium';

export function chromiumSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  return process.env.CI === 'true' ? undefined : `${CHROMIUM} is not installed (apt-get install -y chromium)`;
}

/** A headless Chromium with no network chatter of its own; close the context when done. */
export async function launchChromium(opts: { javaScriptEnabled?: boolean } = {}): Promise<{ context: BrowserContext; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'oap-chromium-'));
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return { context, dir };
}
