// The Admin Panel's Billing section: upload the billing system's export, check what matched, import it; share
// amounts with reps or not; the lapsed advertisers, the warmest calls the team can make.
import { Badge, Button, Checkbox, FileInput, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { BillingReport, BillingSettings } from '../../../core/api';
import { formatDollars, monthName } from '../../../core/billing-text';
import { useDialogs } from '../../dialogs';
import { ADMIN_KEYS, adminApi } from '../api';
import { ErrorAlert, Loading, ScrollBox, messageOf } from '../common';

const EVIDENCE: Record<BillingReport['matched'][number]['matchedBy'][number], string> = {
  name: 'name',
  phone: 'phone',
  address: 'address',
  website: 'website',
};

/** 'March 2026' of '2026-03'. */
const monthYear = (m: string) => `${monthName(m)} ${m.slice(0, 4)}`;
const linesText = (lines: number[]) =>
  `${lines.length === 1 ? 'line' : 'lines'} ${lines.slice(0, 6).join(', ')}${lines.length > 6 ? '…' : ''}`;

export function BillingSection() {
  return (
    <Stack gap="md" data-testid="billing-section">
      <BillingImport />
      <ShareAmounts />
      <LapsedList />
    </Stack>
  );
}

/** Choose the file, see the preview, then import it. */
function BillingImport() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<BillingReport | null>(null);
  const run = useMutation({
    mutationFn: async ({ f, preview }: { f: File; preview: boolean }) =>
      adminApi.importBilling(await f.text(), preview),
    onSuccess: async (r) => {
      setReport(r);
      if (!r.preview) await queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.advertisers });
    },
    onError: () => setReport(null),
  });
  const choose = (f: File | null) => {
    setFile(f);
    setReport(null);
    run.reset();
  };

  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="xs">
        <Title order={4}>Import billing</Title>
        <Text size="sm" c="dimmed">
          The billing export as CSV: advertiser name, month and amount, with address, phone or website when
          you have them. Advertisers billed in the last few months become current advertisers; those who
          stopped are listed as lapsed. Importing replaces the billing of the months the file covers.
        </Text>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (file) run.mutate({ f: file, preview: true });
          }}
        >
          <Group align="flex-end" gap="xs" wrap="wrap">
            <FileInput
              label="Billing export (CSV)"
              accept=".csv,text/csv,text/plain"
              value={file}
              onChange={choose}
              clearable
              style={{ flex: '1 1 200px' }}
              data-testid="billing-file"
            />
            <Button
              type="submit"
              variant="default"
              disabled={!file}
              loading={run.isPending && run.variables.preview}
            >
              Preview
            </Button>
          </Group>
        </form>
        {run.isError && <ErrorAlert message={messageOf(run.error)} />}
        {report && <BillingReportView report={report} />}
        {report?.preview && file && (
          <Group>
            <Button
              onClick={() => run.mutate({ f: file, preview: false })}
              loading={run.isPending && !run.variables.preview}
              data-testid="billing-import"
            >
              Import {report.matched.length} matched{' '}
              {report.matched.length === 1 ? 'advertiser' : 'advertisers'}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function BillingReportView({ report }: { report: BillingReport }) {
  const { counts, months } = report;
  return (
    <Stack gap="xs" data-testid="billing-report">
      <Text fw={600} role="status">
        {report.preview ? 'Preview: ' : 'Imported: '}
        {report.matched.length} matched, {report.unmatched.length} unmatched, {monthYear(months.first)}
        {months.first !== months.last && ` to ${monthYear(months.last)}`}
      </Text>
      <Group gap="xs">
        <Badge variant="light" color="teal">
          {counts.current} current
        </Badge>
        <Badge variant="light" color="orange">
          {counts.lapsed} lapsed
        </Badge>
        <Badge variant="light" color="yellow">
          {counts.declining} declining
        </Badge>
      </Group>
      {report.unmatched.length > 0 && (
        <ScrollBox minWidth={300} label="Unmatched advertisers">
          <Table striped withTableBorder captionSide="top" data-testid="billing-unmatched">
            <Table.Caption>Not matched: correct these lines and upload again</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Advertiser</Table.Th>
                <Table.Th>Why</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.unmatched.map((u) => (
                <Table.Tr key={u.lines[0]}>
                  <Table.Td>
                    {u.advertiser}
                    <Text size="xs" c="dimmed">
                      {linesText(u.lines)}
                    </Text>
                  </Table.Td>
                  <Table.Td>{u.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      )}
      {report.matched.length > 0 && (
        <ScrollBox minWidth={300} label="Matched advertisers">
          <Table striped withTableBorder captionSide="top" data-testid="billing-matched">
            <Table.Caption>Matched</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Advertiser</Table.Th>
                <Table.Th>Business</Table.Th>
                <Table.Th>By</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.matched.map((m) => (
                <Table.Tr key={m.lines[0]}>
                  <Table.Td>{m.advertiser}</Table.Td>
                  <Table.Td>{m.businessName}</Table.Td>
                  <Table.Td>{m.matchedBy.map((e) => EVIDENCE[e]).join(', ')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      )}
    </Stack>
  );
}

/** "Share billing amounts with reps": admins always see them. */
function ShareAmounts() {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const settings = useQuery({ queryKey: ADMIN_KEYS.billingSettings, queryFn: adminApi.billingSettings });
  const update = useMutation({
    mutationFn: adminApi.updateBillingSettings,
    onSuccess: async (next) => {
      queryClient.setQueryData<BillingSettings>(ADMIN_KEYS.billingSettings, next);
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.lapsed });
    },
    onError: (error) => notify(messageOf(error), 'error'),
  });
  if (settings.isError) return <ErrorAlert message={messageOf(settings.error)} />;
  return (
    <Checkbox
      label="Share billing amounts with reps"
      description="Reps see when a lapsed advertiser last ran; with this on, also what it spent last year."
      checked={settings.data?.shareAmounts ?? false}
      disabled={!settings.data || update.isPending}
      onChange={(e) => update.mutate({ shareAmounts: e.currentTarget.checked })}
      data-testid="share-amounts"
    />
  );
}

function LapsedList() {
  const lapsed = useQuery({ queryKey: ADMIN_KEYS.lapsed, queryFn: adminApi.lapsed });
  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="xs">
        <Title order={4}>Lapsed advertisers{lapsed.data ? ` (${lapsed.data.lapsed.length})` : ''}</Title>
        {lapsed.isPending && <Loading label="Loading lapsed advertisers..." />}
        {lapsed.isError && <ErrorAlert message={messageOf(lapsed.error)} />}
        {lapsed.data?.lapsed.length === 0 && (
          <Text c="dimmed" size="sm">
            No lapsed advertisers: import billing to see who stopped buying.
          </Text>
        )}
        {(lapsed.data?.lapsed ?? []).map((l) => (
          <Group key={l.businessId} justify="space-between" wrap="nowrap" gap="xs" data-testid="lapsed-item">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {l.name}
              </Text>
              {l.address && (
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {l.address}
                </Text>
              )}
            </Stack>
            <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
              <Text size="sm">Last ran {monthYear(l.lastMonth)}</Text>
              {l.lastYearTotal !== undefined && (
                <Text size="sm" c="dimmed">
                  {formatDollars(l.lastYearTotal)} last year
                </Text>
              )}
            </Stack>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
