import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type CallLog } from '../../api';
import { useDialogs } from '../../dialogs';
import { directionsUrl, formatDateTime, websiteHref } from '../../format';
import { dueLabel } from '../../../core/follow-ups';
import { browserToday } from '../follow-ups/draft';
import { CallLink, DirectionsLink, WebsiteLink } from '../../ContactLinks';
import {
  CALL_HISTORY,
  CALL_HISTORY_CLEARED,
  confirmClearCallLog,
  LOAD_MORE_ENTRIES,
  NO_CALL_HISTORY,
  NO_CALL_HISTORY_TO_CLEAR,
  NO_CALL_HISTORY_TO_EXPORT,
} from '../../texts';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Hands a downloaded file to the browser under the given name. */
function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function LogEntry({
  entry,
  onDelete,
  deleting,
}: {
  entry: CallLog;
  onDelete: () => void;
  deleting: boolean;
}) {
  const website = websiteHref(entry.website);
  return (
    <Card withBorder padding="sm" radius="md" component="article" data-testid="log-entry">
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Text fw={700} data-testid="log-name">
              {entry.name}
            </Text>
            <Text size="sm">
              <strong data-testid="log-outcome">{entry.outcome}</strong>
              {entry.category ? ` · ${entry.category}` : ''}
            </Text>
            {entry.verified && (
              <Badge color="green" variant="light" size="sm" data-testid="verified-visit">
                Verified visit
              </Badge>
            )}
          </div>
          <Text size="xs" c="dimmed" ta="right">
            <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
          </Text>
        </Group>
        {entry.address && <Text size="sm">{entry.address}</Text>}
        {entry.phone && <Text size="sm">Phone: {entry.phone}</Text>}
        {entry.website && <Text size="sm">Website: {entry.website}</Text>}
        {entry.note && (
          <Text size="sm" data-testid="log-note">
            Note: {entry.note}
          </Text>
        )}
        {entry.followUp && (
          <Text size="sm" data-testid="log-follow-up">
            {entry.followUp.isMeeting ? 'Meeting' : 'Follow-up'}: {dueLabel(entry.followUp, browserToday())}
          </Text>
        )}
        <Group gap={6}>
          {entry.phone && <CallLink name={entry.name} phone={entry.phone} />}
          {entry.address && (
            <DirectionsLink
              name={entry.name}
              href={directionsUrl({ address: entry.address, lat: 0, lng: 0 })}
            />
          )}
          {website && <WebsiteLink name={entry.name} href={website} />}
          <Button
            size="xs"
            variant="subtle"
            color="red"
            loading={deleting}
            onClick={onDelete}
            aria-label={`Delete log entry for ${entry.name}`}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function LogTab({
  logs,
  hasMore = false,
  loadMore,
  loadingMore = false,
}: {
  logs: CallLog[];
  /** The server holds older entries than the ones shown: a "Load more" button asks for the next page. */
  hasMore?: boolean;
  loadMore?: () => Promise<unknown>;
  loadingMore?: boolean;
}) {
  const { notify, confirm } = useDialogs();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => api.deleteCallLog(id),
    onSuccess: (_v, id) =>
      queryClient.setQueryData<CallLog[]>(['callLogs'], (old) => old?.filter((e) => e.id !== id)),
    onError: (error) => notify(error.message, 'error'),
  });

  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    if (logs.length === 0) {
      notify(NO_CALL_HISTORY_TO_EXPORT);
      return;
    }
    // Fetched first, so a refusal is shown as the server's message instead of being saved as the file; the
    // server names the file call_log_{user}_{date}.csv.
    setExporting(true);
    try {
      const { blob, fileName } = await api.exportCallLogs();
      saveFile(blob, fileName ?? 'call_log.csv');
    } catch (error) {
      console.error('call log export failed', error);
      notify(error instanceof Error ? error.message : String(error), 'error');
    } finally {
      setExporting(false);
    }
  };

  const clearAll = async () => {
    if (logs.length === 0) {
      notify(NO_CALL_HISTORY_TO_CLEAR);
      return;
    }
    if (!(await confirm(confirmClearCallLog(hasMore ? null : logs.length), 'Clear All'))) return;
    try {
      await api.clearCallLogs();
      queryClient.setQueryData<CallLog[]>(['callLogs'], []);
      notify(CALL_HISTORY_CLEARED, 'success');
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), 'error');
    }
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {CALL_HISTORY}
        </Title>
        <Group gap={6}>
          <Button size="xs" variant="light" onClick={() => void exportCsv()} loading={exporting}>
            Export to CSV
          </Button>
          <Button size="xs" variant="outline" color="red.9" onClick={() => void clearAll()}>
            Clear All
          </Button>
        </Group>
      </Group>
      {logs.length === 0 ? (
        <Text c="dimmed">{NO_CALL_HISTORY}</Text>
      ) : (
        logs.map((entry) => (
          <LogEntry
            key={entry.id}
            entry={entry}
            deleting={remove.isPending && remove.variables === entry.id}
            onDelete={() => remove.mutate(entry.id)}
          />
        ))
      )}
      {hasMore && loadMore && (
        <Button
          variant="default"
          onClick={() => void loadMore().catch((error: unknown) => notify(errorText(error), 'error'))}
          loading={loadingMore}
          data-testid="log-load-more"
        >
          {LOAD_MORE_ENTRIES}
        </Button>
      )}
    </Stack>
  );
}
