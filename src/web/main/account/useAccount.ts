// The signed-in user's own things on the main screen: sign-out, the help dialog (SPEC §2 instructions, with
// "Don't show again"), the install prompt's "Don't Ask Again"; preferences are saved to the profile.
import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { GENERIC_ERROR } from '../../../core/messages';
import { api, type Me, type ProfilePatch } from '../../api';
import { useDialogs } from '../../dialogs';
import { ME_KEY, useSignOut } from '../../session';

export function useAccount(me: Me) {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
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
