import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CONFIG_VARIABLES, ConfigError, parseConfig } from '../../src/server/config.js';
import { describeTarget } from '../../src/server/db/postgres-ready.js';

describe('configuration', () => {
  it('needs nothing: SQLite under ./data on port 3000', () => {
    const c = parseConfig({});
    expect(c.port).toBe(3000);
    expect(c.database.kind).toBe('sqlite');
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.passwordMinLength).toBe(8);
    expect(c.discovery.radiusMaxMiles).toBe(5);
    // Place details for the first 10 Google results unless configured.
    expect(c.discovery.google.detailsLimit).toBe(10);
    expect(parseConfig({ GOOGLE_DETAILS_LIMIT: '3' }).discovery.google.detailsLimit).toBe(3);
  });

  it('reads exactly the variables .env.example documents', () => {
    const documented = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    expect([...CONFIG_VARIABLES].sort()).toEqual([...documented].sort());
  });

  it('gives an outside provider 10 s by default, configurable through PROVIDER_TIMEOUT_MS', () => {
    expect(parseConfig({}).discovery.providerTimeoutMs).toBe(10_000);
    expect(parseConfig({ PROVIDER_TIMEOUT_MS: '2500' }).discovery.providerTimeoutMs).toBe(2500);
  });

  it('lists every problem at once', () => {
    try {
      parseConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', RADIUS_MAX_MILES: '0.5', AUTH_SECRET: 'short' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'RADIUS_MAX_MILES', 'AUTH_SECRET'])
        expect(problems).toContain(name);
    }
  });

  it('reads TRUST_PROXY as off, every hop, a hop count or a list of proxies', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(parseConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.5, 10.0.0.0/8' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.0.0.0/8',
    ]);
  });

  it('keeps the scan cooldown at 2 s by default, 0 (off) or at least the 500 ms minimum debounce', () => {
    expect(parseConfig({}).discovery.scanCooldownMs).toBe(2000);
    expect(parseConfig({ SCAN_COOLDOWN_MS: '0' }).discovery.scanCooldownMs).toBe(0);
    expect(parseConfig({ SCAN_COOLDOWN_MS: '500' }).discovery.scanCooldownMs).toBe(500);
    for (const bad of ['1', '499', '-1', '1.5', 'soon']) {
      expect(() => parseConfig({ SCAN_COOLDOWN_MS: bad }), bad).toThrow(/SCAN_COOLDOWN_MS/);
    }
  });

  it('switches to PostgreSQL when DATABASE_URL names one', () => {
    expect(parseConfig({ DATABASE_URL: 'postgres://u@h/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 15_000,
      waitMs: 60_000,
    });
    expect(
      parseConfig({
        DATABASE_URL: 'postgres://u@h/db',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_STATEMENT_TIMEOUT_MS: '0',
        DATABASE_WAIT_MS: '0',
      }).database,
    ).toMatchObject({ connectTimeoutMs: 2000, statementTimeoutMs: 0, waitMs: 0 });
  });
});

describe('the PostgreSQL target in messages', () => {
  it('names host, port, database and role, for TCP and Unix-socket URLs', () => {
    expect(describeTarget('postgres://ann@db.example:6543/pf')).toEqual({
      host: 'db.example',
      port: 6543,
      database: 'pf',
      user: 'ann',
    });
    expect(describeTarget('postgres://ann@%2Fvar%2Frun%2Fpostgresql/pf')).toMatchObject({
      host: '/var/run/postgresql',
      port: 5432,
      database: 'pf',
    });
  });
});
