import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Prospect } from '../../core/types';
import { api, ApiError, type ScanResult } from '../api';
import { MAX_LOADED } from '../defaults';
import { useOutbox } from '../offline/outbox';
import { overlayCallLogs, overlaySaved } from '../offline/overlay';
import { usePagedList } from './paged';

/** The prospects on screen: the loaded pages of the latest scan (or a quick-search result). */
export interface ProspectList {
  prospects: Prospect[];
  /** How many the scan found in all. */
  total: number;
  /** How many can be loaded: min(100, total) for a scan, the list itself for a quick search. */
  loadable: number;
  /** The results are the demo provider's examples (no place data configured). */
  demo?: boolean;
  /** A search's results (possibly none), rather than no search at all. */
  searched?: boolean;
  /** The search found nothing and the server's imported place data does not cover the area. */
  noLocalData?: boolean;
}

export const PROSPECTS_KEY = ['prospects'] as const;
export const EMPTY_LIST: ProspectList = { prospects: [], total: 0, loadable: 0 };

/** On sign-in the latest scan's prospects are restored (its first page). */
export function useProspectList(pageSize: number) {
  return useQuery<ProspectList>({
    queryKey: PROSPECTS_KEY,
    queryFn: async () => {
      try {
        const page = await api.latestScan(0, pageSize);
        return {
          prospects: page.prospects,
          total: page.total,
          loadable: page.loadable ?? Math.min(MAX_LOADED, page.total),
          demo: page.prospects.some((p) => p.source === 'demo'),
          searched: page.searchId !== null,
        };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return EMPTY_LIST;
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

/** A scan's or quick search's first page as the list on screen (further pages load up to MAX_LOADED). */
export const listOfResult = (result: ScanResult): ProspectList => ({
  prospects: result.prospects,
  total: result.total,
  loadable: Math.min(MAX_LOADED, result.total),
  demo: result.demo,
  searched: true,
  noLocalData: result.noLocalData === true,
});

export function setProspectList(client: QueryClient, list: ProspectList) {
  client.setQueryData(PROSPECTS_KEY, list);
}

export function updateProspects(client: QueryClient, change: (list: Prospect[]) => Prospect[]) {
  client.setQueryData<ProspectList>(PROSPECTS_KEY, (old) => {
    if (!old) return old;
    const prospects = change(old.prospects);
    const removed = old.prospects.length - prospects.length;
    return {
      ...old,
      prospects,
      total: Math.max(0, old.total - Math.max(0, removed)),
      loadable: Math.max(prospects.length, old.loadable - Math.max(0, removed)),
    };
  });
}

export const useProspectsClient = () => useQueryClient();

export const useAdvertisers = () =>
  useQuery({ queryKey: ['advertisers'], queryFn: api.advertisers, staleTime: 60_000 });
/** Saved, with the saves and removals still waiting in the outbox. */
export function useSaved() {
  const query = useQuery({ queryKey: ['saved'], queryFn: api.saved });
  const { items } = useOutbox();
  return { ...query, data: overlaySaved(query.data, items) };
}
/** The Log's loaded pages, with the calls still waiting in the outbox first, and its "Load more". */
export function useCallLogs() {
  const { query, ...paging } = usePagedList('callLogs', api.callLogPage);
  const { items } = useOutbox();
  return { ...query, ...paging, data: overlayCallLogs(query.data, items) };
}
