import { describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../helpers/chromium.js';

describe('where the browser tests find Chromium', () => {
  it('takes CHROMIUM_PATH, else chromium or chromium-browser on PATH, else none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-chromium-path-'));
    try {
      const bin = join(dir, 'chromium-browser');
      writeFileSync(bin, '#!/bin/sh\n');
      chmodSync(bin, 0o755);
      expect(findChromium({ PATH: `/nonexistent:${dir}` })).toBe(bin);
      expect(findChromium({ PATH: '/nonexistent' })).toBeNull();
      expect(findChromium({ PATH: dir, CHROMIUM_PATH: '' })).toBeNull();
      expect(findChromium({ PATH: '', CHROMIUM_PATH: bin })).toBe(bin);
      expect(findChromium({ PATH: dir, CHROMIUM_PATH: join(dir, 'missing') })).toBeNull();
      writeFileSync(join(dir, 'chromium'), 'not executable');
      expect(findChromium({ PATH: dir })).toBe(bin);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
