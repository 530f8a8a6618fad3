import { useCallLogs } from '../prospects';
import { LogTab } from './LogTab';

/** The Log tab: the user's call history (its own lazy chunk, loaded when the tab is first opened). */
export function LogPanel() {
  return <LogTab logs={useCallLogs().data ?? []} />;
}
