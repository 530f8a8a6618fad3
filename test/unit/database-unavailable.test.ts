import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/server/http/errors.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('which errors mean "the database is unavailable" (503)', () => {
  it('knows refused and broken connections and the timeouts of a database that hangs', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      new Error('Connection terminated due to connection timeout'), // DATABASE_CONNECT_TIMEOUT_MS
      new Error('timeout exceeded when trying to connect'), // no free pooled connection in time
      withCode('canceling statement due to statement timeout', '57014'), // DATABASE_STATEMENT_TIMEOUT_MS
      new Error('Query read timeout'), // the server never answered (client-side query_timeout)
      new Error('Failed to get session', { cause: new Error('Query read timeout') }), // wrapped by better-auth
    ])
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
  });

  it('leaves other errors alone (they are 500s, logged)', () => {
    for (const error of [
      new Error('boom'),
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('syntax error at or near "selec"', '42601'),
    ])
      expect(isDatabaseUnavailable(error), error.message).toBe(false);
  });
});
