import { useId as useReactId } from 'react';

/**
 * Mantine's `useId` (@mantine/hooks), built in place of its own (vite.config.ts, `mantineUseId`). Mantine's sets a
 * random id in a layout effect after the first render, which renders every input, tab, menu and tooltip twice
 * on mount, the second time synchronously inside the commit: on the main screen about 20 ms of a phone's first
 * long task. React's own id is unique and stable already; only its punctuation is taken out, for CSS selectors.
 */
export function useId(staticId?: string): string {
  const reactId = useReactId();
  return typeof staticId === 'string' ? staticId : `mantine-${reactId.replace(/[^a-zA-Z0-9_-]/g, '')}`;
}
