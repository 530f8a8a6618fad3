// How a card shows that something is under way, and that something failed.
import { useState } from 'react';
import { useDialogs } from '../../dialogs';

/** Shows an error's message in a notification. */
export function useNotifyError(): (error: unknown) => void {
  const { notify } = useDialogs();
  return (error) => notify(error instanceof Error ? error.message : String(error), 'error');
}

/**
 * The card's one busy button (named by a key, shown loading) and `run`, which marks a key busy while its
 * action runs and notifies the action's failure.
 */
export function useBusy() {
  const notifyError = useNotifyError();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    try {
      await action();
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(null);
    }
  };
  return { busy, setBusy, run };
}

export type Busy = ReturnType<typeof useBusy>;
