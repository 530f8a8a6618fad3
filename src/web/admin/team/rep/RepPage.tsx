// One rep's page, opened from a rep's name: their figures for the period, then their activity per day, log, map,
// pipeline and route history.
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { formatDateTime } from '../../../format';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi, useTeamQuery, type PeriodChoice } from '../api';
import { DailySection } from '../activity/DailySection';
import { plural, shortDate } from '../figures';
import { MapSection } from '../map/MapSection';
import { LogSection } from './LogSection';
import { PipelineSections } from './PipelineSections';
import { RouteSection } from './RouteSection';

export function RepPage({
  userId,
  choice,
  onBack,
}: {
  userId: string;
  choice: PeriodChoice;
  onBack: () => void;
}) {
  const page = useTeamQuery('rep', choice, userId, () => teamApi.rep(userId, choice));
  return (
    <Stack gap="sm" data-testid="team-rep-page">
      <Group className="no-print">
        <Button variant="default" size="compact-md" onClick={onBack}>
          ← Back to the team
        </Button>
      </Group>
      {page.isPending && <Loading label="Loading the rep's page..." />}
      {page.isError && <ErrorAlert message={messageOf(page.error)} />}
      {page.isSuccess && (
        <>
          <Title order={2} size="h3" data-testid="team-rep-name">
            {page.data.rep.name}
          </Title>
          <Text size="sm">
            {page.data.rep.email} · {plural(page.data.rep.calls, 'call')},{' '}
            {plural(page.data.rep.visits, 'visit')}, {plural(page.data.rep.saves, 'save')},{' '}
            {plural(page.data.rep.strategies, 'strategy request')},{' '}
            {plural(page.data.rep.followUps, 'follow-up')} set from {shortDate(page.data.period.from)} to{' '}
            {shortDate(page.data.period.to)} · last active{' '}
            {page.data.rep.lastActivityAt ? formatDateTime(page.data.rep.lastActivityAt) : 'never'}
          </Text>
          <DailySection choice={choice} userId={userId} />
          <LogSection page={page.data} />
          <MapSection choice={choice} userId={userId} />
          <PipelineSections userId={userId} choice={choice} name={page.data.rep.name} />
          <RouteSection userId={userId} choice={choice} name={page.data.rep.name} />
        </>
      )}
    </Stack>
  );
}
