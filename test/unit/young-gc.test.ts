// The young generation is collected after a scan's answer (src/server/young-gc.ts) when the process was
// started with --expose-gc, as `npm start` starts it; in any other process the call does nothing. Each case runs
// in a child process of its own, started with and without the flag.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs `body` (ESM, with canCollectYoung, collectYoungIfFilled, youngUsed and fillTo in scope) in a fresh Node;
 * answers its printed JSON.
 */
function inChild(flags: string[], body: string): unknown {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { canCollectYoung, collectYoungIfFilled } from './src/server/young-gc.ts';
    const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    const youngUsed = () => newSpace().space_used_size;
    const taken = () => { const y = newSpace(); return y.space_used_size / (y.space_used_size + y.space_available_size); };
    // Short-lived garbage until more than \`fill\` of the young generation is taken (without a collection meanwhile).
    const fillTo = (fill) => { let keep = []; for (let i = 0; taken() < fill && i < 1e7; i++) keep.push({ i }); keep = null; };
    ${body}
  `;
  const out = execFileSync(
    process.execPath,
    [...flags, '--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

describe('collecting the young generation after an answer', () => {
  it('collects when more than a tenth of it is taken, and only then', () => {
    const r = inChild(
      ['--expose-gc'],
      `
      globalThis.gc({ type: 'minor' });
      const empty = collectYoungIfFilled();
      fillTo(0.3);
      const before = youngUsed();
      const full = collectYoungIfFilled();
      const after = youngUsed();
      console.log(JSON.stringify({ can: canCollectYoung, empty, full, freed: after < before / 2 }));
      `,
    );
    expect(r).toEqual({ can: true, empty: false, full: true, freed: true });
  });

  it('does nothing in a process started without --expose-gc', () => {
    const r = inChild(
      [],
      `
      fillTo(0.7);
      console.log(JSON.stringify({ can: canCollectYoung, full: collectYoungIfFilled() }));
      `,
    );
    expect(r).toEqual({ can: false, full: false });
  });
});
