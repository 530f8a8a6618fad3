import { Button, Group, SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDialogs } from '../../dialogs';
import { formatDateTime } from '../../format';
import { ADMIN_KEYS, adminApi } from '../api';
import { ErrorAlert, Loading, ScrollBox, messageOf } from '../common';
import { Stat } from './Stat';

const CHECK_STATE_COLOR = { waiting: 'dimmed', done: 'green.8', failed: 'orange.9' } as const;

/**
 * Website checks (admins): the queue (waiting, done, failed), the latest checks with what came of them, and a
 * re-check of one business.
 */
export function WebsiteChecksSection() {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const checks = useQuery({ queryKey: ADMIN_KEYS.websiteChecks, queryFn: adminApi.websiteChecks });
  const recheck = useMutation({
    mutationFn: adminApi.recheckWebsite,
    onSuccess: () => notify('Website check queued.', 'success'),
    onError: (error) => notify(messageOf(error), 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.websiteChecks }),
  });
  const data = checks.data;
  return (
    <Stack gap="xs">
      {checks.isPending && <Loading label="Loading the website checks..." />}
      {checks.isError && <ErrorAlert message={messageOf(checks.error)} />}
      {data && !data.enabled && (
        <Text size="sm" c="dimmed">
          Website checks are switched off on this server (WEBSITE_CHECKS=off).
        </Text>
      )}
      {data && (
        <SimpleGrid cols={3} spacing="xs">
          <Stat label="Waiting" value={data.waiting} />
          <Stat label="Done" value={data.done} />
          <Stat label="Failed" value={data.failed} />
        </SimpleGrid>
      )}
      {data && data.recent.length > 0 && (
        <ScrollBox minWidth={560} label="Latest website checks">
          <Table striped withTableBorder fz="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Business</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Why</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Re-check</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.recent.map((r) => (
                <Table.Tr key={r.id} data-testid="website-check">
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {r.name ?? r.businessKey}
                    {r.website && (
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {r.website}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" fw={700} c={CHECK_STATE_COLOR[r.state]}>
                      {r.state}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.reason ?? r.outcome ?? ''}</Table.Td>
                  <Table.Td>{formatDateTime(r.updatedAt)}</Table.Td>
                  <Table.Td>
                    {r.state !== 'waiting' && data.enabled && (
                      <Button
                        size="compact-xs"
                        variant="light"
                        aria-label={`Check ${r.name ?? r.businessKey} again`}
                        loading={recheck.isPending && recheck.variables === r.businessKey}
                        onClick={() => recheck.mutate(r.businessKey)}
                      >
                        Re-check
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      )}
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => void checks.refetch()} loading={checks.isFetching}>
          Refresh
        </Button>
      </Group>
    </Stack>
  );
}
