import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { useDialogs } from '../../dialogs';
import { adminApi } from '../api';
import { messageOf } from '../common';

/** Export Prospects: the team's prospects_{date}.csv; SuperAdmins also export their current scan. */
export function ExportSection({ canExportCurrent }: { canExportCurrent: boolean }) {
  const { notify } = useDialogs();
  const [busy, setBusy] = useState<'team' | 'current' | null>(null);
  const run = async (scope: 'team' | 'current') => {
    setBusy(scope);
    try {
      await adminApi.exportProspects(scope);
    } catch (error) {
      notify(messageOf(error), 'error');
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="xs" wrap="wrap">
      <Button size="sm" loading={busy === 'team'} onClick={() => void run('team')}>
        Export Prospects
      </Button>
      {canExportCurrent && (
        <Button size="sm" variant="light" loading={busy === 'current'} onClick={() => void run('current')}>
          Export Current Scan
        </Button>
      )}
    </Group>
  );
}
