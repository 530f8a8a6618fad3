import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword as betterAuthHash, verifyPassword as betterAuthVerify } from 'better-auth/crypto';
import {
  createLimiter,
  defaultHashConcurrency,
  hashPassword,
  passwordHashQueue,
  setPasswordHashConcurrency,
  verifyPassword,
} from '../../src/server/auth/passwords';

const deferred = () => {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('createLimiter', () => {
  it('runs at most the limit at once and starts the rest in arrival order', async () => {
    const limiter = createLimiter(2);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect([limiter.active, limiter.waiting]).toEqual([2, 3]);
    gates[1]!.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.reject(new Error('boom')); // a failure frees its slot too
    await expect(runs[0]).rejects.toThrow('boom');
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(runs.slice(1))).toEqual([1, 2, 3, 4]);
    expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
  });

  it('refuses a limit below one', () => {
    expect(() => createLimiter(0)).toThrow(/positive integer/);
    expect(defaultHashConcurrency()).toBeGreaterThanOrEqual(1);
  });
});

describe('password hashing through the queue', () => {
  afterAll(() => setPasswordHashConcurrency(defaultHashConcurrency()));

  it("keeps better-auth's hashes: one made here verifies there, and back", async () => {
    const hash = await hashPassword('correct horse battery');
    expect(await betterAuthVerify({ hash, password: 'correct horse battery' })).toBe(true);
    expect(await verifyPassword({ hash, password: 'correct horse battery' })).toBe(true);
    expect(await verifyPassword({ hash, password: 'wrong horse' })).toBe(false);
    // better-auth's own hash (the stored ones), checked here; with a password NFKC makes equal.
    const theirs = await betterAuthHash('ﬁve café');
    expect(await verifyPassword({ hash: theirs, password: 'ﬁve café' })).toBe(true);
    expect(await verifyPassword({ hash: theirs, password: 'five café' })).toBe(true);
    expect(await verifyPassword({ hash: theirs, password: 'five cafe' })).toBe(false);
    await expect(verifyPassword({ hash: 'not-a-hash', password: 'x' })).rejects.toThrow(
      'Invalid password hash',
    );
  });

  it('queues a burst: with a limit of one, the others wait', async () => {
    setPasswordHashConcurrency(1);
    const burst = [hashPassword('a-password-1'), hashPassword('a-password-2'), hashPassword('a-password-3')];
    expect([passwordHashQueue().active, passwordHashQueue().waiting]).toEqual([1, 2]);
    const hashes = await Promise.all(burst);
    expect(new Set(hashes).size).toBe(3);
    expect([passwordHashQueue().active, passwordHashQueue().waiting]).toEqual([0, 0]);
  });
});
