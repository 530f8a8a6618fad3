import { Alert, Loader, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Me } from '../api';
import { ApiError } from '../api';
import { NETWORK_ERROR, PLEASE_LOG_IN } from '../../core/messages';

export const isSuper = (me: Pick<Me, 'role' | 'isSuperAdmin'>) => me.role === 'SuperAdmin' || me.isSuperAdmin;

/** The message an error carries (the server's words for an ApiError). */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return PLEASE_LOG_IN;
    if (error.status === 0) return NETWORK_ERROR;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export function Loading({ label }: { label: string }) {
  return (
    <Group gap="xs" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Group>
  );
}

export function ErrorAlert({ message }: { message: string }) {
  return (
    <Alert color="red" role="alert" variant="light">
      {message}
    </Alert>
  );
}

/** A table wrapper that scrolls sideways on a phone; focusable and named so the keyboard can scroll it. */
export function ScrollBox({
  label,
  minWidth,
  children,
}: {
  label: string;
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <div role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto', maxWidth: '100%' }}>
      <div style={{ minWidth }}>{children}</div>
    </div>
  );
}
