// `npm run bench` runs every bench/*.bench.ts in turn; `npm run bench -- core` runs bench/core.bench.ts only.
// Each bench file exports `default async function (args: string[]): Promise<void>` that prints its figures.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const [only, ...rest] = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !only || f === `${only}.bench.ts`)
  .sort();

if (files.length === 0) {
  console.error(
    only ? `No benchmark named "${only}" (looked for bench/${only}.bench.ts)` : 'No benchmarks found',
  );
  process.exit(1);
}

for (const file of files) {
  console.log(`\n=== ${file.replace('.bench.ts', '')} ===`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as {
    default: (args: string[]) => Promise<void>;
  };
  await mod.default(rest);
}
