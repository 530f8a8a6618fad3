// Territories (Admin Panel, /admin/territories): the list of the team's territories with their reps, area and ZIP
// codes; New Territory and Edit open the form (TerritoryForm.tsx) in place of the list; Delete asks first.
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDialogs } from '../../dialogs';
import { TERRITORIES_KEY, territoriesApi, type Territory } from '../../main/territories/territories';
import { ErrorAlert, Loading, messageOf } from '../common';
import { territoryAdminApi } from './api';
import { TerritoryForm } from './TerritoryForm';

/** Square miles as the list shows them: one decimal under 100, whole miles above. */
export function squareMiles(n: number): string {
  if (n > 0 && n < 0.1) return 'under 0.1 sq mi';
  return `${n.toLocaleString('en-US', { maximumFractionDigits: n < 100 ? 1 : 0 })} sq mi`;
}

function TerritoryItem(props: {
  territory: Territory;
  onEdit: () => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  const t = props.territory;
  return (
    <Paper withBorder p="xs" radius="md" component="li" data-testid="territory-row">
      <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 220px' }}>
          <Text fw={700} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="territory-row-name">
            {t.name}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t.reps.length > 0 ? `Reps: ${t.reps.map((r) => r.name).join(', ')}` : 'No reps yet'}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {squareMiles(t.areaSquareMiles)}
            {t.zips.length > 0 ? ` · ZIP codes ${t.zips.join(', ')}` : ' · drawn on the map'}
          </Text>
        </Stack>
        <Group gap={4}>
          <Button size="compact-sm" variant="light" onClick={props.onEdit} aria-label={`Edit ${t.name}`}>
            Edit
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={props.onDelete}
            loading={props.deleting}
            aria-label={`Delete ${t.name}`}
          >
            Delete
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

export function TerritoriesSection() {
  const queryClient = useQueryClient();
  const { notify, confirm } = useDialogs();
  const list = useQuery({ queryKey: TERRITORIES_KEY, queryFn: territoriesApi.list });
  /** The form: 'new', a territory being edited, or closed (null). */
  const [editing, setEditing] = useState<Territory | 'new' | null>(null);
  const remove = useMutation({
    mutationFn: (t: Territory) => territoryAdminApi.remove(t.id),
    onSuccess: (_, t) => notify(`Territory "${t.name}" deleted.`, 'success'),
    onError: (error) => notify(messageOf(error), 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: TERRITORIES_KEY }),
  });
  const territories = list.data ?? [];

  if (editing !== null) {
    const territory = editing === 'new' ? null : editing;
    return (
      <TerritoryForm
        territory={territory}
        others={territories.filter((t) => t.id !== territory?.id)}
        onDone={() => setEditing(null)}
      />
    );
  }
  return (
    <Stack gap="xs" data-testid="territories-section">
      <Text size="sm">
        A territory is an area of the map and the reps who work it. Its reps see its outline on their map and
        can scan all of it at once.
      </Text>
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" data-testid="territory-count">
          {list.isSuccess
            ? territories.length === 1
              ? '1 territory'
              : `${territories.length} territories`
            : ''}
        </Text>
        <Button size="sm" onClick={() => setEditing('new')} data-testid="territory-new">
          New Territory
        </Button>
      </Group>
      {list.isPending && <Loading label="Loading territories..." />}
      {list.isError && <ErrorAlert message={messageOf(list.error)} />}
      {list.isSuccess && territories.length === 0 && (
        <Text c="dimmed" size="sm">
          No territories yet. Every rep scans wherever they like until one is made.
        </Text>
      )}
      {territories.length > 0 && (
        <Stack component="ul" gap="xs" className="plain-list" aria-label="Territories">
          {territories.map((t) => (
            <TerritoryItem
              key={t.id}
              territory={t}
              onEdit={() => setEditing(t)}
              deleting={remove.isPending && remove.variables.id === t.id}
              onDelete={() =>
                void confirm(
                  `Delete the territory "${t.name}"? Its reps no longer see it on their map; their lists stay as they are.`,
                  'Delete Territory',
                  { destructive: true },
                ).then((ok) => ok && remove.mutate(t))
              }
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
