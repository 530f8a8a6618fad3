// The follow-up fields of a card's log form: one tap on a quick pick, or a date; then an optional
// time, a short next step and "It's a meeting".
import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { NEXT_STEP_MAX, QUICK_PICKS, quickPickDate } from '../../../core/follow-ups';
import { browserToday, type FollowUpDraft } from './draft';

export function FollowUpFields({
  value,
  onChange,
  idPrefix,
}: {
  value: FollowUpDraft;
  onChange: (next: FollowUpDraft) => void;
  idPrefix: string;
}) {
  const set = (patch: Partial<FollowUpDraft>) => onChange({ ...value, ...patch });
  const choose = (pick: FollowUpDraft['pick']) =>
    set(
      pick === value.pick
        ? { pick: null }
        : {
            pick,
            ...(pick === 'date' && !value.date ? { date: quickPickDate('Tomorrow', browserToday()) } : {}),
          },
    );
  const labelId = `${idPrefix}-follow-up`;
  return (
    <Stack gap={4} data-testid="follow-up-fields">
      <Text size="xs" fw={500} id={labelId}>
        Follow up
      </Text>
      <Group gap={6} wrap="wrap" role="group" aria-labelledby={labelId}>
        {[...QUICK_PICKS, 'date' as const].map((pick) => (
          <Button
            key={pick}
            size="xs"
            variant={value.pick === pick ? 'filled' : 'default'}
            aria-pressed={value.pick === pick}
            onClick={() => choose(pick)}
          >
            {pick === 'date' ? 'Pick a date' : pick}
          </Button>
        ))}
      </Group>
      {value.pick !== null && (
        <Group gap={6} align="flex-end" wrap="wrap">
          {value.pick === 'date' && (
            <TextInput
              type="date"
              label="Date"
              size="xs"
              required
              value={value.date}
              min={browserToday()}
              onChange={(e) => set({ date: e.currentTarget.value })}
              w={150}
            />
          )}
          <TextInput
            type="time"
            label="Time (optional)"
            size="xs"
            value={value.time}
            onChange={(e) => set({ time: e.currentTarget.value })}
            w={120}
          />
          <TextInput
            label="Next step"
            size="xs"
            placeholder="e.g. Send the media kit"
            value={value.nextStep}
            maxLength={NEXT_STEP_MAX}
            onChange={(e) => set({ nextStep: e.currentTarget.value })}
            style={{ flex: 1, minWidth: 160 }}
          />
          <Checkbox
            label="It's a meeting"
            size="sm"
            checked={value.isMeeting}
            onChange={(e) => set({ isMeeting: e.currentTarget.checked })}
          />
        </Group>
      )}
    </Stack>
  );
}
