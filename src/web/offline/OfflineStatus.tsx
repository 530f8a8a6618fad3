// The offline status on the main screen. Offline: a banner with the number of writes waiting and when the
// device last synced; online with writes still waiting: "Sending N changes…". Writes the server refused on
// replay are listed with its reason until the rep dismisses each one.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  closeOutbox,
  dismiss,
  noteSynced,
  openOutbox,
  setAfterSync,
  useOutbox,
  waitingWrites,
} from './outbox';
import { persistQueryCache } from './persist';
import { setLastUserId } from './db';
import { useOnline } from './useOnline';
import { lastSyncedLine, OFFLINE_TITLE, REFUSED_TITLE, sendingLine, waitingLine } from './texts';

const SYNCED_LISTS = new Set(['saved', 'callLogs', 'followUps']);

/** Opens the signed-in rep's outbox and keeps their query cache on the device while the main screen is up. */
export function useOfflineSession(userId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    setLastUserId(userId);
    void openOutbox(userId);
    setAfterSync(() => {
      for (const key of ['saved', 'callLogs', 'followUps', 'pipeline', 'advertisers', 'visits']) {
        void queryClient.invalidateQueries({ queryKey: [key] });
      }
    });
    const stop = persistQueryCache(queryClient, userId);
    // The rep's lists read from the server: "Last synced" moves on.
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      const key = (event.query as { queryKey: readonly unknown[] }).queryKey;
      if (SYNCED_LISTS.has(String(key[0]))) noteSynced();
    });
    return () => {
      unsubscribe();
      stop();
      setAfterSync(null);
      closeOutbox();
    };
  }, [queryClient, userId]);
}

export function OfflineStatus() {
  const online = useOnline();
  const outbox = useOutbox();
  const waiting = waitingWrites(outbox).length;
  const refused = outbox.items.filter((w) => w.refused);
  if (online && waiting === 0 && refused.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="offline-status">
      {!online ? (
        <Alert
          color="orange"
          variant="light"
          title={OFFLINE_TITLE}
          role="status"
          data-testid="offline-banner"
        >
          <Text size="sm" data-testid="offline-waiting">
            {waitingLine(waiting)}
          </Text>
          <Text size="sm" data-testid="offline-last-synced">
            {lastSyncedLine(outbox.lastSynced)}
          </Text>
        </Alert>
      ) : (
        waiting > 0 && (
          <Alert color="blue" variant="light" role="status" data-testid="offline-sending">
            <Text size="sm">{sendingLine(waiting)}</Text>
            <Text size="sm">{lastSyncedLine(outbox.lastSynced)}</Text>
          </Alert>
        )
      )}
      {refused.map((w) => (
        <Alert key={w.seq} color="red" variant="light" title={REFUSED_TITLE} data-testid="refused-write">
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {w.label}
            </Text>
            <Text size="sm" data-testid="refused-reason">
              {w.refused?.reason}
            </Text>
            <Group>
              <Button
                size="xs"
                variant="default"
                onClick={() => w.seq !== undefined && void dismiss(w.seq)}
                aria-label={`Dismiss: ${w.label}`}
              >
                Dismiss
              </Button>
            </Group>
          </Stack>
        </Alert>
      ))}
    </Stack>
  );
}
