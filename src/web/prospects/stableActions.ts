import { startTransition, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';

type Handlers = Record<string, ((...args: never[]) => unknown) | undefined>;

/**
 * The same handlers, as an object that keeps its identity from render to render while the set of handlers
 * given stays the same; each call goes to the newest function given. The cards are memoized (a list of cards
 * re-rendered on every answer that reaches the main screen would be most of its blocking time), so their
 * handlers must not change identity on every render of the screen, yet must never be stale.
 */
export function useStableHandlers<T extends { [K in keyof T]: Handlers[string] }>(given: T): T {
  const handlers = given as Handlers;
  const latest = useRef(handlers);
  useLayoutEffect(() => {
    latest.current = handlers;
  });
  const names = Object.keys(handlers)
    .filter((name) => typeof handlers[name] === 'function')
    .sort()
    .join(',');
  return useMemo(() => {
    const stable: Handlers = {};
    for (const name of names ? names.split(',') : []) {
      stable[name] = (...args: never[]) => latest.current[name]?.(...args);
    }
    return stable as unknown as T;
  }, [names]);
}

/** Cards added per step by {@link useProgressiveList}. */
export const CARDS_PER_STEP = 6;

/**
 * The first items of a list, growing by {@link CARDS_PER_STEP} in low-priority steps until all are there: a
 * page of 20-100 cards reaches the screen in short tasks (each step's DOM is added on its own) instead of one
 * long one that holds the page on a phone. The count only grows, so a later list (a new
 * scan, the next page) shows at once.
 */
export function useProgressiveList<T>(items: readonly T[]): readonly T[] {
  const [shown, setShown] = useState(CARDS_PER_STEP);
  const more = shown < items.length;
  useEffect(() => {
    if (!more) return;
    const timer = window.setTimeout(() => startTransition(() => setShown((n) => n + CARDS_PER_STEP)), 0);
    return () => window.clearTimeout(timer);
  }, [more, shown]);
  return more ? items.slice(0, shown) : items;
}
