import { Button, Group, NativeSelect, SimpleGrid, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../../format';
import { adminApi } from '../api';
import { ErrorAlert, messageOf } from '../common';
import { useUsers } from '../UsersSection';
import { Stat } from './Stat';

/** User Data Testing (SuperAdmins): a chosen user's stored data counts and last sign-in. */
export function UserDataSection() {
  const users = useUsers();
  const [userId, setUserId] = useState('');
  const test = useMutation({ mutationFn: (id: string) => adminApi.userData(id) });
  const chosen = userId || users.data?.[0]?.id || '';
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs" wrap="wrap">
        <NativeSelect
          label="User to test"
          value={chosen}
          onChange={(e) => setUserId(e.currentTarget.value)}
          data={(users.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }))}
          style={{ flex: '1 1 200px', minWidth: 0 }}
        />
        <Button size="sm" disabled={!chosen} loading={test.isPending} onClick={() => test.mutate(chosen)}>
          Test User Data
        </Button>
      </Group>
      {test.isError && <ErrorAlert message={messageOf(test.error)} />}
      {test.data && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" data-testid="user-data">
          <Stat label="Searches" value={test.data.searches} />
          <Stat label="Call logs" value={test.data.callLogs} />
          <Stat label="Saved" value={test.data.savedProspects} />
          <Stat
            label="Last sign-in"
            value={test.data.lastSignInAt ? formatDateTime(test.data.lastSignInAt) : 'never'}
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}
