import { Badge, Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Me, Role } from '../api';
import { useDialogs } from '../dialogs';
import { formatDateTime } from '../format';
import { ADMIN_KEYS, adminApi } from './api';
import type { UserRow } from '../../core/api';
import { ErrorAlert, Loading, messageOf } from './common';
import { PasswordPrompt } from './PasswordPrompt';
import {
  DELETE_USER_FAILED,
  REFRESH_USERS_FAILED,
  UPDATE_ROLE_FAILED,
  hardDeleteFailed,
  reEnableFailed,
  suspendFailed,
} from './texts';

export const useUsers = () => useQuery({ queryKey: ADMIN_KEYS.users, queryFn: adminApi.users });

const ROLE_LABEL: Record<Role, string> = { user: 'User', admin: 'Admin', SuperAdmin: 'SuperAdmin' };

/** User Management: list, role select or read-only role, delete, suspend / re-enable, hard delete. */
export function UsersSection({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const { notify, confirm } = useDialogs();
  const users = useUsers();
  const [hardDeleting, setHardDeleting] = useState<UserRow | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.users });

  const role = useMutation({
    mutationFn: ({ user, to }: { user: UserRow; to: Role }) => adminApi.changeRole(user.id, to),
    onSettled: refresh,
    onError: (error) => {
      console.warn('role change failed', error);
      notify(UPDATE_ROLE_FAILED, 'error');
    },
  });
  const action = useMutation({
    mutationFn: async ({ user, kind }: { user: UserRow; kind: 'delete' | 'suspend' | 'unsuspend' }) => {
      if (kind === 'delete') await adminApi.deleteProfile(user.id);
      else if (kind === 'suspend') await adminApi.suspend(user.id);
      else await adminApi.unsuspend(user.id);
    },
    onSettled: refresh,
    onSuccess: (_r, { user, kind }) =>
      notify(
        kind === 'delete'
          ? `${user.name}'s profile was deleted.`
          : kind === 'suspend'
            ? `${user.name} was suspended.`
            : `${user.name} was re-enabled.`,
        'success',
      ),
    onError: (error, { kind }) => {
      console.warn(`user ${kind} failed`, error);
      const m = messageOf(error);
      notify(
        kind === 'delete' ? DELETE_USER_FAILED : kind === 'suspend' ? suspendFailed(m) : reEnableFailed(m),
        'error',
      );
    },
  });
  const hardDelete = useMutation({
    mutationFn: ({ user, password }: { user: UserRow; password: string }) =>
      adminApi.hardDelete(user.id, password),
    onSettled: refresh,
    onSuccess: (_r, { user }) => notify(`${user.name} and all their data were deleted.`, 'success'),
    onError: (error) => notify(hardDeleteFailed(messageOf(error)), 'error'),
  });

  const onDelete = async (u: UserRow) => {
    if (!(await confirm(`Delete the profile of ${u.name} (${u.email})? They are signed out.`, 'Delete')))
      return;
    action.mutate({ user: u, kind: 'delete' });
  };
  const onSuspend = async (u: UserRow) => {
    if (!(await confirm(`Suspend ${u.name} (${u.email})? Their open sessions end at once.`, 'Suspend')))
      return;
    action.mutate({ user: u, kind: 'suspend' });
  };
  const onHardDelete = async (u: UserRow) => {
    if (
      !(await confirm(
        `Permanently delete ${u.name} (${u.email}) and all their data? This action cannot be undone.`,
        'Continue',
      ))
    )
      return;
    setHardDeleting(u);
  };

  const busy = (u: UserRow) =>
    (action.isPending && action.variables.user.id === u.id) ||
    (hardDelete.isPending && hardDelete.variables.user.id === u.id);

  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {users.isSuccess ? `${users.data.length} users` : ''}
        </Text>
        <Button size="xs" variant="default" onClick={() => void refresh()} loading={users.isFetching}>
          Refresh Users
        </Button>
      </Group>
      {users.isPending && <Loading label="Loading users..." />}
      {users.isError && <ErrorAlert message={REFRESH_USERS_FAILED} />}
      {(users.data ?? []).map((u) => (
        <UserCard
          key={u.id}
          user={u}
          own={u.id === me.id}
          busy={busy(u)}
          roleBusy={role.isPending && role.variables.user.id === u.id}
          onRole={(to) => role.mutate({ user: u, to })}
          onDelete={() => void onDelete(u)}
          onSuspend={() => void onSuspend(u)}
          onReEnable={() => action.mutate({ user: u, kind: 'unsuspend' })}
          onHardDelete={() => void onHardDelete(u)}
        />
      ))}
      <PasswordPrompt
        opened={hardDeleting !== null}
        message={
          hardDeleting
            ? `Enter your password to permanently delete ${hardDeleting.name} (${hardDeleting.email}).`
            : ''
        }
        onDone={(password) => {
          const user = hardDeleting;
          setHardDeleting(null);
          if (user && password) hardDelete.mutate({ user, password });
        }}
      />
    </Stack>
  );
}

interface UserCardProps {
  user: UserRow;
  /** The signed-in admin's own row: read-only. */
  own: boolean;
  /** An action on this user is under way. */
  busy: boolean;
  roleBusy: boolean;
  onRole: (to: Role) => void;
  onDelete: () => void;
  onSuspend: () => void;
  onReEnable: () => void;
  onHardDelete: () => void;
}

/** One user: name, e-mail and last sign-in, the role (a select where it may change) and the allowed actions. */
function UserCard({
  user: u,
  own,
  busy,
  roleBusy,
  onRole,
  onDelete,
  onSuspend,
  onReEnable,
  onHardDelete,
}: UserCardProps) {
  const roles = u.can.changeRole.includes(u.role) ? u.can.changeRole : [u.role, ...u.can.changeRole];
  return (
    <Paper withBorder p="sm" radius="md" data-testid="user-row" aria-label={u.email}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {u.name}
              {own ? ' (you)' : ''}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {u.email}
            </Text>
            <Text size="xs" c="dimmed">
              Last sign-in: {u.lastSignInAt ? formatDateTime(u.lastSignInAt) : 'never'}
            </Text>
          </Stack>
          {u.suspended && (
            <Badge color="red" variant="light" data-testid="suspended-badge">
              Suspended
            </Badge>
          )}
        </Group>
        <Group gap="xs" wrap="wrap" align="flex-end">
          {!own && u.can.changeRole.length > 0 ? (
            <NativeSelect
              label={`Role of ${u.name}`}
              size="xs"
              value={u.role}
              data={roles.map((r) => ({ value: r, label: ROLE_LABEL[r] }))}
              disabled={roleBusy}
              onChange={(e) => onRole(e.currentTarget.value as Role)}
            />
          ) : (
            <Text size="sm" data-testid="role-readonly">
              Role: {ROLE_LABEL[u.role]}
            </Text>
          )}
          {!own && u.can.deleteProfile && (
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              aria-label={`Delete ${u.name}`}
              disabled={busy}
              onClick={onDelete}
            >
              Delete
            </Button>
          )}
          {!own && u.can.suspend && !u.suspended && (
            <Button
              size="compact-sm"
              variant="default"
              aria-label={`Suspend ${u.name}`}
              disabled={busy}
              onClick={onSuspend}
            >
              Suspend
            </Button>
          )}
          {!own && u.can.suspend && u.suspended && (
            <Button
              size="compact-sm"
              variant="default"
              aria-label={`Re-enable ${u.name}`}
              disabled={busy}
              onClick={onReEnable}
            >
              Re-enable
            </Button>
          )}
          {!own && u.can.hardDelete && (
            <Button
              size="compact-sm"
              color="red"
              aria-label={`Hard delete ${u.name}`}
              disabled={busy}
              onClick={onHardDelete}
            >
              Hard Delete
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
