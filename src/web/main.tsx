import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider, createTheme } from '@mantine/core';
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import './mantine.css';
import './styles.css';
import './shell.css';
import './touch.css';
import './admin/register';
import './strategy/register';
import { App } from './App';
import { DialogsProvider } from './dialogs';
import { isUnauthenticated, setSessionLostHandler } from './api';
import { ME_KEY } from './session';
import { AppErrorBoundary } from './AppErrorBoundary';
import { restoreQueryCache } from './offline/persist';

const theme = createTheme({
  primaryColor: 'blue',
  // Darker filled shades so text on and in the primary colours meets WCAG AA contrast (axe-checked).
  primaryShade: { light: 8, dark: 8 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 401 means signed out: retrying cannot help.
      retry: (count, error) => !isUnauthenticated(error) && count < 2,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    // Writes run offline too; the API client queues them in the outbox (src/web/offline).
    mutations: { networkMode: 'always' },
  },
});

// A request that finds the session gone returns the app to the sign-in screen, leaving no user data behind.
setSessionLostHandler(() => {
  if (queryClient.getQueryData(ME_KEY) === null) return;
  void queryClient.cancelQueries();
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
  queryClient.setQueryData(ME_KEY, null);
});

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// Rendered as a transition: React renders the app in short slices the browser can interleave with other
// work, instead of one long task that blocks a phone's main thread (Lighthouse's blocking time).
const reactRoot = createRoot(root);
const render = () =>
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <MantineProvider theme={theme} defaultColorScheme="light">
          <QueryClientProvider client={queryClient}>
            <DialogsProvider>
              <AppErrorBoundary>
                <App />
              </AppErrorBoundary>
            </DialogsProvider>
          </QueryClientProvider>
        </MantineProvider>
      </StrictMode>,
    ),
  );

// TanStack Query assumes a connection until an 'offline' event: a page opened offline says so from the start,
// so its queries wait for the connection instead of failing.
onlineManager.setOnline(navigator.onLine);

// Offline, the last signed-in rep's lists come back from the device first (so a reload offline shows
// them); the session is asked again when the connection returns.
void Promise.race([restoreQueryCache(queryClient), new Promise((r) => setTimeout(r, 1500))]).then(() => {
  if (queryClient.getQueryData(ME_KEY) !== undefined)
    void queryClient.invalidateQueries({ queryKey: ME_KEY });
  render();
});
