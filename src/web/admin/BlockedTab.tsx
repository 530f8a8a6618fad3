import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDialogs } from '../dialogs';
import { formatDateTime } from '../format';
import { ADMIN_KEYS, adminApi } from './api';
import type { BlockedItem } from '../../core/api';
import { ErrorAlert, Loading, messageOf } from './common';
import { BLOCKLIST_LOAD_FAILED, NO_BLOCKED } from './texts';

export const useBlocklist = () =>
  useQuery({ queryKey: ADMIN_KEYS.blocklist, queryFn: adminApi.blocklist, refetchOnMount: 'always' });

/** Remove from the shared blocklist; every list that shows it is refreshed. */
export function useUnblock() {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  return useMutation({
    mutationFn: (item: BlockedItem) => adminApi.unblock(item.businessId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.blocklist }),
        queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.allProspects }),
      ]),
    onError: (error) => notify(messageOf(error), 'error'),
  });
}

export function BlockedList({ items, testId }: { items: BlockedItem[]; testId: string }) {
  const unblock = useUnblock();
  if (items.length === 0) return <Text c="dimmed">{NO_BLOCKED}</Text>;
  return (
    <Stack gap="xs">
      {items.map((item) => (
        <Paper key={item.businessId} withBorder p="sm" radius="md" data-testid={testId}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={600} data-testid="blocked-name" style={{ overflowWrap: 'anywhere' }}>
                {item.label}
              </Text>
              {/* The name and address say which business it is; the internal id means nothing to an admin. */}
              {item.address && (
                <Text size="xs" c="dimmed" data-testid="blocked-address" style={{ overflowWrap: 'anywhere' }}>
                  {item.address}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                Blocked{item.blockedByName ? ` by ${item.blockedByName}` : ''} ·{' '}
                {formatDateTime(item.blockedAt)}
              </Text>
            </Stack>
            <Button
              size="compact-sm"
              variant="light"
              aria-label={`Remove ${item.label} from the blocklist`}
              loading={unblock.isPending && unblock.variables.businessId === item.businessId}
              onClick={() => unblock.mutate(item)}
            >
              Remove
            </Button>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** The Blocked tab: blocked items with Remove; 'No blocked businesses' when empty. */
export function BlockedTab() {
  const list = useBlocklist();
  return (
    <Stack gap="sm" data-testid="blocked-tab">
      {list.isPending && <Loading label="Loading blocked businesses..." />}
      {list.isError && <ErrorAlert message={BLOCKLIST_LOAD_FAILED} />}
      {list.isSuccess && <BlockedList items={list.data} testId="blocked-item" />}
    </Stack>
  );
}
