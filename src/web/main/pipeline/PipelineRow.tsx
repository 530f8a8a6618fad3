// A card's pipeline line: "<rep> · Meeting set · since Nov 3" for every rep, a stage picker
// for the owner or on an unclaimed business, and for admins reassign and release. Kept to one wrapped row: the
// card is already tall on a phone.
import { useState } from 'react';
import { Anchor, Button, Group, List, NativeSelect, Stack, Text } from '@mantine/core';
import type { Prospect } from '../../../core/types';
import { UNCLAIMED_STAGE, formatSince, nextStages, pipelineLine } from '../../../core/pipeline';
import type { PipelineEntry, PipelineHistoryEntry, UserRow } from '../../../core/api';
import { api } from '../../api';

export interface PipelineRowProps {
  prospect: Prospect;
  entry: PipelineEntry | undefined;
  meId: string;
  isAdmin: boolean;
  onStage: (p: Prospect, stage: PipelineEntry['stage']) => Promise<void>;
  onReassign?: ((p: Prospect, userId: string) => Promise<void>) | undefined;
  onRelease?: ((p: Prospect) => Promise<void>) | undefined;
  /** Shows an action's failure (the server's message). */
  onError: (error: unknown) => void;
}

type Stage = PipelineEntry['stage'];

export function PipelineRow(props: PipelineRowProps) {
  const { prospect: p, entry, meId, isAdmin } = props;
  const [busy, setBusy] = useState<string | null>(null);
  const [reps, setReps] = useState<UserRow[] | null>(null);
  const [history, setHistory] = useState<PipelineHistoryEntry[] | null>(null);
  const owned = entry !== undefined && entry.ownerId !== null;
  const mine = owned && entry.ownerId === meId;
  const current: Stage = owned ? entry.stage : UNCLAIMED_STAGE;

  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    try {
      await action();
    } catch (error) {
      props.onError(error);
    } finally {
      setBusy(null);
    }
  };

  const openReassign = () =>
    run('reps', async () => {
      // The user list is an admin call: its client comes with the admin chunk, loaded only here.
      const { adminApi } = await import('../../admin/api');
      setReps((await adminApi.users()).filter((u) => !u.suspended && u.id !== entry?.ownerId));
    });

  const toggleHistory = () =>
    history
      ? setHistory(null)
      : run('history', async () => setHistory(await api.pipelineHistory(entry!.businessId)));

  // Only the stages the server allows next: a rep reaches Won from Proposal, an admin from any open stage.
  const stageOptions = owned
    ? [
        { value: current, label: current },
        ...nextStages(current, isAdmin).map((s) => ({
          value: s,
          label: s === UNCLAIMED_STAGE ? 'New (let it go)' : s,
        })),
      ]
    : [
        { value: '', label: 'Set stage to claim' },
        ...nextStages(null, isAdmin).map((s) => ({ value: s, label: s })),
      ];

  return (
    <Stack gap={2}>
      <Group gap={6} wrap="wrap" align="center" className="pipeline-row" data-testid="pipeline-row">
        {owned && (
          <Text
            size="sm"
            fw={600}
            className={`pipeline-line ${mine ? 'pipeline-line-mine' : 'pipeline-line-other'}`}
            data-testid="pipeline-line"
          >
            {pipelineLine(entry)}
          </Text>
        )}
        {(!owned || mine) && (
          <NativeSelect
            size="xs"
            aria-label={`Pipeline stage of ${p.name}`}
            value={owned ? current : ''}
            disabled={busy === 'stage'}
            onChange={(e) => {
              const stage = e.currentTarget.value as Stage | '';
              if (stage && stage !== (owned ? current : '')) void run('stage', () => props.onStage(p, stage));
            }}
            data={stageOptions}
            w={owned ? 150 : 170}
            data-testid="pipeline-stage"
          />
        )}
        {isAdmin && props.onReassign && reps === null && (
          <Button size="xs" variant="subtle" loading={busy === 'reps'} onClick={() => void openReassign()}>
            {owned ? 'Reassign' : 'Assign'}
          </Button>
        )}
        {isAdmin && props.onReassign && reps !== null && (
          <NativeSelect
            size="xs"
            aria-label={`Assign ${p.name} to`}
            value=""
            disabled={busy === 'reassign'}
            onChange={(e) => {
              const userId = e.currentTarget.value;
              if (!userId) {
                setReps(null);
                return;
              }
              void run('reassign', async () => {
                await props.onReassign!(p, userId);
                setReps(null);
              });
            }}
            data={[
              { value: '', label: 'Assign to…' },
              ...reps.map((u) => ({ value: u.id, label: u.name || u.email })),
            ]}
            w={170}
            data-testid="pipeline-reassign"
          />
        )}
        {isAdmin && owned && props.onRelease && (
          <Button
            size="xs"
            variant="subtle"
            loading={busy === 'release'}
            onClick={() => void run('release', () => props.onRelease!(p))}
          >
            Release
          </Button>
        )}
        {owned && (
          <Anchor
            component="button"
            type="button"
            size="xs"
            onClick={() => void toggleHistory()}
            aria-expanded={history !== null}
            disabled={busy === 'history'}
          >
            {history ? 'Hide history' : 'History'}
          </Anchor>
        )}
      </Group>
      {history && (
        <List
          size="xs"
          spacing={2}
          data-testid="pipeline-history"
          aria-label={`Pipeline history of ${p.name}`}
        >
          {history.map((h) => (
            <List.Item key={h.id}>
              {formatSince(h.at)} · {h.byName}: {h.fromStage ?? UNCLAIMED_STAGE} → {h.toStage}
              {h.fromOwnerName !== h.toOwnerName &&
                ` (${h.fromOwnerName ?? 'nobody'} → ${h.toOwnerName ?? 'nobody'})`}{' '}
              — {h.reason}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
