import { execFileSync } from 'node:child_process';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (scripts/setup.sh installs it): `$CHROMIUM`, else the first on PATH. */
function findChromium(): string {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {}
  }
  throw new Error('viewer test: no chromium on PATH (apt-get install chromium, or set CHROMIUM).');
}

/**
 * Headless chromium with WebGL through SwiftShader (no GPU), no network beyond what the page asks
 * of localhost; `extraArgs` after the defaults.
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: [
      '--use-gl=angle',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--no-sandbox',
      ...extraArgs,
    ],
  });
}
