import { lazy, Suspense } from 'react';
import { Alert, Button, Center, Stack } from '@mantine/core';
import { SUBTITLE } from './texts';
import { useSession } from './session';

// Each screen is its own chunk: a signed-out visitor downloads the sign-in form only, a rep
// the main screen only; the first script holds React, Mantine's core and the session check.
const AuthScreen = lazy(() => import('./auth/AuthScreen').then((m) => ({ default: m.AuthScreen })));
const MainScreen = lazy(() => import('./main/MainScreen').then((m) => ({ default: m.MainScreen })));
const ResetPasswordPage = lazy(() =>
  import('./auth/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
);

/** The loading shell of index.html (shell.css), so nothing moves or flashes between it and React's. */
const loading = (
  <div className="boot-shell">
    <header className="app-header">
      <div className="boot-brand">
        <img src="/favicon.svg" width={40} height={40} alt="" />
        <div>
          <p className="boot-title">Prospect Finder</p>
          <p className="boot-subtitle">{SUBTITLE}</p>
        </div>
      </div>
    </header>
    <div className="boot-spinner" role="status" aria-label="Loading" />
  </div>
);

export function App() {
  return (
    <Suspense fallback={loading}>
      <Screen />
    </Suspense>
  );
}

function Screen() {
  const session = useSession();
  if (window.location.pathname === '/reset-password') return <ResetPasswordPage />;
  if (session.isPending) return loading;
  // Offline with the rep's lists on the device: the cached profile opens the main screen.
  if (session.isError && session.data) return <MainScreen />;
  if (session.isError) {
    return (
      <Center h="100vh" p="md">
        <Stack align="center">
          <Alert color="red" title="Could not reach the server">
            {session.error.message}
          </Alert>
          <Button onClick={() => void session.refetch()}>Try again</Button>
        </Stack>
      </Center>
    );
  }
  return session.data ? <MainScreen /> : <AuthScreen />;
}
