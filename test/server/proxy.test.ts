// Behind a reverse proxy. nginx (Debian package) terminates HTTPS with a self-signed certificate in
// front of the app, which runs with TRUST_PROXY=true and PUBLIC_URL=https://localhost:PORT. Checks the session
// cookie is Secure, request.ip is the client's (not the proxy's, and not what the client claims in
// X-Forwarded-For), the app sees https and the public host, and HSTS is sent.
//
// The client talks from 127.0.0.3 and nginx reaches the app from 127.0.0.2, so each address is distinguishable.
// Skipped when /usr/sbin/nginx or openssl is missing (apt-get install -y nginx), failed instead in CI (CI=1 or
// RUN_FAULT_TESTS=1, see test/helpers/dependencies.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { buildApp } from '../../src/server/app.js';
import { parseConfig } from '../../src/server/config.js';
import type { Db } from '../../src/server/db/database.js';
import type { Mail } from '../../src/server/mail/mailer.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { freePort } from '../helpers/process.js';
import { missingDependency } from '../helpers/dependencies.js';
import { CROSS_SITE_REFUSED } from '../../src/server/http/cross-site.js';

const NGINX = '/usr/sbin/nginx';
const haveOpenssl = spawnSync('openssl', ['version']).status === 0;
const canRun = existsSync(NGINX) && haveOpenssl;

const CLIENT_IP = '127.0.0.3';
const PROXY_IP = '127.0.0.2';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

describe.skipIf(!canRun)('behind nginx terminating HTTPS (TRUST_PROXY=true)', () => {
  let testDb: TestDatabase;
  let db: Db;
  let app: FastifyInstance;
  let nginx: ChildProcess | undefined;
  let nginxLog = '';
  let dir: string;
  let cert: Buffer;
  let publicUrl: string;
  const mail: Mail[] = [];

  const send = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const url = new URL(path, publicUrl);
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: url.port,
          path: url.pathname + url.search,
          method,
          servername: 'localhost',
          ca: cert, // trust the self-signed certificate, nothing else
          localAddress: CLIENT_IP,
          headers: {
            host: url.host,
            origin: publicUrl,
            ...(payload ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
        },
        (res) => {
          let data = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (data += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  beforeAll(async () => {
    testDb = await createTestDatabase();
    dir = join(testDb.dataDir, 'nginx');
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    const ssl = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { encoding: 'utf8' },
    );
    if (ssl.status !== 0) throw new Error(`openssl failed: ${ssl.stderr}`);
    cert = readFileSync(join(dir, 'cert.pem'));

    const httpsPort = await freePort();
    publicUrl = `https://localhost:${httpsPort}`;
    const config = parseConfig({
      NODE_ENV: 'test',
      DATA_DIR: testDb.dataDir,
      DATABASE_URL: testDb.database.kind === 'postgres' ? testDb.database.url : '',
      PUBLIC_URL: publicUrl,
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'silent',
      AUTH_SECRET: randomBytes(32).toString('hex'),
    });
    db = testDb.open();
    app = await buildApp({
      config,
      db,
      mailer: {
        send: (m) => {
          mail.push(m);
          return Promise.resolve();
        },
      },
      serveWeb: false,
    });
    // What the app makes of each request, as the rate limits and the audit log see it.
    app.get('/test/whoami', { config: { access: 'public' } }, (request) => ({
      ip: request.ip,
      protocol: request.protocol,
      host: request.host,
    }));
    const appUrl = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));

    const t = join(dir, 'tmp');
    writeFileSync(
      join(dir, 'nginx.conf'),
      `worker_processes 1;
daemon off;
master_process off;
user root;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${t}/body; proxy_temp_path ${t}/proxy; fastcgi_temp_path ${t}/fastcgi;
  uwsgi_temp_path ${t}/uwsgi; scgi_temp_path ${t}/scgi;
  server {
    listen 127.0.0.1:${httpsPort} ssl;
    server_name localhost;
    ssl_certificate ${join(dir, 'cert.pem')};
    ssl_certificate_key ${join(dir, 'key.pem')};
    location / {
      proxy_pass http://127.0.0.1:${appUrl.port};
      proxy_bind ${PROXY_IP};
      proxy_http_version 1.1;
      proxy_buffering off;
      proxy_set_header Host $http_host;
      # Replace, never append: a client cannot choose its own address by sending X-Forwarded-For.
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      # Pass the app's redirects through untouched (nginx would otherwise rewrite a Location naming the
      # app's own address), so the test sees where the app itself sends the browser.
      proxy_redirect off;
    }
  }
}
`,
    );
    nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    nginx.stdout?.on('data', (c: Buffer) => (nginxLog += c.toString()));
    nginx.stderr?.on('data', (c: Buffer) => (nginxLog += c.toString()));
    for (let i = 0; ; i++) {
      try {
        if ((await send('GET', '/healthz')).status === 200) break;
      } catch (error) {
        if (i > 100 || nginx.exitCode !== null)
          throw new Error(`nginx did not start: ${String(error)}\n${nginxLog}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      nginx.kill('SIGQUIT');
      await new Promise((r) => nginx!.once('exit', r));
    }
    await app?.close();
    await db?.destroy();
    await testDb?.drop();
  });

  it("sees the client's address, https and the public host", async () => {
    const res = await send('GET', '/test/whoami', undefined, { 'x-forwarded-for': '203.0.113.9' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      ip: CLIENT_IP, // not the proxy's 127.0.0.2, not the spoofed 203.0.113.9
      protocol: 'https',
      host: new URL(publicUrl).host,
    });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('registers and signs in over https with Secure, HttpOnly session cookies that work', async () => {
    const reg = await send('POST', '/api/register', {
      name: 'Proxy Owner',
      email: 'proxy-owner@example.com',
      password: 'password1',
    });
    expect(reg.status).toBe(201);
    const signIn = await send('POST', '/api/session', {
      email: 'proxy-owner@example.com',
      password: 'password1',
    });
    expect(signIn.status).toBe(200);
    const cookies = signIn.headers['set-cookie'] ?? [];
    const session = cookies.find((c) => /session_token=/.test(c));
    expect(session).toBeDefined();
    expect(session).toMatch(/^__Secure-/);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
    const me = await send('GET', '/api/me', undefined, { cookie });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body)).toMatchObject({ user: { email: 'proxy-owner@example.com' } });
    // better-auth keeps the client's address on the session, seen through the proxy.
    const { rows } = await sql<{
      ipAddress: string | null;
    }>`select "ipAddress" from "session" order by "createdAt" desc limit 1`.execute(db.kysely);
    expect(rows[0]?.ipAddress).toBe(CLIENT_IP);
  });

  it('sends the browser to https://<public host> from the e-mailed link and its redirect, never the app itself', async () => {
    // The owner of the previous test, or registered here when this test runs alone.
    await send('POST', '/api/register', {
      name: 'Proxy Owner',
      email: 'proxy-owner@example.com',
      password: 'password1',
    });
    const before = mail.length;
    const asked = await send('POST', '/api/password-reset', { email: 'proxy-owner@example.com' });
    expect(asked.status).toBe(200);
    expect(mail.length).toBe(before + 1);
    const link = /https?:\/\/\S+/.exec(mail.at(-1)!.text)?.[0] ?? '';
    expect(link.startsWith(`${publicUrl}/api/auth/reset-password/`)).toBe(true);

    const landing = await send('GET', link.slice(publicUrl.length));
    expect(landing.status).toBe(302);
    const location = String(landing.headers.location ?? '');
    // Where the browser lands: on the public https origin (a relative Location stays there), never http:// or
    // the address nginx reaches the app on.
    const lands = new URL(location, publicUrl);
    expect(lands.origin).toBe(new URL(publicUrl).origin);
    expect(lands.pathname).toBe('/reset-password');
    expect(lands.searchParams.get('token')).toMatch(/^\w+$/);
    if (/^[a-z][a-z+.-]*:|^\/\//i.test(location)) expect(location.startsWith(`${publicUrl}/`)).toBe(true);
  });

  it('accepts state-changing requests from pages of the public https origin only', async () => {
    const ask = (headers: Record<string, string>) =>
      send('POST', '/api/password-reset', { email: 'nobody@example.com' }, headers);
    expect((await ask({})).status).toBe(200); // origin: PUBLIC_URL, as the browser on it sends
    const port = new URL(publicUrl).port;
    for (const origin of [`http://localhost:${port}`, 'https://evil.example', `https://127.0.0.1:${port}`]) {
      const refused = await ask({ origin });
      expect({ origin, status: refused.status }).toEqual({ origin, status: 403 });
      expect(JSON.parse(refused.body)).toEqual({ error: CROSS_SITE_REFUSED });
    }
  });
});

describe.skipIf(canRun)('behind nginx', () => {
  missingDependency(`${NGINX} and openssl`, 'apt-get install -y nginx openssl');
});
