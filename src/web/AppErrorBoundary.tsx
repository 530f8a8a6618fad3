import { Component, type ReactNode } from 'react';
import { Alert, Button, Center, Stack } from '@mantine/core';
import { GENERIC_ERROR } from '../core/messages';

/** The last line of defence: a rendering error shows a way out instead of a blank page. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    console.error('The app failed to render', error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Center mih="100vh" p="md">
        <Stack align="center" maw={420}>
          <Alert color="red" title="Something went wrong" role="alert">
            {GENERIC_ERROR}
          </Alert>
          <Button onClick={() => window.location.reload()}>Reload</Button>
        </Stack>
      </Center>
    );
  }
}
