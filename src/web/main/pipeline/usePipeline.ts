// The team pipeline on the main screen: every business someone works, kept in one query
// (['pipeline']) that the live-update stream patches, and the card's stage, reassign and release handlers.
import { useMemo } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Prospect } from '../../../core/types';
import { api, type Advertiser, type PipelineEntry } from '../../api';
import { useDialogs } from '../../dialogs';
import { stableId } from '../../format';
import { useMe } from '../../session';

export const PIPELINE_KEY = ['pipeline'] as const;

export const usePipeline = () =>
  useQuery({ queryKey: PIPELINE_KEY, queryFn: api.pipeline, staleTime: 60_000 });

/** The entries by business id (a new map only when the list changed, so memoized cards and markers keep). */
export function usePipelineById(): Map<string, PipelineEntry> {
  const { data } = usePipeline();
  return useMemo(() => new Map((data ?? []).map((e) => [e.businessId, e])), [data]);
}

/** Puts one changed entry into the list (a released one leaves it: only worked businesses are listed). */
export function applyPipelineEntry(queryClient: QueryClient, entry: PipelineEntry): void {
  queryClient.setQueryData<PipelineEntry[]>(PIPELINE_KEY, (old) => {
    if (!old) return old;
    const rest = old.filter((e) => e.businessId !== entry.businessId);
    return entry.ownerId === null ? rest : [...rest, entry];
  });
}

/** A live notice's entry, when it carries a usable one. */
export function entryFromNotice(item: unknown): PipelineEntry | null {
  if (!item || typeof item !== 'object') return null;
  const e = item as Partial<PipelineEntry>;
  if (typeof e.businessId !== 'string' || typeof e.stage !== 'string' || typeof e.since !== 'string')
    return null;
  if (e.ownerId !== null && typeof e.ownerId !== 'string') return null;
  return e as PipelineEntry;
}

export function usePipelineActions() {
  const queryClient = useQueryClient();
  const me = useMe();
  const { confirm } = useDialogs();
  const apply = (entry: PipelineEntry) => applyPipelineEntry(queryClient, entry);
  return {
    onStage: async (p: Prospect, stage: PipelineEntry['stage']) => {
      const id = stableId(p);
      // Won: the rep says whether the business becomes a current advertiser too (it used to happen silently).
      const marked = queryClient
        .getQueryData<Advertiser[]>(['advertisers'])
        ?.some((a) => a.businessId === id);
      const markAdvertiser =
        stage === 'Won' && !marked
          ? await confirm(`${p.name} is won. Mark it as a current advertiser too?`, 'Mark as advertiser', {
              cancelLabel: 'Won only',
            })
          : undefined;
      // Offline the stage is queued and shown as the rep's own meanwhile.
      apply(await api.setStage(id, stage, p.name, { id: me.id, name: me.name }, markAdvertiser));
      if (markAdvertiser) await queryClient.invalidateQueries({ queryKey: ['advertisers'] });
    },
    onReassign: async (p: Prospect, userId: string) => {
      apply(await api.reassignPipeline(stableId(p), userId));
    },
    onRelease: async (p: Prospect) => {
      apply(await api.releasePipeline(stableId(p)));
    },
    /** A logged call may have claimed the business: read the list again. */
    afterCallLog: () => void queryClient.invalidateQueries({ queryKey: PIPELINE_KEY }),
  };
}
