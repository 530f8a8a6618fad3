import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { nulPath } from '../../src/server/http/text-guard.js';

describe('nulPath', () => {
  it('finds a NUL in parsed JSON and query strings, wherever it is', () => {
    expect(nulPath({ a: [{ b: 'ok' }, { c: 'x\u0000y' }] })).toBe('a.1.c');
    const query = Object.assign(Object.create(null) as Record<string, string>, { q: '\u0000' });
    expect(nulPath(query)).toBe('q');
    expect(nulPath('plain')).toBeNull();
  });

  it('leaves alone a body that is no parsed text: an upload streamed to disk, a buffer', () => {
    // Walking a request stream's object graph (socket, server...) took a minute per upload.
    const stream = Object.assign(new PassThrough(), { label: '\u0000' });
    expect(nulPath(stream)).toBeNull();
    expect(nulPath(Buffer.from([0, 1, 2]))).toBeNull();
  });
});
