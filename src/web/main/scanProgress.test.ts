import { describe, expect, it, vi } from 'vitest';
import { failedSourcesNotice, newScanId, nextProgress, progressLine, type ScanNotice } from './scanProgress';

const ID = '6f1c1c52-8d4e-4f3b-9a51-0c2b7d0e9a11';
const notice = (action: string, extra: Partial<ScanNotice> = {}): ScanNotice => ({
  type: 'scan',
  action,
  scanId: ID,
  ...extra,
});

describe('scan progress line', () => {
  it('follows the phases of this scan: providers, found, analysing, done', () => {
    let p = nextProgress(null, notice('fetching', { providers: ['local', 'google', 'osm'] }), ID);
    expect(progressLine(p)).toBe(
      'Fetching businesses from the local business data, Google Places and OpenStreetMap...',
    );
    p = nextProgress(p, notice('found', { count: 412 }), ID);
    expect(progressLine(p)).toBe('Found 412 businesses');
    p = nextProgress(p, notice('analysing', { count: 380 }), ID);
    expect(progressLine(p)).toBe('Found 412 businesses — analysing 380...');
    p = nextProgress(p, notice('done', { count: 1 }), ID);
    expect(progressLine(p)).toBe('Found 412 businesses — 1 prospect ranked');
    expect(progressLine(nextProgress(null, notice('done', { count: 20 }), ID))).toBe('20 prospects ranked');
  });

  it("ignores other scans' notices, unknown phases and a phase that arrives after a later one", () => {
    const found = nextProgress(null, notice('found', { count: 7 }), ID);
    expect(nextProgress(found, notice('analysing', { count: 5, scanId: 'other' }), ID)).toBe(found);
    expect(nextProgress(found, notice('analysing', { count: 5 }), null)).toBe(found);
    expect(nextProgress(found, notice('exploded'), ID)).toBe(found);
    expect(nextProgress(found, notice('fetching', { providers: ['google'] }), ID)).toBe(found);
    expect(progressLine(found)).toBe('Found 7 businesses');
    // Analysing without a found count still reads well; no progress means no line.
    expect(progressLine(nextProgress(null, notice('analysing', { count: 1 }), ID))).toBe(
      'Analysing 1 business...',
    );
    expect(progressLine(null)).toBeNull();
  });
});

describe('failed sources notice', () => {
  it('names the sources that did not answer, only when some did not', () => {
    expect(
      failedSourcesNotice(
        [
          { provider: 'local', ok: true, count: 300 },
          { provider: 'google', ok: false, count: 0, error: 'timeout' },
        ],
        true,
      ),
    ).toBe('Google Places did not answer; showing results from the other sources.');
    expect(
      failedSourcesNotice(
        [
          { provider: 'google', ok: false, count: 0 },
          { provider: 'osm', ok: false, count: 0 },
        ],
        false,
      ),
    ).toBe(
      'Google Places and OpenStreetMap did not answer, so this scan found nothing. Please try again in a moment.',
    );
    expect(failedSourcesNotice([{ provider: 'local', ok: true, count: 5 }], true)).toBeNull();
    expect(failedSourcesNotice(undefined, true)).toBeNull();
  });
});

describe('scan id', () => {
  it('is a version 4 UUID, also without crypto.randomUUID (plain-http installations)', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newScanId()).toMatch(uuid);
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => real.getRandomValues(a) });
    try {
      const ids = new Set(Array.from({ length: 50 }, () => newScanId()));
      expect(ids.size).toBe(50);
      for (const id of ids) expect(id).toMatch(uuid);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
