import { describe, expect, it } from 'vitest';
import { tileSources } from '../../src/server/http/csp.js';

describe('tileSources (the service worker may fetch the tiles it keeps)', () => {
  it("gives the tile server's origin, a {s} subdomain as a wildcard", () => {
    expect(tileSources('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toEqual([
      'https://tile.openstreetmap.org',
    ]);
    expect(tileSources('https://{s}.tile.example.com/{z}/{x}/{y}{r}.png')).toEqual([
      'https://*.tile.example.com',
    ]);
    expect(tileSources('http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png')).toEqual(['http://127.0.0.1:8080']);
  });

  it('gives nothing for an empty, relative or odd template', () => {
    expect(tileSources('')).toEqual([]);
    expect(tileSources('/tiles/{z}/{x}/{y}.png')).toEqual([]);
    expect(tileSources('ftp://tiles.example/{z}/{x}/{y}.png')).toEqual([]);
    expect(tileSources('https://tiles-{s}-x.example/{z}/{x}/{y}.png')).toEqual([]);
  });
});
