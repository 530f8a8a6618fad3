// Registers the main screen's own tabs (Prospects, Today, Saved, Log) in extensions.ts, as admin/register.tsx
// registers the admin tabs after them. A new tab is one more entry here or in its own module.
import { lazy } from 'react';
import { mainTabs } from '../extensions';
import { ProspectsPanel } from './scan/ProspectsPanel';
import { SavedPanel } from './saved/SavedPanel';
import { useCallLogs, useSaved } from './prospects';
import { useMainScreen } from './screen';
import { useDueCount } from './follow-ups/useFollowUps';

// The Log tab is its own chunk, loaded when opened (the Prospects tab is the first screen).
const LogPanel = lazy(() => import('./log/LogPanel').then((m) => ({ default: m.LogPanel })));
// The Today tab: its panel is a chunk of its own; the label's count is the only part loaded at once.
const TodayPanel = lazy(() => import('./follow-ups/TodayPanel').then((m) => ({ default: m.TodayPanel })));

if (!mainTabs.some((t) => t.value === 'prospects')) {
  mainTabs.push(
    {
      value: 'prospects',
      label: 'Prospects',
      useCount: () => useMainScreen().scan.list.data?.prospects.length ?? 0,
      render: () => <ProspectsPanel />,
    },
    {
      value: 'today',
      label: 'Today',
      useCount: useDueCount,
      render: () => <TodayPanel />,
    },
    {
      value: 'saved',
      label: 'Saved',
      useCount: () => useSaved().data?.length ?? 0,
      render: () => <SavedPanel />,
    },
    {
      value: 'log',
      label: 'Log',
      useCount: () => {
        // The Log comes a page at a time: "200+" while the server holds more.
        const log = useCallLogs();
        const loaded = log.data?.length ?? 0;
        return log.hasMore ? `${loaded}+` : loaded;
      },
      render: () => <LogPanel />,
    },
  );
}
