// axe-core accessibility checks for the browser tests (every control labelled, WCAG 2 AA).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's WCAG 2 A/AA rules on the page as it is (or inside `selector`): the violations of impact serious or
 * critical, one line each. Evaluated through the DevTools protocol, so the page's CSP does not stand in the way.
 */
export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  // Axe reads colours as drawn: text still fading in (a map popup opening, say) is blended with what is behind it
  // and fails a contrast it meets once shown. Running transitions and finite animations finish first (at most
  // 1 s); an endless one (a spinner) is not waited for, so a short-lived element (a scan's progress) is still there.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]),
  );
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (include) => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: unknown, o: unknown) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(include ? { include: [include] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] },
    });
    return result.violations;
  }, selector ?? null);
  return (violations as Violation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.help}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}
