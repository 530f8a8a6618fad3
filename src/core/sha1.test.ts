import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha1Hex } from './sha1';

describe('sha1Hex', () => {
  it('matches the FIPS 180 test vectors', () => {
    expect(sha1Hex('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(sha1Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '84983e441c3bd26ebaae4aa1f95129e5e54670f1',
    );
  });

  it('agrees with node:crypto on UTF-8 text of every padding length', () => {
    for (let n = 0; n < 200; n++) {
      const text = 'Café Ünïcode 東京 '.repeat(Math.ceil(n / 16)).slice(0, n);
      expect(sha1Hex(text), `length ${n}`).toBe(createHash('sha1').update(text, 'utf8').digest('hex'));
    }
  });
});
