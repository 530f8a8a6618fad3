// Where the browser tests find Chromium: $CHROMIUM_PATH when set (an empty value means "none", to try a run
// without it), else the first `chromium` or `chromium-browser` on PATH (Debian's package puts it in /usr/bin).
// No vitest import: vitest.config.ts uses it to leave the browser files out when Chromium is missing.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser'];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The Chromium executable, or null when there is none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CHROMIUM_PATH !== undefined) {
    const given = env.CHROMIUM_PATH.trim();
    return given && executable(given) ? given : null;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of NAMES) {
      const file = join(dir, name);
      if (executable(file)) return file;
    }
  }
  return null;
}

/** How to get it, for messages. */
export const CHROMIUM_HINT = 'apt-get install -y chromium, or set CHROMIUM_PATH';
