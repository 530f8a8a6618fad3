import { Badge, Button, FileInput, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Advertiser } from '../api';
import { useDialogs } from '../dialogs';
import { formatDateTime } from '../format';
import { useAdvertisers } from '../main/prospects';
import { ADMIN_KEYS, adminApi } from './api';
import type { ImportReport, MatchRule } from '../../core/api';
import { ErrorAlert, Loading, ScrollBox, messageOf } from './common';
import { NO_ADVERTISERS } from './texts';
import { removeAdvertiserFailed } from '../texts';

const RULE_LABEL: Record<MatchRule, string> = {
  phone: 'Phone',
  'name-and-address': 'Name and address',
  website: 'Website',
  address: 'Address',
  name: 'Name',
};

/** The Current Advertisers tab: business, who marked it and when, Remove; plus the customer-list import. */
export function AdvertisersTab() {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const list = useAdvertisers();

  const remove = useMutation({
    mutationFn: (a: Advertiser) => adminApi.unmarkAdvertiser(a.businessId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.advertisers }),
    onError: (error) => notify(removeAdvertiserFailed(messageOf(error)), 'error'),
  });

  return (
    <Stack gap="md" data-testid="advertisers-tab">
      <Stack gap="xs">
        {list.isPending && <Loading label="Loading current advertisers..." />}
        {list.isError && <ErrorAlert message={messageOf(list.error)} />}
        {list.isSuccess && list.data.length === 0 && <Text c="dimmed">{NO_ADVERTISERS}</Text>}
        {(list.data ?? []).map((a) => (
          <Paper key={a.businessId} withBorder p="sm" radius="md" data-testid="advertiser-item">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600} data-testid="advertiser-name" style={{ overflowWrap: 'anywhere' }}>
                  {a.label || a.businessId}
                </Text>
                <Text size="sm" c="dimmed" data-testid="advertiser-marked">
                  Marked by {a.markedByName} · {formatDateTime(a.markedAt)}
                </Text>
              </Stack>
              <Button
                size="compact-sm"
                variant="light"
                color="red"
                aria-label={`Remove ${a.label || a.businessId} from current advertisers`}
                loading={remove.isPending && remove.variables.businessId === a.businessId}
                onClick={() => remove.mutate(a)}
              >
                Remove
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
      <CustomerImport />
    </Stack>
  );
}

/** Import an existing customer list; matches become current advertisers; a report follows. */
function CustomerImport() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const run = useMutation({
    mutationFn: async (f: File) => adminApi.importAdvertisers(await f.text()),
    onSuccess: async (r) => {
      setReport(r);
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.advertisers });
    },
    onError: () => setReport(null),
  });

  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="xs">
        <Title order={4}>Import customer list</Title>
        <Text size="sm" c="dimmed">
          A CSV file with a header row and name, address, phone or website columns. Matching businesses are
          marked as current advertisers.
        </Text>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (file) run.mutate(file);
          }}
        >
          <Group align="flex-end" gap="xs" wrap="wrap">
            <FileInput
              label="Customer list (CSV)"
              accept=".csv,text/csv,text/plain"
              value={file}
              onChange={setFile}
              clearable
              style={{ flex: '1 1 200px' }}
            />
            <Button type="submit" disabled={!file} loading={run.isPending}>
              Import
            </Button>
          </Group>
        </form>
        {run.isError && <ErrorAlert message={messageOf(run.error)} />}
        {report && <ImportReportView report={report} />}
      </Stack>
    </Paper>
  );
}

function ImportReportView({ report }: { report: ImportReport }) {
  return (
    <Stack gap="xs" data-testid="import-report">
      <Text fw={600} role="status">
        {report.matched.length} matched ({report.newlyMarked} newly marked), {report.unmatched.length}{' '}
        unmatched
      </Text>
      {report.matched.length > 0 && (
        <ScrollBox minWidth={320} label="Matched rows">
          <Table striped withTableBorder>
            <Table.Caption>Matched rows</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Row</Table.Th>
                <Table.Th>Business</Table.Th>
                <Table.Th>Matched by</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.matched.map((m) => (
                <Table.Tr key={`${m.row}-${m.businessId}`}>
                  <Table.Td>{m.row}</Table.Td>
                  <Table.Td>
                    {m.label}{' '}
                    {m.alreadyMarked && (
                      <Badge size="xs" variant="light">
                        already marked
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{RULE_LABEL[m.rule]}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      )}
      {report.unmatched.length > 0 && (
        <ScrollBox minWidth={320} label="Unmatched rows">
          <Table striped withTableBorder>
            <Table.Caption>Unmatched rows</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Row</Table.Th>
                <Table.Th>Reason</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.unmatched.map((u) => (
                <Table.Tr key={u.row}>
                  <Table.Td>{u.row}</Table.Td>
                  <Table.Td>{u.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      )}
    </Stack>
  );
}
