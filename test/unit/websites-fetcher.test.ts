// The website checks' safe fetcher and polite checker against local HTTP servers: every SSRF case, the
// hostile pages, one request at a time per host, robots.txt. No internet: DNS names are resolved by an
// injected resolver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedAddress, type Resolver } from '../../src/server/websites/address.js';
import { safeFetch, type FetchOptions } from '../../src/server/websites/fetcher.js';
import {
  checkWebsite,
  HostGate,
  type CheckOptions,
  type RequestGate,
} from '../../src/server/websites/checker.js';
import { addHostileRoutes, startSiteServer, type SiteServer } from '../helpers/websites.js';

const UA = 'prospect-finder-test/1.0 (+https://example.invalid/bot)';
const base: FetchOptions = {
  userAgent: UA,
  allowLoopback: true,
  timeoutMs: 2_000,
  maxBytes: 200_000,
  maxRedirects: 5,
};
const check: CheckOptions = { ...base, extraPages: 3 };
/** Resolves *.test names to loopback, like a hostile DNS record would. */
const toLoopback: Resolver = (host) =>
  Promise.resolve(
    host.endsWith('.test')
      ? [{ address: '127.0.0.1', family: 4 }]
      : Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })),
  );

let s: SiteServer;
beforeAll(async () => {
  s = await startSiteServer();
  addHostileRoutes(s);
});
afterAll(() => s.close());

describe('address guard', () => {
  it.each([
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '127.0.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '224.0.0.1',
    '255.255.255.255',
  ])('refuses %s', (address) => {
    expect(refusedAddress(address, false)).not.toBeNull();
  });
  it('allows public addresses, and loopback only with the test allowance', () => {
    expect(refusedAddress('93.184.216.34', false)).toBeNull();
    expect(refusedAddress('2606:4700::1111', false)).toBeNull();
    expect(refusedAddress('127.0.0.1', true)).toBeNull();
    expect(refusedAddress('::1', true)).toBeNull();
    expect(refusedAddress('10.0.0.1', true)).not.toBeNull();
    expect(refusedAddress('169.254.169.254', true)).not.toBeNull();
  });
  // Each IPv6 form that carries an IPv4 address: refused when the IPv4 address is not public (even loopback
  // with the test allowance), allowed when it is.
  it.each([
    ['IPv4-compatible', '::7f00:1', '::a9fe:a9fe', '::808:808'],
    ['IPv4-compatible, dotted', '::127.0.0.1', '::10.0.0.1', '::8.8.8.8'],
    ['IPv4-mapped', '::ffff:7f00:1', '::ffff:192.168.1.1', '::ffff:8.8.8.8'],
    ['SIIT', '::ffff:0:7f00:1', '::ffff:0:a00:1', '::ffff:0:808:808'],
    ['NAT64', '64:ff9b::7f00:1', '64:ff9b::169.254.169.254', '64:ff9b::8.8.8.8'],
    ['6to4', '2002:7f00:1::1', '2002:a9fe:a9fe::', '2002:808:808::1'],
    // Teredo: the client 127.0.0.1 is 80ff:fffe inverted, 10.0.0.1 is f5ff:fffe; 8.8.8.8 is f7f7:f7f7.
    [
      'Teredo',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:0:4136:e378::f5ff:fffe',
      '2001:0:4136:e378::f7f7:f7f7',
    ],
  ])('%s: refused unless the IPv4 address it carries is public', (_form, loopback, inside, outside) => {
    expect(refusedAddress(loopback, false)).not.toBeNull();
    expect(refusedAddress(loopback, true)).not.toBeNull();
    expect(refusedAddress(inside, false)).not.toBeNull();
    expect(refusedAddress(outside, false)).toBeNull();
  });
  it('Teredo: a private Teredo server is refused too', () => {
    expect(refusedAddress('2001:0:a00:1::f7f7:f7f7', false)).not.toBeNull();
  });
  it("refuses the local-use NAT64 prefix whole (where it carries the IPv4 address is the network's choice)", () => {
    expect(refusedAddress('64:ff9b:1::a00:1', false)).not.toBeNull();
    expect(refusedAddress('64:ff9b:1:808:8:800::', false)).not.toBeNull();
  });
});

describe('safeFetch: SSRF', () => {
  const off = { ...base, allowLoopback: false };
  it('refuses loopback (IPv4 and IPv6) without the allowance, before connecting', async () => {
    const before = s.requests.length;
    const v4 = await safeFetch(`${s.origin}/sites/google-ads/`, off);
    const v6 = await safeFetch(`http://[::1]:${s.port}/sites/google-ads/`, off);
    expect(v4).toMatchObject({ ok: false, failure: 'refused' });
    expect(v6).toMatchObject({ ok: false, failure: 'refused' });
    expect(s.requests.length).toBe(before);
  });
  it('refuses a DNS name that resolves to 127.0.0.1 with the allowance off', async () => {
    const before = s.requests.length;
    const r = await safeFetch(`http://rebind.test:${s.port}/sites/google-ads/`, {
      ...off,
      resolve: toLoopback,
    });
    expect(r).toMatchObject({ ok: false, failure: 'refused' });
    expect(r.ok ? '' : r.reason).toContain('127.0.0.1');
    expect(s.requests.length).toBe(before);
  });
  it('refuses private, metadata and numeric-form addresses given directly', async () => {
    for (const url of [
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::10.0.0.1]/',
      'http://[2002:a9fe:a9fe::]/',
    ]) {
      expect(await safeFetch(url, off), url).toMatchObject({ ok: false, failure: 'refused' });
    }
  });
  it('refuses a redirect to a private or metadata address', async () => {
    expect(await safeFetch(`${s.origin}/to-private`, base)).toMatchObject({
      ok: false,
      failure: 'refused',
      url: 'http://10.0.0.7/admin',
    });
    expect(await safeFetch(`${s.origin}/to-metadata`, base)).toMatchObject({ ok: false, failure: 'refused' });
  });
  it('only http and https', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/',
      'gopher://x/',
      'http://user:pw@example.com/',
    ])
      expect(await safeFetch(url, base)).toMatchObject({ ok: false, failure: 'bad_url' });
  });
});

describe('safeFetch: hostile pages end in bounded time with a reason', () => {
  it('endless redirects', async () => {
    const r = await safeFetch(`${s.origin}/loop`, base);
    expect(r).toMatchObject({ ok: false, failure: 'too_many_redirects' });
  });
  it('an endless body is cut at the cap', async () => {
    const r = await safeFetch(`${s.origin}/endless`, base);
    expect(r).toMatchObject({ ok: false, failure: 'too_large' });
  });
  it('a slow drip hits the deadline', async () => {
    const r = await safeFetch(`${s.origin}/drip`, { ...base, timeoutMs: 800 });
    expect(r).toMatchObject({ ok: false, failure: 'timeout' });
  });
  it('broken encoding is decoded with replacement characters', async () => {
    const r = await safeFetch(`${s.origin}/broken`, base);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.body).toContain('\uFFFD');
  });
  it('not HTML, and HTTP errors', async () => {
    expect(await safeFetch(`${s.origin}/image`, base)).toMatchObject({ ok: false, failure: 'not_html' });
    expect(await safeFetch(`${s.origin}/fail`, base)).toMatchObject({
      ok: false,
      failure: 'http_error',
      status: 500,
    });
  });
  it('sends the identifying User-Agent', async () => {
    await safeFetch(`${s.origin}/sites/video/`, base);
    expect(s.requests.at(-1)).toMatchObject({ path: '/sites/video/', userAgent: UA });
  });
});

describe('checkWebsite', () => {
  const gate = () => new HostGate(0);
  it('reads a site and its linked pages, and finds the signals', async () => {
    const ev = await checkWebsite(`${s.origin}/sites/google-ads/`, check, gate());
    expect(ev.status).toBe('checked');
    expect(ev.signals.map((x) => x.kind)).toContain('google_ads');
    expect(ev.signals.find((x) => x.kind === 'google_ads')?.url).toBe(`${s.origin}/sites/google-ads/`);
  });
  it('hostile sites: could not check (with a reason) or a dead site, never a throw', async () => {
    expect(await checkWebsite(`${s.origin}/loop`, check, gate())).toMatchObject({
      status: 'failed',
      reason: 'more than 5 redirects',
    });
    expect(await checkWebsite(`${s.origin}/endless`, check, gate())).toMatchObject({ status: 'failed' });
    expect(await checkWebsite(`${s.origin}/drip`, { ...check, timeoutMs: 800 }, gate())).toMatchObject({
      status: 'failed',
    });
    const broken = await checkWebsite(`${s.origin}/broken`, check, gate());
    expect(broken.status).toBe('checked');
    expect(broken.signals.map((x) => x.kind)).toContain('call_tracking');
    const scriptOnly = await checkWebsite(`${s.origin}/sites/script-only/`, check, gate());
    expect(scriptOnly).toMatchObject({ status: 'checked' });
    expect(scriptOnly.signals.filter((x) => x.kind !== 'no_https')).toEqual([]);
    const dead = await checkWebsite(`${s.origin}/fail`, check, gate());
    expect(dead).toMatchObject({ status: 'unreachable' });
    expect(dead.signals.map((x) => x.label)).toEqual(['Website unreachable']);
    // A port nobody listens on: connection refused, a dead site.
    const closed = await startSiteServer();
    const port = closed.port;
    await closed.close();
    expect(await checkWebsite(`http://127.0.0.1:${port}/`, check, gate())).toMatchObject({
      status: 'unreachable',
    });
    // A name that does not resolve (or no network at all): could not check, no signal.
    const nx = await checkWebsite('http://no-such-host.invalid/', { ...check, resolve: toLoopback }, gate());
    expect(nx).toMatchObject({ status: 'failed', signals: [] });
  });
  it('honours robots.txt for its User-Agent', async () => {
    const host = `robots.test:${s.port}`;
    s.robots.set(host, `User-agent: prospect-finder-test\nDisallow: /\n\nUser-agent: *\nAllow: /\n`);
    const before = s.requests.filter((r) => r.host === host).length;
    const ev = await checkWebsite(
      `http://${host}/sites/meta-pixel/`,
      { ...check, resolve: toLoopback },
      gate(),
    );
    expect(ev).toMatchObject({ status: 'failed', reason: 'robots.txt disallows checking this site' });
    const asked = s.requests
      .filter((r) => r.host === host)
      .slice(before)
      .map((r) => r.path);
    expect(asked).toEqual(['/robots.txt']);
    // Another agent would be allowed: the rule is read for ours.
    s.robots.set(host, `User-agent: someone-else\nDisallow: /\n`);
    const ok = await checkWebsite(
      `http://${host}/sites/meta-pixel/`,
      { ...check, resolve: toLoopback },
      gate(),
    );
    expect(ok.status).toBe('checked');
  });
  it("a redirect to another origin obeys that origin's robots.txt and goes through that host's gate", async () => {
    const first = `first.test:${s.port}`;
    const second = `second.test:${s.port}`;
    s.routes.set('/to-second', (_req, res) =>
      res.writeHead(301, { location: `http://${second}/sites/google-ads/` }).end(),
    );
    // The first origin allows everything; the second disallows our agent.
    s.robots.set(first, 'User-agent: *\nAllow: /\n');
    s.robots.set(second, 'User-agent: prospect-finder-test\nDisallow: /\n');
    const hosts: string[] = [];
    const inner = new HostGate(0);
    const spy: RequestGate = {
      run: (host, fn) => {
        hosts.push(host);
        return inner.run(host, fn);
      },
    };
    const before = s.requests.length;
    const ev = await checkWebsite(`http://${first}/to-second`, { ...check, resolve: toLoopback }, spy);
    expect(ev).toMatchObject({ status: 'failed', reason: 'robots.txt disallows checking this site' });
    const asked = s.requests.slice(before).map((r) => `${r.host}${r.path}`);
    // The redirect itself was read (the first origin allows it); of the second, only its robots.txt.
    expect(asked).toEqual([`${first}/robots.txt`, `${first}/to-second`, `${second}/robots.txt`]);
    expect(hosts).toEqual([first, first, second]);

    // Allowed by the second origin: its robots.txt, then the page, each through the second host's gate.
    s.robots.set(second, 'User-agent: someone-else\nDisallow: /\n');
    hosts.length = 0;
    const mark = s.requests.length;
    const ok = await checkWebsite(
      `http://${first}/to-second`,
      { ...check, extraPages: 0, resolve: toLoopback },
      spy,
    );
    expect(ok.status).toBe('checked');
    expect(ok.signals.map((x) => x.kind)).toContain('google_ads');
    expect(s.requests.slice(mark).map((r) => `${r.host}${r.path}`)).toEqual([
      `${first}/robots.txt`,
      `${first}/to-second`,
      `${second}/robots.txt`,
      `${second}/sites/google-ads/`,
    ]);
    expect(hosts).toEqual([first, first, second, second]);
  });

  it('never sends two requests at once to one host, with a pause between them', async () => {
    const host = `busy.test:${s.port}`;
    s.delayMs = 30;
    try {
      const shared = new HostGate(20);
      const sites = ['google-ads', 'meta-pixel', 'booking', 'jsonld', 'chat'].map(
        (n) => `http://${host}/sites/${n}/`,
      );
      const results = await Promise.all(
        sites.map((u) => checkWebsite(u, { ...check, resolve: toLoopback }, shared)),
      );
      expect(results.every((r) => r.status === 'checked')).toBe(true);
      expect(s.requests.filter((r) => r.host === host).length).toBeGreaterThan(5);
      expect(s.maxInFlight.get(host)).toBe(1);
    } finally {
      s.delayMs = 0;
    }
  });
});
