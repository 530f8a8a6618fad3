import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, isUnauthenticated, type Me } from './api';
import { deleteUserDb, lastUserId, setLastUserId } from './offline/db';
import { closeOutbox, discardAll } from './offline/outbox';

export const ME_KEY = ['me'] as const;

/** The signed-in user (restored on reload from GET /api/session); null when signed out. */
export function useSession() {
  const queryClient = useQueryClient();
  return useQuery<Me | null>({
    queryKey: ME_KEY,
    queryFn: async () => {
      try {
        const user = await api.session();
        // Lists put back from the device belong to the last user: never shown to another.
        if (user && user.id !== lastUserId()) {
          queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
        }
        return user;
      } catch (error) {
        if (isUnauthenticated(error)) return null;
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

/** The signed-in user, for screens that only render while signed in. */
export function useMe(): Me {
  const { data } = useSession();
  if (!data) throw new Error('useMe needs a signed-in user');
  return data;
}

/** After sign-in or registration: load the profile and enter the app. */
export function useEnterApp() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const me = await api.me();
    // Whatever another account left in the cache goes; the session query itself stays observed by the app.
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
    queryClient.setQueryData<Me | null>(ME_KEY, me);
  }, [queryClient]);
}

/**
 * On sign-out every user-specific piece of local state is cleared. Only once the server has ended
 * the session (or it had already ended): a sign-out that failed leaves the user signed in and throws, since
 * clearing the screen while the cookie lives would sign them back in on the next reload.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    try {
      await api.signOut();
    } catch (error) {
      if (!isUnauthenticated(error)) throw error;
    }
    await queryClient.cancelQueries();
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
    queryClient.setQueryData<Me | null>(ME_KEY, null);
    // The device keeps nothing of this rep (the outbox was sent or discarded before: useAccount).
    const userId = lastUserId();
    await discardAll().catch(() => undefined);
    closeOutbox();
    setLastUserId(null);
    if (userId) await deleteUserDb(userId).catch(() => undefined);
  }, [queryClient]);
}

export const useConfig = () => useQuery({ queryKey: ['config'], queryFn: api.config, staleTime: Infinity });
