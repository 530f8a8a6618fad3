import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { PASSWORDS_DO_NOT_MATCH } from '../../core/messages';
import { api } from '../api';
import { Logo } from '../Logo';

/** The page the e-mailed reset link opens: /reset-password?token=... */
export function ResetPasswordPage() {
  const params = new URLSearchParams(window.location.search);
  const token = params.get('token') ?? '';
  const linkError = params.get('error');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (password !== confirm) {
      setError(PASSWORDS_DO_NOT_MATCH);
      return;
    }
    setBusy(true);
    try {
      await api.resetPassword(password, token);
      setDone(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const usable = token !== '' && !linkError;

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420}>
        <Stack gap="md">
          <Logo size={44} />
          <Title order={1} size="h3">
            Choose a new password
          </Title>
          {!usable && (
            <Alert color="red" role="alert">
              This password reset link is invalid or has expired. Request a new one with &quot;Forgot
              password&quot; on the sign-in screen.
            </Alert>
          )}
          {done ? (
            <Alert color="green" role="status">
              Your password has been changed. You can now sign in with it.
            </Alert>
          ) : (
            usable && (
              <form onSubmit={(e) => void submit(e)} noValidate>
                <Stack gap="sm">
                  <PasswordInput
                    label="New Password"
                    autoComplete="new-password"
                    required
                    value={password}
                    onChange={(e) => setPassword(e.currentTarget.value)}
                    visibilityToggleButtonProps={{ 'aria-label': 'Show or hide password' }}
                  />
                  <PasswordInput
                    label="Confirm Password"
                    autoComplete="new-password"
                    required
                    value={confirm}
                    onChange={(e) => setConfirm(e.currentTarget.value)}
                    error={confirm && confirm !== password ? PASSWORDS_DO_NOT_MATCH : undefined}
                    visibilityToggleButtonProps={{ 'aria-label': 'Show or hide confirm password' }}
                  />
                  {error && (
                    <Alert color="red" role="alert">
                      {error}
                    </Alert>
                  )}
                  <Button type="submit" loading={busy}>
                    Set new password
                  </Button>
                </Stack>
              </form>
            )
          )}
          <Text size="sm">
            <Anchor href="/">Back to sign in</Anchor>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
