// The tab's pickers: the period (a preset or custom dates) and, on the whole team's view, one rep or everyone.
import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import type { RepActivity } from '../../../../core/api/dashboard';
import type { PeriodChoice } from '../api';

const PERIODS = [
  { value: 'this-week', label: 'This week' },
  { value: 'last-week', label: 'Last week' },
  { value: 'this-month', label: 'This month' },
  { value: 'custom', label: 'Custom dates' },
] as const;

export function PeriodControls({
  choice,
  onChange,
}: {
  choice: PeriodChoice;
  onChange: (c: PeriodChoice) => void;
}) {
  return (
    <>
      <NativeSelect
        label="Period"
        data={PERIODS.map((p) => ({ value: p.value, label: p.label }))}
        value={choice.period}
        onChange={(e) => onChange({ ...choice, period: e.currentTarget.value as PeriodChoice['period'] })}
      />
      {choice.period === 'custom' && (
        <>
          <TextInput
            type="date"
            label="From"
            value={choice.from ?? ''}
            onChange={(e) => onChange({ ...choice, from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="To"
            value={choice.to ?? ''}
            onChange={(e) => onChange({ ...choice, to: e.currentTarget.value })}
          />
        </>
      )}
    </>
  );
}

/** The whole team's pickers: the period, the rep ('' for the whole team), and Print. */
export function TeamFilters({
  choice,
  onChoice,
  reps,
  only,
  onOnly,
}: {
  choice: PeriodChoice;
  onChoice: (c: PeriodChoice) => void;
  reps: readonly RepActivity[];
  only: string;
  onOnly: (userId: string) => void;
}) {
  return (
    <Group gap="sm" align="flex-end" className="no-print" wrap="wrap">
      <PeriodControls choice={choice} onChange={onChoice} />
      <NativeSelect
        label="Rep"
        data={[{ value: '', label: 'Whole team' }, ...reps.map((r) => ({ value: r.userId, label: r.name }))]}
        value={only}
        onChange={(e) => onOnly(e.currentTarget.value)}
      />
      <Button variant="default" onClick={() => window.print()}>
        Print
      </Button>
    </Group>
  );
}
