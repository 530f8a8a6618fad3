import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { auditActionLabel } from '../../../core/audit';
import { useDialogs } from '../../dialogs';
import { formatDateTime } from '../../format';
import { plural } from '../team/figures';
import { ADMIN_KEYS, adminApi } from '../api';
import { ErrorAlert, Loading, ScrollBox, messageOf } from '../common';

const AUDIT_PAGE_SIZE = 25;

/** Audit Log (SuperAdmins): every admin action, newest first, paged, exportable. */
export function AuditSection() {
  const { notify } = useDialogs();
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const audit = useQuery({
    queryKey: ADMIN_KEYS.audit(page),
    queryFn: () => adminApi.audit(page, AUDIT_PAGE_SIZE),
  });
  const pages = Math.max(1, Math.ceil((audit.data?.total ?? 0) / AUDIT_PAGE_SIZE));
  const exportCsv = async () => {
    setExporting(true);
    try {
      await adminApi.exportAudit();
    } catch (error) {
      notify(messageOf(error), 'error');
    } finally {
      setExporting(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm">{audit.data ? plural(audit.data.total, 'entry', 'entries') : ''}</Text>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => void audit.refetch()} loading={audit.isFetching}>
            Refresh Log
          </Button>
          <Button size="xs" onClick={() => void exportCsv()} loading={exporting}>
            Export Audit Log
          </Button>
        </Group>
      </Group>
      {audit.isPending && <Loading label="Loading the audit log..." />}
      {audit.isError && <ErrorAlert message={messageOf(audit.error)} />}
      {audit.data && audit.data.entries.length === 0 && <Text c="dimmed">No admin actions yet.</Text>}
      {audit.data && audit.data.entries.length > 0 && (
        <ScrollBox minWidth={520} label="Audit log entries">
          <Table striped withTableBorder fz="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>On</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {audit.data.entries.map((e) => (
                <Table.Tr key={e.id} data-testid="audit-entry">
                  <Table.Td>{formatDateTime(e.createdAt)}</Table.Td>
                  <Table.Td>{e.actor.name}</Table.Td>
                  <Table.Td data-testid="audit-action" title={e.action}>
                    {auditActionLabel(e.action)}
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {e.target.label ?? e.target.id ?? e.target.type}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      )}
      {pages > 1 && (
        <Group gap="xs" justify="center">
          <Button size="compact-sm" variant="default" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <Text size="sm">
            Page {page} of {pages}
          </Text>
          <Button
            size="compact-sm"
            variant="default"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            Next
          </Button>
        </Group>
      )}
    </Stack>
  );
}
