// The signed-in user's own things on the main screen: sign-out, the help dialog (instructions, with
// "Don't show again"), the install prompt's "Don't Ask Again"; preferences are saved to the profile.
import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { GENERIC_ERROR } from '../../../core/messages';
import { api, type Me, type ProfilePatch } from '../../api';
import { useDialogs } from '../../dialogs';
import { ME_KEY, useSignOut } from '../../session';
import { flushOutbox, outboxState, waitingWrites } from '../../offline/outbox';
import { DISCARD_AND_SIGN_OUT, unsentOnSignOut } from '../../offline/texts';

export function useAccount(me: Me) {
  const queryClient = useQueryClient();
  const { notify, confirm } = useDialogs();
  const signOut = useSignOut();
  const [loggingOut, setLoggingOut] = useState(false);
  const [helpOpen, setHelpOpen] = useState(!me.hideInstructions);

  const updateProfile = useCallback(
    async (patch: ProfilePatch) => {
      try {
        const user = await api.updateMe(patch);
        queryClient.setQueryData<Me | null>(ME_KEY, user);
      } catch (e) {
        console.warn('saving a preference failed', e);
      }
    },
    [queryClient],
  );

  const logout = async () => {
    setLoggingOut(true);
    // The queue is sent first; what cannot be sent (or was refused) is discarded only if the rep says so.
    if (outboxState().items.length > 0) {
      if (navigator.onLine) await flushOutbox();
      const waiting = waitingWrites().length;
      const refused = outboxState().items.length - waiting;
      if (
        waiting + refused > 0 &&
        !(await confirm(unsentOnSignOut(waiting, refused), DISCARD_AND_SIGN_OUT, { destructive: true }))
      ) {
        setLoggingOut(false);
        return;
      }
    }
    try {
      await signOut();
    } catch (e) {
      console.warn('sign-out failed', e);
      setLoggingOut(false);
      notify(e instanceof Error && e.message ? e.message : GENERIC_ERROR, 'error');
    }
  };

  return {
    loggingOut,
    logout,
    helpOpen,
    openHelp: () => {
      setHelpOpen(true);
      if (me.hideInstructions) void updateProfile({ hideInstructions: false });
    },
    closeHelp: (dontShow: boolean) => {
      setHelpOpen(false);
      if (dontShow) void updateProfile({ hideInstructions: true });
    },
    dontAskToInstall: () => void updateProfile({ installPromptDismissed: true }),
  };
}
