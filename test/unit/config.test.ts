import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config.js';

describe('configuration', () => {
  it('needs nothing: SQLite under ./data on port 3000', () => {
    const c = parseConfig({});
    expect(c.port).toBe(3000);
    expect(c.database.kind).toBe('sqlite');
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.passwordMinLength).toBe(8);
    expect(c.discovery.radiusMaxMiles).toBe(5);
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

  it('switches to PostgreSQL when DATABASE_URL names one', () => {
    expect(parseConfig({ DATABASE_URL: 'postgres://u@h/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
    });
  });
});
