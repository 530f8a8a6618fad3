// `npm run bench -- websites`: how fast the website checks read pages, and what a worker checking 1,000
// sites holds in memory. The sites are a local HTTP server serving the fixture sites of test/fixtures/websites
// under 1,000 host names (site-N.test, resolved to 127.0.0.1 by an injected resolver, as in the tests), so every
// site has its own host and the per-host gate never waits. Each check is what a job does: robots.txt, the home
// page and up to 3 linked pages, detection on each. Options: --sites=1000 --concurrency=4,16 --write (the
// "Websites" section of docs/PERFORMANCE.md).
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { detectPage } from '../src/core/websites/detect';
import { checkWebsite, HostGate, type CheckOptions } from '../src/server/websites/checker';
import { DEFAULT_FETCH_LIMITS } from '../src/server/websites/fetcher';
import type { Resolver } from '../src/server/websites/address';
import { addHostileRoutes, FIXTURE_DIR, startSiteServer } from '../test/helpers/websites';
import { arg, writeSection } from './util';

const MB = 1024 * 1024;
const mb = (n: number) => (n / MB).toFixed(0);

export default async function websites(args: string[]): Promise<void> {
  const sites = arg(args, 'sites', 1000);
  const hit = args.find((a) => a.startsWith('--concurrency='));
  const levels = hit ? hit.split('=')[1]!.split(',').map(Number) : [4, 16];
  const fixtures = readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith('.html'))
    .map((f) => f.replace(/\.html$/, ''))
    .sort();

  // Detection alone: every fixture page, many times.
  const pages = fixtures.map((f) => readFileSync(new URL(`${f}.html`, FIXTURE_DIR), 'utf8'));
  const now = new Date();
  const rounds = 200;
  let t0 = performance.now();
  for (let i = 0; i < rounds; i++) for (const p of pages) detectPage(p, 'https://bench.example/', now);
  const detectMs = (performance.now() - t0) / (rounds * pages.length);

  const server = await startSiteServer();
  addHostileRoutes(server);
  const resolve: Resolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  const opts: CheckOptions = {
    userAgent: 'ProspectFinderBot-bench/1.0',
    allowLoopback: true,
    ...DEFAULT_FETCH_LIMITS,
    extraPages: 3,
    resolve,
  };
  const lines: string[] = [];
  try {
    // The fixture sites at each level, then hostile ones: a body that never ends (cut at the 2 MB cap).
    const runs = [
      ...levels.map((concurrency) => ({
        concurrency,
        count: sites,
        path: (i: number) => `/sites/${fixtures[i % fixtures.length]!}/`,
        kind: 'fixture sites',
      })),
      { concurrency: 16, count: Math.min(200, sites), path: () => '/endless', kind: 'endless bodies' },
    ];
    for (const { concurrency, count, path, kind } of runs) {
      global.gc?.();
      const before = process.memoryUsage();
      let peakRss = before.rss;
      let peakHeap = before.heapUsed;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peakRss = Math.max(peakRss, m.rss);
        peakHeap = Math.max(peakHeap, m.heapUsed);
      }, 20);
      const gate = new HostGate(0);
      const startRequests = server.requests.length;
      let next = 0;
      let checked = 0;
      let signals = 0;
      t0 = performance.now();
      const worker = async () => {
        for (;;) {
          const i = next++;
          if (i >= count) return;
          const e = await checkWebsite(`http://site-${i}.test:${server.port}${path(i)}`, opts, gate);
          if (e.status === 'checked') checked++;
          signals += e.signals.length;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      const requests = server.requests.length - startRequests;
      // The request log of the fixture server is the bench's, not the worker's: cleared between runs.
      server.requests.length = 0;
      const after = process.memoryUsage();
      lines.push(
        `| ${kind} | ${concurrency} | ${count} | ${checked} | ${requests} | ${seconds.toFixed(1)} s | ${(requests / seconds).toFixed(0)} | ${(count / seconds).toFixed(0)} | ${mb(peakRss)} MB (${mb(before.rss)} before, ${mb(after.rss)} after) | ${mb(peakHeap)} MB | ${signals} |`,
      );
      console.log(lines.at(-1));
    }
  } finally {
    await server.close();
  }

  const section = `## Websites: checking sites

\`npm run bench -- websites --write\` (\`bench/websites.bench.ts\`; options \`--sites=1000 --concurrency=4,16\`;
without \`--write\` it only prints): ${sites} sites on their own host names, served from one local HTTP server by the
fixture sites of \`test/fixtures/websites\` in turn; each check is a job's work (robots.txt, the home page, up to 3
linked pages, detection) through the per-host gate, the SSRF guard and the size cap, without the database.
Pages are every HTTP request the checks made (robots.txt and 404s included). Memory is the process's (the fixture
server runs in it too), sampled every 20 ms. The last row is hostile: each site's robots.txt is missing and its
home page never ends; every check is cut at the 2 MB cap (could not check), so memory stays bounded.

| sites | checks at once | sites | read | pages | time | pages/s | sites/s | RSS peak | heap peak | signals |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lines.join('\n')}

Detection alone: ${detectMs.toFixed(2)} ms a page (the fixture pages, ${pages.length} of them, ${rounds} rounds).
Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.

In production the pace is set by the sites and by politeness, not by this: one request at a time per host with
WEBSITE_CHECK_HOST_PAUSE_MS (1 s) between them, so a site of 5 pages takes about 5 s plus its answers, and
WEBSITE_CHECK_CONCURRENCY (4) sites at once per instance. Memory per check is bounded by the 2 MB page cap (the
body is held once as bytes and once as text while detected).
`;
  console.log(`\nDetection alone: ${detectMs.toFixed(2)} ms a page`);
  if (args.includes('--write')) await writeSection(section, '## Websites: checking sites');
}
