import { useEffect, useState } from 'react';
import { Button, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { INSTALL_PROMPT_DELAY_MS } from '../defaults';

/** Chromium's install event (not in the DOM typings). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** Not Now holds for this browser session (a reload does not ask again); Don't Ask Again is in the profile. */
const NOT_NOW_KEY = 'pf.installPrompt.notNow';

function notNowThisSession(): boolean {
  try {
    return window.sessionStorage.getItem(NOT_NOW_KEY) === '1';
  } catch {
    return false; // storage refused (private mode): ask as usual
  }
}

function rememberNotNow(): void {
  try {
    window.sessionStorage.setItem(NOT_NOW_KEY, '1');
  } catch {
    // storage refused: Not Now holds until the page is reloaded
  }
}

function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

/**
 * The install-app prompt: after 3 seconds or as soon as the browser offers installation. Don't Ask Again
 * is remembered per user (profile), Not Now hides it for this browser session, Install runs the browser's prompt. Where
 * the browser has no prompt, the manual steps for iPhone, Android and desktop are shown.
 */
export function InstallPrompt(props: { dismissed: boolean; blocked: boolean; onDontAskAgain: () => void }) {
  const [deferred, setDeferred] = useState<BeforeInstallPromptEvent | null>(null);
  const [due, setDue] = useState(false);
  const [closed, setClosed] = useState(notNowThisSession);

  useEffect(() => {
    const onPrompt = (e: Event) => {
      e.preventDefault();
      setDeferred(e as BeforeInstallPromptEvent);
      setDue(true);
    };
    const onInstalled = () => setClosed(true);
    window.addEventListener('beforeinstallprompt', onPrompt);
    window.addEventListener('appinstalled', onInstalled);
    const timer = window.setTimeout(() => setDue(true), INSTALL_PROMPT_DELAY_MS);
    return () => {
      window.removeEventListener('beforeinstallprompt', onPrompt);
      window.removeEventListener('appinstalled', onInstalled);
      window.clearTimeout(timer);
    };
  }, []);

  const opened = due && !closed && !props.dismissed && !props.blocked && !isStandalone();

  const install = async () => {
    if (!deferred) return;
    await deferred.prompt();
    await deferred.userChoice;
    setDeferred(null);
    setClosed(true);
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={opened}
      onClose={() => {
        // Closing it is a Not Now.
        rememberNotNow();
        setClosed(true);
      }}
      title="Install Prospect Finder"
      centered
    >
      <Stack gap="sm">
        <Text>Install the app on your phone or computer to open it in one tap, even with a weak signal.</Text>
        {!deferred && (
          <Stack gap={6} data-testid="install-instructions">
            <Title order={3} size="h6">
              iPhone / iPad (Safari)
            </Title>
            <List size="sm">
              <List.Item>Tap the Share button, then &quot;Add to Home Screen&quot;.</List.Item>
            </List>
            <Title order={3} size="h6">
              Android (Chrome)
            </Title>
            <List size="sm">
              <List.Item>
                Open the ⋮ menu, then &quot;Install app&quot; or &quot;Add to Home screen&quot;.
              </List.Item>
            </List>
            <Title order={3} size="h6">
              Desktop (Chrome, Edge)
            </Title>
            <List size="sm">
              <List.Item>
                Click the install icon at the right of the address bar, or use the browser menu →
                &quot;Install&quot;.
              </List.Item>
            </List>
          </Stack>
        )}
        <Group justify="flex-end" gap="xs">
          <Button
            variant="subtle"
            color="gray"
            onClick={() => {
              setClosed(true);
              props.onDontAskAgain();
            }}
          >
            Don&apos;t Ask Again
          </Button>
          <Button
            variant="default"
            onClick={() => {
              rememberNotNow();
              setClosed(true);
            }}
          >
            Not Now
          </Button>
          {deferred && <Button onClick={() => void install()}>Install</Button>}
        </Group>
      </Stack>
    </Modal>
  );
}
