// `npm run bench -- lighthouse [--runs=3] [--results=20] [--only=sign-in|main] [--keep]`
// Lighthouse 12 (mobile preset: Moto G Power viewport, simulated slow 4G and 4x CPU slowdown) against the built
// web app served by the real server, in Debian's Chromium: the sign-in screen (signed out) and the main screen
// (signed in through a session Cookie, with the rep's latest scan of 20 demo businesses restored on the list and
// the map). Each screen is measured `--runs` times and the median is reported: scores move by up to ±10 between
// runs on a shared machine. Writes docs/PERFORMANCE.md's "Web: Lighthouse" section.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ensureWebBuilt, firstAccount, startServer } from '../test/browser/harness.js';
import { arg, writeSection } from './places.bench.js';

const run$ = promisify(execFile);
const LIGHTHOUSE = resolve('node_modules/.bin/lighthouse');
const CHROMIUM = '/usr/bin/chromium';
/** `--keep` leaves each run's full Lighthouse report (JSON) here. */
const KEEP_DIR = resolve('test-results/lighthouse');
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
].join(' ');

interface Measure {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  /** KB over the wire, all requests. */
  transfer: number;
}

interface LighthouseResult {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: { items?: { transferSize?: number }[] } }>;
}

async function lighthouse(url: string, headersFile?: string, keepAs?: string): Promise<Measure> {
  const { stdout } = await run$(
    LIGHTHOUSE,
    [
      url,
      `--chrome-flags=${CHROME_FLAGS}`,
      '--only-categories=performance,accessibility',
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      ...(headersFile ? [`--extra-headers=${headersFile}`] : []),
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 256 * 1024 * 1024 },
  );
  if (keepAs) {
    mkdirSync(dirname(keepAs), { recursive: true });
    writeFileSync(keepAs, stdout);
  }
  const lhr = JSON.parse(stdout) as LighthouseResult;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (c: string) => Math.round((lhr.categories[c]?.score ?? NaN) * 100);
  const value = (a: string) => lhr.audits[a]?.numericValue ?? NaN;
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    si: value('speed-index'),
    transfer: requests.reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/** One grey 256 px map tile for every tile request, so the map draws as it would with a tile service. */
function tileServer(): Promise<{ url: string; server: Server }> {
  const png = readFileSync(resolve('src/web/public/icon-192.png'));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=86400' });
    res.end(png);
  });
  return new Promise((done) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      done({ url: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`, server });
    });
  });
}

export default async function run(args: string[]): Promise<void> {
  const runs = arg(args, 'runs', 3);
  const keep = args.includes('--keep');
  const results = arg(args, 'results', 20);
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  ensureWebBuilt();
  const tiles = await tileServer();
  const server = await startServer({ TILE_URL: tiles.url, TILE_ATTRIBUTION: '&copy; Bench Tiles' });
  const work = mkdtempSync(join(tmpdir(), 'pf-bench-lighthouse-'));
  try {
    const rep = await firstAccount(server, {
      name: 'Bench Rep',
      email: 'bench-rep@example.com',
      password: 'bench-password-1',
    });
    // The screen a rep opens every day: no welcome dialog or install prompt, yesterday's list restored.
    const patch = await rep.call('PATCH', '/api/me', {
      hideInstructions: true,
      installPromptDismissed: true,
    });
    if (!patch.ok) throw new Error(`profile update failed: ${patch.status}`);
    if (results > 0) {
      const scan = await rep.call('POST', '/api/scans', {
        lat: 33.5186,
        lng: -86.8104,
        radiusMiles: 2,
        count: results,
        locationLabel: 'Birmingham, AL',
      });
      if (!scan.ok) throw new Error(`scan failed: ${scan.status} ${await scan.text()}`);
    }
    const headersFile = join(work, 'headers.json');
    writeFileSync(headersFile, JSON.stringify({ Cookie: rep.cookie }));

    const screens = [
      { name: 'Sign-in screen', slug: 'sign-in', headers: undefined },
      { name: `Main screen (signed in, ${results} results)`, slug: 'main', headers: headersFile },
    ].filter((s) => !only || s.slug === only);
    const rows: string[] = [];
    for (const screen of screens) {
      const measures: Measure[] = [];
      for (let i = 0; i < runs; i++) {
        const keepAs = keep ? join(KEEP_DIR, `${screen.slug}-${i + 1}.json`) : undefined;
        const m = await lighthouse(`${server.baseUrl}/`, screen.headers, keepAs);
        measures.push(m);
        console.log(
          `${screen.name} run ${i + 1}: performance ${m.performance}, accessibility ${m.accessibility}, ` +
            `LCP ${(m.lcp / 1000).toFixed(2)} s, TBT ${Math.round(m.tbt)} ms, ${m.transfer.toFixed(0)} KB`,
        );
      }
      const med = (k: keyof Measure) => median(measures.map((m) => m[k]));
      const line =
        `| ${screen.name} | **${med('performance')}** (${measures.map((m) => m.performance).join(', ')}) | ` +
        `**${med('accessibility')}** | ${(med('fcp') / 1000).toFixed(1)} s | ${(med('lcp') / 1000).toFixed(1)} s | ` +
        `${Math.round(med('tbt'))} ms | ${med('cls').toFixed(3)} | ${(med('si') / 1000).toFixed(1)} s | ` +
        `${med('transfer').toFixed(0)} KB |`;
      console.log(line);
      rows.push(line);
    }

    const section = [
      '## Web: Lighthouse',
      '',
      '`npm run bench -- lighthouse` (`--runs=3 --results=20`, `--only=sign-in|main`, `--keep`): Lighthouse 12, mobile preset',
      `(412×823, slow 4G, 4× CPU), Debian Chromium, the built app on the real server; the main screen signed in with ${results} demo`,
      `results restored and local map tiles. Median of ${runs} runs (each in brackets); ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}, shared.`,
      '',
      '| screen | performance | accessibility | FCP | LCP | TBT | CLS | Speed Index | transferred |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
      'What keeps these figures: precompressed, hashed files cached a year; only the Mantine CSS in use; each screen,',
      'tab, modal and the map in their own chunks, no zod on the first screen; a shell painted before any script; cards',
      "rendered a few per step (without them: 53 and 31); on a phone the map made only when scrolled to (Leaflet's",
      "set-up was the longest task: 78-81 with it); the browser's zone read once a minute (an Intl formatter per render",
      "cost up to 70 ms); Mantine's useId built from React's (its own rendered every input twice on mount: 86 with it).",
      'What remains is React mounting the controls and cards; it moves with the load (the runs above).',
      '',
    ].join('\n');
    await writeSection(section, '## Web: Lighthouse');
  } finally {
    await server.close();
    await new Promise((done) => tiles.server.close(done));
    rmSync(work, { recursive: true, force: true });
  }
}
