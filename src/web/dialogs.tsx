// In-app replacements for the browser's alert(), confirm() and prompt(): the product's words, shown as an
// accessible notice stack and modal dialogs that work on a phone without blocking the page.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Group, Modal, Notification, Stack, Text, TextInput } from '@mantine/core';

type Tone = 'info' | 'success' | 'error';

/** A button on a notice that takes back what it reports (Undo). */
export interface NoticeAction {
  label: string;
  onClick: () => void;
}

interface Notice {
  id: number;
  message: string;
  tone: Tone;
  action?: NoticeAction | undefined;
}

interface Ask {
  kind: 'confirm' | 'prompt';
  message: string;
  label?: string;
  confirmLabel: string;
  /** The confirmation loses something (Discard, Delete): the safe answer is the prominent one. */
  destructive?: boolean;
  /** The other answer's words, when it is not a plain Cancel. */
  cancelLabel?: string;
  resolve: (value: string | null) => void;
}

interface Dialogs {
  /** A message the user should see (in place of an alert). */
  notify: (message: string, tone?: Tone, action?: NoticeAction) => void;
  /** Resolves true when the user confirms. */
  confirm: (
    message: string,
    confirmLabel?: string,
    options?: { destructive?: boolean; cancelLabel?: string },
  ) => Promise<boolean>;
  /** Resolves with the entered text, or null when cancelled. */
  prompt: (message: string, label: string, confirmLabel?: string) => Promise<string | null>;
}

const DialogsContext = createContext<Dialogs | null>(null);

export function useDialogs(): Dialogs {
  const value = useContext(DialogsContext);
  if (!value) throw new Error('useDialogs needs <DialogsProvider>');
  return value;
}

/** How long a notice with an Undo (and an error) stays: time to read it and change one's mind. */
export const UNDO_MS = 8000;

const TONE_COLOR: Record<Tone, string> = { info: 'blue', success: 'green', error: 'red' };

export function DialogsProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const [ask, setAsk] = useState<Ask | null>(null);
  const [answer, setAnswer] = useState('');
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setNotices((list) => list.filter((n) => n.id !== id)), []);

  const notify = useCallback(
    (message: string, tone: Tone = 'info', action?: NoticeAction) => {
      const id = nextId.current++;
      // One message at a time: a later one (a success after an error) replaces what was shown.
      setNotices([{ id, message, tone, action }]);
      window.setTimeout(() => dismiss(id), tone === 'error' || action ? UNDO_MS : 5000);
    },
    [dismiss],
  );

  const confirm = useCallback(
    (message: string, confirmLabel = 'OK', options: { destructive?: boolean; cancelLabel?: string } = {}) =>
      new Promise<boolean>((resolve) => {
        setAsk({
          kind: 'confirm',
          message,
          confirmLabel,
          destructive: options.destructive ?? false,
          ...(options.cancelLabel !== undefined && { cancelLabel: options.cancelLabel }),
          resolve: (v) => resolve(v !== null),
        });
      }),
    [],
  );

  const prompt = useCallback(
    (message: string, label: string, confirmLabel = 'OK') =>
      new Promise<string | null>((resolve) => {
        setAnswer('');
        setAsk({ kind: 'prompt', message, label, confirmLabel, resolve });
      }),
    [],
  );

  const close = (value: string | null) => {
    ask?.resolve(value);
    setAsk(null);
  };

  const value = useMemo(() => ({ notify, confirm, prompt }), [notify, confirm, prompt]);

  return (
    <DialogsContext.Provider value={value}>
      {children}
      <div className="notice-stack" aria-live="polite" role="status">
        <Stack gap="xs">
          {notices.map((n) => (
            <Notification
              key={n.id}
              color={TONE_COLOR[n.tone]}
              onClose={() => dismiss(n.id)}
              closeButtonProps={{ 'aria-label': 'Dismiss message' }}
              withBorder
              data-testid="notice"
            >
              {n.message}
              {n.action && (
                <Button
                  size="xs"
                  variant="light"
                  ml="sm"
                  onClick={() => {
                    dismiss(n.id);
                    n.action?.onClick();
                  }}
                >
                  {n.action.label}
                </Button>
              )}
            </Notification>
          ))}
        </Stack>
      </div>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={ask !== null}
        onClose={() => close(null)}
        title={ask?.kind === 'prompt' ? ask.message : 'Please confirm'}
        centered
      >
        {ask?.kind === 'confirm' && <Text mb="md">{ask.message}</Text>}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            close(ask?.kind === 'prompt' ? answer : '');
          }}
        >
          {ask?.kind === 'prompt' && (
            <TextInput
              label={ask.label}
              value={answer}
              onChange={(e) => setAnswer(e.currentTarget.value)}
              data-autofocus
              mb="md"
            />
          )}
          <Group justify="flex-end">
            <Button variant={ask?.destructive ? 'filled' : 'default'} onClick={() => close(null)}>
              {ask?.cancelLabel ?? 'Cancel'}
            </Button>
            <Button type="submit" {...(ask?.destructive && { variant: 'outline', color: 'red.8' })}>
              {ask?.confirmLabel ?? 'OK'}
            </Button>
          </Group>
        </form>
      </Modal>
    </DialogsContext.Provider>
  );
}
