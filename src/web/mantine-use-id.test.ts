// Mantine's useId is built from src/web/mantine-use-id.ts (vite.config.ts): the replacement must still be found
// where @mantine/hooks imports its own, and give each component its own id, usable in a CSS selector.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import config from '../../vite.config';
import { useId } from './mantine-use-id';

const HOOKS = join(import.meta.dirname, '../../node_modules/@mantine/hooks/esm');

describe("Mantine's useId", () => {
  it('is replaced where @mantine/hooks imports it', () => {
    const index = readFileSync(join(HOOKS, 'index.mjs'), 'utf8');
    expect(index).toContain('from "./use-id/use-id.mjs"');
    const plugin = (config.plugins ?? [])
      .flat()
      .find((p): p is Plugin => !!p && (p as Plugin).name === 'mantine-use-id');
    const resolve = plugin?.resolveId as (source: string, importer?: string) => string | null;
    expect(resolve('./use-id/use-id.mjs', join(HOOKS, 'index.mjs'))).toBe(
      join(import.meta.dirname, 'mantine-use-id.ts'),
    );
    expect(resolve('./use-id/use-id.mjs', join(import.meta.dirname, 'main.tsx'))).toBeNull();
  });

  it('gives each component its own id usable in a CSS selector, or the one passed', () => {
    const seen: string[] = [];
    function Probe({ id }: { id?: string }) {
      seen.push(useId(id));
      return null;
    }
    renderToString(
      createElement(
        'div',
        null,
        createElement(Probe),
        createElement(Probe),
        createElement(Probe, { id: 'mine' }),
      ),
    );
    expect(seen).toHaveLength(3);
    expect(seen[0]).toMatch(/^mantine-[\w-]+$/);
    expect(seen[1]).toMatch(/^mantine-[\w-]+$/);
    expect(seen[0]).not.toBe(seen[1]);
    expect(seen[2]).toBe('mine');
  });
});
