// Structured JSON logs with a request id. Every answer carries X-Request-Id (the caller's, when it
// sent a usable one), and the server's log lines about that request are JSON with the same reqId.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../../src/server/app.js';
import { parseConfig } from '../../src/server/config.js';
import type { Db } from '../../src/server/db/database.js';
import { ORIGIN } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let testDb: TestDatabase;
let db: Db;
let app: FastifyInstance;
const lines: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: testDb.dataDir,
    DATABASE_URL: testDb.database.kind === 'postgres' ? testDb.database.url : '',
    PUBLIC_URL: ORIGIN,
    LOG_LEVEL: 'info',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    BODY_LIMIT_BYTES: '2048',
  });
  db = testDb.open();
  app = await buildApp({
    config,
    db,
    mailer: { send: () => Promise.resolve() },
    serveWeb: false,
    logStream: { write: (chunk) => lines.push(...chunk.split('\n').filter(Boolean)) },
  });
});
afterAll(async () => {
  await app.close();
  await db.destroy();
  await testDb.drop();
});

/** The log lines, each parsed as JSON (a line that is not JSON fails the test). */
const logOf = (reqId: string) =>
  lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((entry) => entry.reqId === reqId);

describe('request ids', () => {
  it("echoes the caller's X-Request-Id and logs the request as JSON lines under that reqId", async () => {
    const id = `trace-${randomBytes(6).toString('hex')}`;
    const res = await app.inject({ method: 'GET', url: '/api/config', headers: { 'x-request-id': id } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe(id);
    const entries = logOf(id);
    expect(entries).toContainEqual(
      expect.objectContaining({ reqId: id, msg: 'incoming request', level: 30, time: expect.any(Number) }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ reqId: id, msg: 'request completed', res: { statusCode: 200 } }),
    );
  });

  it('makes up an id when none (or an unusable one) is given, and answers with it', async () => {
    for (const given of [undefined, 'has spaces and ; semicolons', 'x'.repeat(65)]) {
      const res = await app.inject({
        method: 'GET',
        url: '/healthz',
        ...(given !== undefined && { headers: { 'x-request-id': given } }),
      });
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(UUID);
      expect(logOf(id)).toContainEqual(expect.objectContaining({ msg: 'request completed' }));
    }
  });

  it('answers with the id on errors too: 401, 404, 400 and 413', async () => {
    const cases = [
      { method: 'GET' as const, url: '/api/call-logs', status: 401 },
      { method: 'GET' as const, url: '/api/nothing-here', status: 404 },
      { method: 'POST' as const, url: '/api/session', payload: { email: 'not an e-mail' }, status: 400 },
      {
        method: 'POST' as const,
        url: '/api/session',
        payload: { email: 'a@b.co', password: 'x'.repeat(4096) },
        status: 413,
      },
    ];
    for (const { status, ...request } of cases) {
      const id = `err-${status}-${randomBytes(3).toString('hex')}`;
      const res = await app.inject({ ...request, headers: { origin: ORIGIN, 'x-request-id': id } });
      expect({ url: request.url, status: res.statusCode, id: res.headers['x-request-id'] }).toEqual({
        url: request.url,
        status,
        id,
      });
      expect(logOf(id)).toContainEqual(
        expect.objectContaining({ msg: 'request completed', res: { statusCode: status } }),
      );
    }
  });
});
