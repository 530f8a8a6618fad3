// Scan and paging: the scan with its progress line and failed-sources notice, the loaded pages of
// the latest results ('Load Next N Prospects'), New Search, and the live updates that move the progress.
import { useCallback, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, type SearchSettings } from '../../api';
import { UNDO_MS, useDialogs } from '../../dialogs';
import { LOAD_MORE_FAILED, SCAN_FAILED } from '../../texts';
import { SCAN_MUTATION_KEY, scanSettled, useLiveUpdates } from '../liveUpdates';
import {
  EMPTY_LIST,
  listOfResult,
  PROSPECTS_KEY,
  setProspectList,
  useProspectList,
  type ProspectList,
} from '../prospects';
import {
  failedSourcesNotice,
  newScanId,
  nextProgress,
  progressLine,
  type ScanNotice,
  type ScanProgress,
} from '../scanProgress';
import { userMessage } from '../userMessage';
import type { Territory } from '../territories/territories';

export type ScanFeature = ReturnType<typeof useScan>;

export function useScan(
  settings: SearchSettings,
  on: { results: () => void; started: () => void },
  territories: readonly Territory[],
) {
  const queryClient = useQueryClient();
  /** The territory the next scan covers (chosen in the scan settings), or null: the circle, the default. */
  const [territoryId, setTerritoryId] = useState<string | null>(null);
  // A territory deleted or unassigned since it was chosen: back to the circle.
  const territory = territories.find((t) => t.id === territoryId) ?? null;
  const { notify } = useDialogs();
  /** The running scan's id (sent with it) and what its event stream said so far. */
  const scanId = useRef<string | null>(null);
  /** The timer that makes the server forget the results New Search cleared, once Undo is no longer offered. */
  const forgetCleared = useRef<{ cancel: () => void }>({ cancel: () => {} });
  /**
   * A scan of this visit put results on screen (not the restored ones of an earlier visit): the phone's settings
   * fold then. Folding on restored results would move the map up under the first paint.
   */
  const [scanned, setScanned] = useState(false);
  const [progress, setProgress] = useState<ScanProgress | null>(null);
  /** Which place sources failed in the latest scan, while results came from the others. */
  const [sourcesNotice, setSourcesNotice] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const list = useProspectList(settings.count);

  const onScanNotice = useCallback(
    (notice: ScanNotice) => setProgress((p) => nextProgress(p, notice, scanId.current)),
    [],
  );
  useLiveUpdates(true, onScanNotice);

  const scan = useMutation({
    mutationKey: SCAN_MUTATION_KEY,
    mutationFn: (id: string) =>
      territory
        ? api.scan({
            territoryId: territory.id,
            locationLabel: territory.name,
            count: settings.count,
            categories: settings.categories,
            spreadOut: settings.spreadOut,
            scanId: id,
          })
        : api.scan({ ...settings, locationLabel: settings.label, scanId: id }),
    onSuccess: (result) => {
      setProspectList(queryClient, listOfResult(result));
      setScanned(result.prospects.length > 0);
      on.results();
      const failed = result.sources.filter((s) => !s.ok);
      if (failed.length > 0) console.warn('some place providers failed', failed);
      setSourcesNotice(failedSourcesNotice(result.sources, result.prospects.length > 0));
    },
    onError: (error) => {
      // A click inside the cooldown between scans is ignored (only logged).
      if (error instanceof ApiError && error.status === 429) {
        console.info('scan ignored: cooldown', error.body.retryAfterMs);
        return;
      }
      console.error('scan failed', error);
      notify(userMessage(error, SCAN_FAILED), 'error');
    },
    onSettled: () => {
      scanId.current = null;
      scanSettled(queryClient);
    },
  });

  const start = () => {
    if (scan.isPending) return;
    // A new scan becomes the latest itself: the cleared one's pending removal must not remove it.
    forgetCleared.current.cancel();
    const id = newScanId();
    scanId.current = id;
    setProgress(null);
    setSourcesNotice(null);
    scan.mutate(id);
    on.started();
  };

  // One list, not useInfiniteQuery's pages: a scan replaces it, live updates and saves rewrite single cards in
  // it, and it is what the offline cache keeps; a page read here is appended to it without its duplicates.
  const loadMore = async () => {
    const current = list.data ?? EMPTY_LIST;
    setLoadingMore(true);
    try {
      const page = await api.latestScan(current.prospects.length, settings.count);
      const seen = new Set(current.prospects.map((p) => p.id));
      setProspectList(queryClient, {
        prospects: [...current.prospects, ...page.prospects.filter((p) => !seen.has(p.id))],
        total: page.total,
        loadable: page.loadable,
        demo: current.demo ?? false,
        searched: true,
      });
    } catch (error) {
      console.error('loading more prospects failed', error);
      notify(LOAD_MORE_FAILED, 'error');
    } finally {
      setLoadingMore(false);
    }
  };

  /** New Search: the results go, here and on the server. */
  /**
   * New Search: the list goes at once and comes back with `undo` until the server forgets it, after the Undo
   * notice's time or as soon as the page is left (a reload).
   */
  const clear = () => {
    const before = queryClient.getQueryData<ProspectList>(PROSPECTS_KEY);
    setProspectList(queryClient, EMPTY_LIST);
    setSourcesNotice(null);
    setScanned(false);
    forgetCleared.current.cancel();
    const forget = () => {
      cancel();
      api.clearLatestScan().catch((e: unknown) => console.warn('clearing the latest scan failed', e));
    };
    const timer = window.setTimeout(forget, UNDO_MS);
    const cancel = () => {
      window.clearTimeout(timer);
      window.removeEventListener('pagehide', forget);
    };
    window.addEventListener('pagehide', forget);
    forgetCleared.current = { cancel };
    return {
      cleared: (before?.prospects.length ?? 0) > 0,
      undo: () => {
        // Only while nothing came in its place (a scan or a quick search since).
        const now = queryClient.getQueryData<ProspectList>(PROSPECTS_KEY);
        if (!before || (now?.prospects.length ?? 0) > 0) return;
        cancel();
        setProspectList(queryClient, before);
        setScanned(true);
      },
    };
  };

  return {
    list,
    territory,
    setTerritoryId,
    scanned,
    scanning: scan.isPending,
    progressLine: progressLine(progress),
    start,
    loadMore,
    loadingMore,
    clear,
    sourcesNotice,
    setSourcesNotice,
  };
}
