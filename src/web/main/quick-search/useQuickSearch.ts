// Quick search: a business by name or a category within the radius. Its result becomes the
// latest search (paged like a scan) and its first card is brought into view.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CATEGORY_TOO_GENERIC } from '../../../core/messages';
import { api, ApiError, type SearchSettings } from '../../api';
import { useDialogs } from '../../dialogs';
import { QUICK_SEARCH_FAILED } from '../../texts';
import { listOfResult, setProspectList } from '../prospects';
import { userMessage } from '../userMessage';

export type QuickSearchFeature = ReturnType<typeof useQuickSearch>;

export function useQuickSearch(settings: SearchSettings, onResults: () => void) {
  const queryClient = useQueryClient();
  const { notify, prompt } = useDialogs();
  /** Counts the results shown: the list brings its first card into view on each (useRevealFirstCard). */
  const [reveal, setReveal] = useState(0);
  /** Whether the latest count is still to be shown (not when the list is only opened again later). */
  const revealPendingRef = useRef(false);

  const quickSearch = useMutation({
    mutationFn: (input: { mode: 'business' | 'category'; text: string }) =>
      api.quickSearch({
        ...input,
        lat: settings.lat,
        lng: settings.lng,
        radiusMiles: settings.radiusMiles,
        count: settings.count,
        locationLabel: settings.label,
      }),
    onSuccess: (result) => {
      // The result becomes the latest search on the server, paged like a scan.
      setProspectList(queryClient, listOfResult(result));
      onResults();
      revealPendingRef.current = true;
      setReveal((n) => n + 1);
    },
    onError: (error, input) => {
      // Finding nothing (404) or a category too generic (400) is an answer, not a failure: no console error.
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
        console.info('quick search: no result', error.message);
      } else {
        console.error('quick search failed', error);
      }
      // A category too generic to search prompts for a more specific one (only that refusal).
      if (
        input.mode === 'category' &&
        error instanceof ApiError &&
        error.status === 400 &&
        error.message === CATEGORY_TOO_GENERIC
      ) {
        void prompt(error.message, 'Category', 'Find').then((answer) => {
          const text = answer?.trim();
          if (text) quickSearch.mutate({ mode: 'category', text });
        });
        return;
      }
      notify(userMessage(error, QUICK_SEARCH_FAILED), 'error');
    },
  });

  return {
    busy: quickSearch.isPending,
    find: (mode: 'business' | 'category', text: string) => quickSearch.mutate({ mode, text }),
    reveal,
    revealPendingRef,
  };
}

/** A ref for the list of cards: its first card is brought into view each time `reveal` grows. */
export function useRevealFirstCard(reveal: number, pendingRef: RefObject<boolean>) {
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (reveal === 0 || !pendingRef.current) return;
    pendingRef.current = false;
    // On a phone the list is far below the controls: its first card comes to the top. On a desk it sits under
    // the map: scrolled only as far as needed, so the map stays in view where it can.
    const first = listRef.current?.querySelector('[data-testid="prospect-card"]');
    const phone = window.matchMedia('(max-width: 62em)').matches;
    first?.scrollIntoView({ block: phone ? 'start' : 'nearest', behavior: 'auto' });
  }, [reveal, pendingRef]);
  return listRef;
}
