import { useLayoutEffect, useMemo, useRef } from 'react';

type Handlers = Record<string, ((...args: never[]) => unknown) | undefined>;

/**
 * The same handlers, as an object that keeps its identity from render to render while the set of handlers
 * given stays the same; each call goes to the newest function given. The cards are memoized (issue 14 item
 * 13: a list of cards re-rendered on every answer that reaches the main screen was most of its blocking
 * time), so their handlers must not change identity on every render of the screen, yet must never be stale.
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
