import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDialogs } from '../../dialogs';
import { ADMIN_KEYS, adminApi } from '../api';
import { ErrorAlert, Loading, messageOf } from '../common';
import { Stat } from './Stat';

/** Cache Management: stats for admins; clearing for SuperAdmins (the server clears for real). */
export function CacheSection({ canClear }: { canClear: boolean }) {
  const queryClient = useQueryClient();
  const { notify, confirm } = useDialogs();
  const stats = useQuery({ queryKey: ADMIN_KEYS.cache, queryFn: adminApi.cacheStats });
  const clear = useMutation({
    mutationFn: adminApi.clearCache,
    onSuccess: () => notify('AI cache cleared', 'success'),
    onError: (error) => notify(messageOf(error), 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.cache }),
  });
  return (
    <Stack gap="xs">
      {stats.isPending && <Loading label="Loading cache stats..." />}
      {stats.isError && <ErrorAlert message={messageOf(stats.error)} />}
      {stats.data && (
        <>
          <SimpleGrid cols={3} spacing="xs">
            <Stat label="Total" value={stats.data.total} />
            <Stat label="Valid" value={stats.data.valid} />
            <Stat label="Expired" value={stats.data.expired} />
          </SimpleGrid>
          {stats.data.modelVersion && (
            <Text size="xs" c="dimmed">
              Analysis model {stats.data.modelVersion}
              {stats.data.expiryDays ? `, entries valid ${stats.data.expiryDays} days` : ''}
              {stats.data.businesses !== undefined ? `, ${stats.data.businesses} businesses cached` : ''}
            </Text>
          )}
        </>
      )}
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => void stats.refetch()} loading={stats.isFetching}>
          Refresh Stats
        </Button>
        {canClear && (
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={clear.isPending}
            onClick={() =>
              void confirm(
                'Clear the AI cache? Every business is analysed afresh on its next scan.',
                'Clear Cache',
              ).then((ok) => ok && clear.mutate())
            }
          >
            Clear AI Cache
          </Button>
        )}
      </Group>
    </Stack>
  );
}
