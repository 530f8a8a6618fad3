import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDialogs } from '../dialogs';
import { formatDateTime, fullAddress, scoreHex, scorePercent, scoreTextHex } from '../format';

import { updateProspects } from '../main/prospects';
import { stableId } from '../format';
import { ADMIN_KEYS, adminApi, TEAM_PAGE_SIZE } from './api';
import type { TeamProspect } from '../../core/api';
import { ErrorAlert, Loading, messageOf } from './common';
import { NO_PROSPECTS_TO_EXPORT } from './texts';

/** The All Prospects tab: every scanned prospect across the team, Export All and Block. */
export function AllProspectsTab() {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const [exporting, setExporting] = useState(false);
  // Fresh on every opening: blocks and scans made elsewhere change it. Pages of TEAM_PAGE_SIZE by score; Load
  // more asks for the next one while the server counts more than are loaded.
  const all = useInfiniteQuery({
    queryKey: ADMIN_KEYS.allProspects,
    queryFn: ({ pageParam }) => adminApi.allProspects(pageParam, TEAM_PAGE_SIZE),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.prospects.length, 0);
      return last.prospects.length > 0 && loaded < last.total ? loaded : undefined;
    },
    refetchOnMount: 'always',
  });
  // A business that moved between pages while loading (a rescan changed its score) is shown once.
  const prospects = uniqueById(all.data?.pages.flatMap((p) => p.prospects) ?? []);
  const total = all.data?.pages[all.data.pages.length - 1]?.total ?? 0;

  const block = useMutation({
    mutationFn: (p: TeamProspect) => adminApi.block(p.id, p.name),
    onSuccess: async (_r, p) => {
      updateProspects(queryClient, (list) => list.filter((x) => stableId(x) !== p.id));
      notify(`${p.name} was blocked for everyone.`, 'success');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.allProspects }),
        queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.blocklist }),
      ]);
    },
    onError: (error) => notify(messageOf(error), 'error'),
  });

  const exportAll = async () => {
    if (all.isSuccess && total === 0) {
      notify(NO_PROSPECTS_TO_EXPORT, 'error');
      return;
    }
    setExporting(true);
    try {
      await adminApi.exportAllProspects();
    } catch (error) {
      notify(messageOf(error), 'error');
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="all-prospects">
      <Group justify="space-between" wrap="wrap">
        <Text fw={600}>
          {all.isSuccess ? `${total} prospects scanned by the team` : 'Every scanned prospect'}
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => void all.refetch()} loading={all.isFetching}>
            Refresh
          </Button>
          <Button size="xs" onClick={() => void exportAll()} loading={exporting}>
            Export All
          </Button>
        </Group>
      </Group>
      {all.isPending && <Loading label="Loading all prospects..." />}
      {all.isError && <ErrorAlert message={messageOf(all.error)} />}
      {all.isSuccess && prospects.length === 0 && <Text c="dimmed">No prospects scanned yet.</Text>}
      {prospects.map((p) => (
        <Paper key={p.id} withBorder p="sm" radius="md" data-testid="team-prospect" aria-label={p.name}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={700} data-testid="team-prospect-name" style={{ overflowWrap: 'anywhere' }}>
                {p.name}
              </Text>
              <Text size="sm" c="dimmed">
                {p.category || 'Business'}
                {p.rating !== undefined ? ` · ${p.rating.toFixed(1)}★` : ''}
              </Text>
              {fullAddress(p) && (
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {fullAddress(p)}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                Scanned by {p.scannedBy.name ?? 'a former user'} · {formatDateTime(p.scannedAt)}
              </Text>
            </Stack>
            <Stack gap={6} align="flex-end">
              <Badge
                color={scoreHex(p.score)}
                style={{ color: scoreTextHex(p.score) }}
                aria-label={`Score ${scorePercent(p.score)}`}
              >
                {scorePercent(p.score)}
              </Badge>
              <Button
                size="compact-sm"
                color="red"
                variant="light"
                aria-label={`Block ${p.name}`}
                loading={block.isPending && block.variables.id === p.id}
                onClick={() => block.mutate(p)}
              >
                Block
              </Button>
            </Stack>
          </Group>
        </Paper>
      ))}
      {all.isSuccess && total > prospects.length && (
        <Stack gap={4} align="center">
          <Text size="sm" c="dimmed" data-testid="team-prospects-shown">
            Showing {prospects.length} of {total}
          </Text>
          <Button
            variant="light"
            onClick={() => void all.fetchNextPage()}
            loading={all.isFetchingNextPage}
            disabled={!all.hasNextPage}
          >
            Load more
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

function uniqueById(list: TeamProspect[]): TeamProspect[] {
  const seen = new Set<string>();
  return list.filter((p) => !seen.has(p.id) && (seen.add(p.id), true));
}
