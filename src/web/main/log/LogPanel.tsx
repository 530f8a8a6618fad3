import { Stack } from '@mantine/core';
import { useCallLogs } from '../prospects';
import { VisitsToday } from '../route/VisitsToday';
import { LogTab } from './LogTab';

const logPages = ({ data, hasMore, loadMore, loadingMore }: ReturnType<typeof useCallLogs>) => ({
  logs: data ?? [],
  hasMore,
  loadMore,
  loadingMore,
});

/** The Log tab: today's visits in order, then the user's call history (its own lazy chunk, loaded when opened). */
export function LogPanel() {
  return (
    <Stack gap="sm">
      <VisitsToday />
      <LogTab {...logPages(useCallLogs())} />
    </Stack>
  );
}
