import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../../format';
import { adminApi } from '../api';
import { ErrorAlert, messageOf } from '../common';

/** Universal Blocklist Debug (SuperAdmins): is a business id blocked, and by whom. */
export function BlocklistDebugSection() {
  const [id, setId] = useState('');
  const check = useMutation({ mutationFn: (businessId: string) => adminApi.checkBlocked(businessId) });
  return (
    <Stack gap="xs">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (id.trim()) check.mutate(id.trim());
        }}
      >
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label="Business id"
            placeholder="e.g. osm:node/123 or a place id"
            value={id}
            onChange={(e) => setId(e.currentTarget.value)}
            style={{ flex: '1 1 200px' }}
          />
          <Button type="submit" size="sm" disabled={!id.trim()} loading={check.isPending}>
            Test Blocklist
          </Button>
        </Group>
      </form>
      {check.isError && <ErrorAlert message={messageOf(check.error)} />}
      {check.data && (
        <Text size="sm" role="status" data-testid="blocklist-check" style={{ overflowWrap: 'anywhere' }}>
          {check.data.blocked
            ? `Blocked: ${check.data.entry?.label ?? check.data.businessId}${
                check.data.entry?.blockedByName ? ` by ${check.data.entry.blockedByName}` : ''
              }${check.data.entry ? ` on ${formatDateTime(check.data.entry.blockedAt)}` : ''}`
            : `Not blocked: ${check.data.businessId}`}
        </Text>
      )}
    </Stack>
  );
}
