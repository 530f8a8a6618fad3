// A list the server answers a page at a time (the Log, Today). The query cache keeps it as one array under its
// key, as every other list, so the writes that add or remove an entry and the offline cache treat it alike;
// the cursor of the next page sits beside it under [key, 'nextCursor']. "Load more" appends the next page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

// The server's page sizes: a refetch reads at least what is shown, up to the server's largest page.
import { PAGE_SIZE, PAGE_SIZE_MAX } from '../../core/api/limits';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export function usePagedList<T extends { id: string }>(
  key: 'callLogs' | 'followUps',
  fetchPage: (cursor?: string | null, limit?: number) => Promise<Page<T>>,
) {
  const client = useQueryClient();
  const cursorKey = [key, 'nextCursor'];
  const query = useQuery({
    queryKey: [key],
    queryFn: async () => {
      // A refetch (after a write, back online) keeps the entries the rep had loaded, up to the largest page.
      const shown = client.getQueryData<T[]>([key])?.length ?? 0;
      const limit = Math.min(PAGE_SIZE_MAX, shown);
      const page = await fetchPage(null, limit > PAGE_SIZE ? limit : undefined);
      client.setQueryData(cursorKey, page.nextCursor);
      return page.items;
    },
  });
  const cursor = useQuery<string | null>({
    queryKey: cursorKey,
    queryFn: () => client.getQueryData<string | null>(cursorKey) ?? null,
    enabled: false,
  }).data;
  const more = useMutation({
    mutationFn: async () => {
      const from = client.getQueryData<string | null>(cursorKey);
      return from ? fetchPage(from) : { items: [], nextCursor: null };
    },
    onSuccess: (page) => {
      client.setQueryData<T[]>([key], (old = []) => {
        const seen = new Set(old.map((e) => e.id));
        return [...old, ...page.items.filter((e) => !seen.has(e.id))];
      });
      client.setQueryData(cursorKey, page.nextCursor);
    },
  });
  return {
    query,
    /** Whether the server holds entries past the ones loaded. */
    hasMore: typeof cursor === 'string' && cursor !== '',
    loadMore: () => more.mutateAsync(),
    loadingMore: more.isPending,
  };
}
