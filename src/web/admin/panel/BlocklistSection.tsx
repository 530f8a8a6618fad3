import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDialogs } from '../../dialogs';
import { ADMIN_KEYS, adminApi } from '../api';
import { BlockedList, useBlocklist } from '../BlockedTab';
import { ErrorAlert, Loading, messageOf } from '../common';
import { blockedBusinesses, BLOCKLIST_LOAD_FAILED, clearBlocklistFailed } from '../texts';

/** Universal Blocklist Management (SuperAdmins): list, remove, clear with confirmation. */
export function BlocklistSection() {
  const queryClient = useQueryClient();
  const { notify, confirm } = useDialogs();
  const list = useBlocklist();
  const clear = useMutation({
    mutationFn: adminApi.clearBlocklist,
    onSuccess: (n) => notify(`Blocklist cleared (${n} removed).`, 'success'),
    onError: (error) => notify(clearBlocklistFailed(messageOf(error)), 'error'),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.blocklist }),
        queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.allProspects }),
      ]),
  });
  const count = list.data?.length ?? 0;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" data-testid="blocked-count">
          {list.isSuccess ? blockedBusinesses(count) : ''}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => void list.refetch()} loading={list.isFetching}>
            Refresh Blocklist
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            disabled={count === 0}
            loading={clear.isPending}
            onClick={() =>
              void confirm(
                `Clear the universal blocklist? ${count === 1 ? 'The blocked business' : `All ${blockedBusinesses(count)}`} will show in every user's scans again.`,
                'Clear Blocklist',
              ).then((ok) => ok && clear.mutate())
            }
          >
            Clear Blocklist
          </Button>
        </Group>
      </Group>
      {list.isPending && <Loading label="Loading universal blocklist..." />}
      {list.isError && <ErrorAlert message={BLOCKLIST_LOAD_FAILED} />}
      {list.isSuccess && <BlockedList items={list.data} testId="panel-blocked-item" />}
    </Stack>
  );
}
