// A client of its own (the event bus's listening connection) keeps the client-side read timeout that the app's
// pooled queries get from database.ts, as pg's query_timeout: a LISTEN the server never answers must not hold
// the app's start-up forever.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { ownClientConfig } from '../../src/server/db/database.js';

const pools: pg.Pool[] = [];
const pool = (options: pg.PoolConfig) => {
  const p = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', ...options });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

describe('ownClientConfig', () => {
  it("waits the statement timeout and a second more, with the pool's other settings", () => {
    const config = ownClientConfig(pool({ statement_timeout: 500, connectionTimeoutMillis: 700 }));
    expect(config.query_timeout).toBe(1500);
    expect(config.statement_timeout).toBe(500);
    expect(config.connectionTimeoutMillis).toBe(700);
    expect(config.connectionString).toBe('postgres://nobody@127.0.0.1:1/none');
  });

  it('sets no read timeout when statements have none', () => {
    expect(ownClientConfig(pool({})).query_timeout).toBeUndefined();
  });
});
