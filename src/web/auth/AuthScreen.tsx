import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  FORGOT_PASSWORD_NEEDS_EMAIL,
  INVITATION_ERROR,
  INVITATION_INVALID,
  INVITATION_VALIDATING,
  PASSWORDS_DO_NOT_MATCH,
  RESET_EMAIL_SENT,
} from '../../core/messages';
import { api, ApiError } from '../api';
import { waitHint } from '../format';
import { Logo } from '../Logo';
import { useConfig, useEnterApp } from '../session';

type InviteStatus =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'valid'; message: string }
  | { state: 'invalid'; message: string };

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The invitation code the link carried (?invite=CODE), if any. */
function inviteFromUrl(): string {
  return new URLSearchParams(window.location.search).get('invite')?.trim() ?? '';
}

/**
 * Live validation of the invitation code: every change shows 'Validating invitation code...' and
 * then the server's verdict; a check that fails (429, 5xx, network) shows 'Error validating invitation code'.
 * Only the answer to the latest change is shown.
 */
function useInvitationCheck(code: string, email: string, enabled: boolean): InviteStatus {
  const trimmed = code.trim();
  const normalisedEmail = EMAIL_SHAPE.test(email.trim()) ? email.trim().toLowerCase() : '';
  const key = `${trimmed}|${normalisedEmail}`;
  // The verdict for one code and e-mail; anything else on screen is still being checked.
  const [answer, setAnswer] = useState<{ key: string; status: InviteStatus } | null>(null);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    if (!enabled || !trimmed) return;
    const timer = window.setTimeout(() => {
      api.checkInvitation(trimmed, normalisedEmail || undefined).then(
        (result) => {
          if (mine !== seq.current) return;
          setAnswer({
            key,
            status: result.valid
              ? { state: 'valid', message: result.message }
              : { state: 'invalid', message: result.message || INVITATION_INVALID },
          });
        },
        (error: unknown) => {
          if (mine !== seq.current) return;
          // The server's word is the verdict of an answered check; a check that failed (rate limit, server
          // error, no network) is 'Error validating invitation code'.
          console.warn('invitation check failed', error);
          setAnswer({ key, status: { state: 'invalid', message: INVITATION_ERROR } });
        },
      );
    }, 250);
    return () => window.clearTimeout(timer);
  }, [key, trimmed, normalisedEmail, enabled]);
  if (!enabled || !trimmed) return { state: 'idle' };
  return answer?.key === key ? answer.status : { state: 'checking' };
}

export function AuthScreen() {
  const initialInvite = inviteFromUrl();
  const [mode, setMode] = useState<'signIn' | 'register'>(initialInvite ? 'register' : 'signIn');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [invitationCode, setInvitationCode] = useState(initialInvite);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** A registration was attempted: an empty confirmation then counts as not matching. */
  const [submitted, setSubmitted] = useState(false);
  const enterApp = useEnterApp();
  const config = useConfig();
  const registering = mode === 'register';
  const invite = useInvitationCheck(invitationCode, email, registering);
  const mismatch = registering && (confirmPassword.length > 0 || submitted) && confirmPassword !== password;
  // Until the server says otherwise a code is required; the hint only while no account exists at all.
  const codeRequired = config.data?.invitationRequired !== false;

  const switchMode = () => {
    setMode(registering ? 'signIn' : 'register');
    setSubmitted(false);
    setError(null);
    setInfo(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setInfo(null);
    if (registering) setSubmitted(true);
    // The confirmation field says 'Passwords do not match' itself; no second copy above the button.
    if (registering && password !== confirmPassword) return;
    setBusy(true);
    try {
      const cleanEmail = email.trim().toLowerCase();
      if (registering) {
        await api.register({
          name: name.trim(),
          email: cleanEmail,
          password,
          confirmPassword,
          ...(invitationCode.trim() ? { invitationCode: invitationCode.trim() } : {}),
        });
        // The invitation link has done its job; a reload should not bring the form back.
        if (initialInvite) window.history.replaceState(null, '', '/');
      } else {
        await api.signIn(cleanEmail, password);
      }
      await enterApp();
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // A lockout says how long it lasts.
      const wait = e instanceof ApiError && e.status === 429 ? e.body.retryAfterMs : undefined;
      setError(typeof wait === 'number' && wait > 0 ? `${message} ${waitHint(wait)}` : message);
    } finally {
      setBusy(false);
    }
  };

  const forgotPassword = async () => {
    setError(null);
    setInfo(null);
    const cleanEmail = email.trim().toLowerCase();
    if (!EMAIL_SHAPE.test(cleanEmail)) {
      setError(FORGOT_PASSWORD_NEEDS_EMAIL);
      return;
    }
    try {
      await api.requestPasswordReset(cleanEmail);
      setInfo(RESET_EMAIL_SENT);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Center mih="100vh" p="md" className="auth-page">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420}>
        <Stack gap="md">
          <Brand />
          <Title order={2} size="h4">
            {registering ? 'Create Account' : 'Sign In'}
          </Title>
          <form onSubmit={(e) => void submit(e)} noValidate>
            <Stack gap="sm">
              {registering && (
                <TextInput
                  label="Name"
                  name="name"
                  autoComplete="name"
                  required
                  value={name}
                  onChange={(e) => setName(e.currentTarget.value)}
                />
              )}
              <TextInput
                label="Email"
                name="email"
                type="email"
                autoComplete="email"
                inputMode="email"
                required
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
              />
              <PasswordInput
                label="Password"
                name="password"
                autoComplete={registering ? 'new-password' : 'current-password'}
                required
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                visibilityToggleButtonProps={{ 'aria-label': 'Show or hide password' }}
              />
              {registering && (
                <RegistrationFields
                  confirmPassword={confirmPassword}
                  onConfirmPassword={setConfirmPassword}
                  mismatch={mismatch}
                  invitationCode={invitationCode}
                  onInvitationCode={(code) => {
                    setInvitationCode(code);
                    // A refusal of the previous code must not stay beside the new code's verdict.
                    setError(null);
                  }}
                  codeRequired={codeRequired}
                  invite={invite}
                />
              )}
              {error && (
                <Alert color="red" role="alert" data-testid="auth-error">
                  {error}
                </Alert>
              )}
              {info && (
                <Alert color="green" role="status" data-testid="auth-info">
                  {info}
                </Alert>
              )}
              <Button type="submit" loading={busy} fullWidth>
                {registering ? 'Create Account' : 'Sign In'}
              </Button>
            </Stack>
          </form>
          <ModeLinks
            registering={registering}
            onForgotPassword={() => void forgotPassword()}
            onSwitch={switchMode}
          />
        </Stack>
      </Paper>
    </Center>
  );
}

/** The product's logo, name and line, above the form. */
function Brand() {
  return (
    <Group gap="sm" wrap="nowrap">
      <Logo size={44} />
      <div>
        <Title order={1} size="h3">
          Prospect Finder
        </Title>
        <Text size="sm" c="dimmed">
          AI-Powered Prospect Discovery
        </Text>
      </div>
    </Group>
  );
}

interface RegistrationFieldsProps {
  confirmPassword: string;
  onConfirmPassword: (value: string) => void;
  mismatch: boolean;
  invitationCode: string;
  onInvitationCode: (value: string) => void;
  codeRequired: boolean;
  invite: InviteStatus;
}

/** What registering asks beyond signing in: the password again, and the invitation code with its live check. */
function RegistrationFields({
  confirmPassword,
  onConfirmPassword,
  mismatch,
  invitationCode,
  onInvitationCode,
  codeRequired,
  invite,
}: RegistrationFieldsProps) {
  return (
    <>
      <PasswordInput
        label="Confirm Password"
        name="confirmPassword"
        autoComplete="new-password"
        required
        value={confirmPassword}
        onChange={(e) => onConfirmPassword(e.currentTarget.value)}
        error={mismatch ? PASSWORDS_DO_NOT_MATCH : undefined}
        visibilityToggleButtonProps={{ 'aria-label': 'Show or hide confirm password' }}
      />
      <TextInput
        label="Invitation Code"
        name="invitationCode"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        required={codeRequired}
        {...(!codeRequired && {
          description: 'The first account of a new installation needs no code.',
        })}
        value={invitationCode}
        onChange={(e) => onInvitationCode(e.currentTarget.value)}
        aria-describedby="invite-status"
      />
      <Text
        id="invite-status"
        size="sm"
        aria-live="polite"
        data-testid="invite-status"
        c={invite.state === 'valid' ? 'green' : invite.state === 'invalid' ? 'red' : 'dimmed'}
        mt={-6}
      >
        {invite.state === 'checking'
          ? INVITATION_VALIDATING
          : invite.state === 'valid' || invite.state === 'invalid'
            ? invite.message
            : ''}
      </Text>
    </>
  );
}

/** Below the form: "Forgot password" when signing in, and the switch between signing in and registering. */
function ModeLinks({
  registering,
  onForgotPassword,
  onSwitch,
}: {
  registering: boolean;
  onForgotPassword: () => void;
  onSwitch: () => void;
}) {
  return (
    <Group justify="space-between">
      {!registering ? (
        <Anchor component="button" type="button" size="sm" onClick={onForgotPassword}>
          Forgot password
        </Anchor>
      ) : (
        <span />
      )}
      <Anchor component="button" type="button" size="sm" onClick={onSwitch}>
        {registering ? 'Already have an account? Sign In' : 'Create Account'}
      </Anchor>
    </Group>
  );
}
