import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { MAX_LOADED } from '../defaults';
import { stableId } from '../format';
import { PROSPECTS_KEY, setProspectList, updateProspects, type ProspectList } from './prospects';
import type { ScanNotice } from './scanProgress';
import type { AppEvent } from '../../core/api';
import { PIPELINE_KEY, applyPipelineEntry, entryFromNotice } from './pipeline/usePipeline';
import { TERRITORIES_KEY } from './territories/territories';

type Notice = Pick<AppEvent, 'action' | 'businessId'> & { type: 'advertisers' | 'blocklist' | 'prospects' };

/** The key of the scan mutation on the main screen. */
export const SCAN_MUTATION_KEY = ['scan'] as const;
const refreshAfterScan = new WeakSet<QueryClient>();

/**
 * Called when a scan has finished and its answer is on screen (the mutation still counts as running while
 * its callbacks run): a refresh asked for meanwhile happens now.
 */
export function scanSettled(queryClient: QueryClient): void {
  if (!refreshAfterScan.delete(queryClient)) return;
  reloadLoaded(queryClient).catch((e: unknown) => console.warn('refreshing the results failed', e));
}

/**
 * Reloads the loaded part of the results from the server, which leaves out businesses blocked since the scan
 * and carries any reasoning the AI model wrote since. A list that changed meanwhile (a new scan, a further page)
 * is left alone.
 */
export async function refreshProspects(queryClient: QueryClient): Promise<void> {
  // A scan under way will replace the list with its own answer, which may predate the change: apply the
  // refresh once that answer is on screen (scanSettled).
  if (queryClient.isMutating({ mutationKey: SCAN_MUTATION_KEY }) > 0) {
    refreshAfterScan.add(queryClient);
    return;
  }
  await reloadLoaded(queryClient);
}

async function reloadLoaded(queryClient: QueryClient): Promise<void> {
  const before = queryClient.getQueryData<ProspectList>(PROSPECTS_KEY);
  if (!before || before.prospects.length === 0) return;
  const page = await api.latestScan(0, Math.min(MAX_LOADED, before.prospects.length));
  if (queryClient.getQueryData(PROSPECTS_KEY) !== before) return;
  setProspectList(queryClient, {
    ...before,
    prospects: page.prospects,
    total: page.total,
    loadable: page.loadable ?? Math.min(MAX_LOADED, page.total),
  });
}

/**
 * Live updates: the server's event stream says what changed in the shared lists, and the
 * matching queries are refreshed (a `pipeline` notice patches the team pipeline); a blocked business leaves the current results at once. A `prospects` notice
 * (this user's own results changed on the server) reloads the loaded results; a `territories` notice reloads the
 * territories (their outlines and the scan settings' list). `onScan` receives the progress
 * notices of this user's scans.
 */
export function useLiveUpdates(enabled: boolean, onScan?: (notice: ScanNotice) => void) {
  const queryClient = useQueryClient();
  const scanHandler = useRef(onScan);
  useEffect(() => {
    scanHandler.current = onScan;
  }, [onScan]);
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events');
    const parse = <T>(e: MessageEvent<string>): T | null => {
      try {
        return JSON.parse(e.data) as T;
      } catch {
        return null;
      }
    };
    const onAdvertisers = () => void queryClient.invalidateQueries({ queryKey: ['advertisers'] });
    /** Notices may have been missed (the stream was down, or the server says so): reload what they change. */
    const resyncBlocks = () => {
      void queryClient.invalidateQueries({ queryKey: ['blocklist'] });
      refreshProspects(queryClient).catch((e: unknown) => console.warn('refreshing the results failed', e));
    };
    const onBlocklist = (e: MessageEvent<string>) => {
      const notice = parse<Notice>(e);
      if (notice?.action === 'resync') {
        resyncBlocks();
        return;
      }
      if (notice?.action === 'blocked' && notice.businessId) {
        const id = notice.businessId;
        updateProspects(queryClient, (list) => list.filter((p) => stableId(p) !== id));
      }
      void queryClient.invalidateQueries({ queryKey: ['blocklist'] });
    };
    const onScanNotice = (e: MessageEvent<string>) => {
      const notice = parse<ScanNotice>(e);
      if (notice) scanHandler.current?.(notice);
    };
    /** A business's owner or stage changed: its card and marker show it at once. */
    const onPipeline = (e: MessageEvent<string>) => {
      const notice = parse<Pick<AppEvent, 'action' | 'item'>>(e);
      const entry = notice?.action === 'resync' ? null : entryFromNotice(notice?.item);
      if (entry && queryClient.getQueryData(PIPELINE_KEY)) applyPipelineEntry(queryClient, entry);
      else void queryClient.invalidateQueries({ queryKey: PIPELINE_KEY });
    };
    /** A territory was made, changed or deleted: its outline and the scan settings' list are fetched again. */
    const onTerritories = () => void queryClient.invalidateQueries({ queryKey: TERRITORIES_KEY });
    const onProspects = () =>
      void refreshProspects(queryClient).catch((e: unknown) =>
        console.warn('refreshing the results failed', e),
      );
    // A stream that was down (dropped, or could not connect at first) may have missed notices: refresh what
    // they change once it is open again.
    let opens = 0;
    let failed = false;
    source.onerror = () => {
      failed = true;
    };
    source.onopen = () => {
      if (opens++ === 0 && !failed) return;
      failed = false;
      onAdvertisers();
      resyncBlocks();
      void queryClient.invalidateQueries({ queryKey: PIPELINE_KEY });
      onTerritories();
    };
    source.addEventListener('advertisers', onAdvertisers);
    source.addEventListener('blocklist', onBlocklist);
    source.addEventListener('scan', onScanNotice);
    source.addEventListener('pipeline', onPipeline);
    source.addEventListener('territories', onTerritories);
    // Sent to this user only: their latest results changed on the server (model-written reasoning arrived).
    source.addEventListener('prospects', onProspects);
    return () => source.close();
  }, [enabled, queryClient]);
}
