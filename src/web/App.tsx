import { Alert, Button, Center, Loader, Stack } from '@mantine/core';
import { AuthScreen } from './auth/AuthScreen';
import { ResetPasswordPage } from './auth/ResetPasswordPage';
import { MainScreen } from './main/MainScreen';
import { useSession } from './session';

export function App() {
  const session = useSession();
  if (window.location.pathname === '/reset-password') return <ResetPasswordPage />;
  if (session.isPending) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
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
