// The Team page (docs/PRODUCT.md, "The Team tab"): what the team did in a period, pictures first and numbers
// second, for admins. Every figure comes from the /api/team routes (the database counts; days on this browser's
// calendar). Each section has a sentence saying what its chart shows, a table view and a CSV download (Section.tsx);
// Print gives a printable page (team.css). A rep's name opens their page (rep/).
//
// The sections, in the order shown: activity/ (per rep, per day), funnel/, win-rates/ (by score band, by category),
// outcomes/ (outcomes, then visits and saves per call by score band and by category), map/, territories/, quiet/. The pickers
// are in filters/; api.ts, charts.tsx, csv.ts and figures.ts serve every section.
import { Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation, useRoute } from 'wouter';
import { ErrorAlert, Loading, messageOf } from '../common';
import { RepsSection } from './activity/RepsSection';
import { DailySection } from './activity/DailySection';
import { teamApi, useTeamQuery, type PeriodChoice } from './api';
import { shortDate } from './figures';
import { PeriodControls, TeamFilters } from './filters/Filters';
import { FunnelSection } from './funnel/FunnelSection';
import { MapSection } from './map/MapSection';
import { OutcomeSections } from './outcomes/OutcomeSections';
import { QuietReps } from './quiet/QuietReps';
import { RepPage } from './rep/RepPage';
import { TerritoriesSection } from './territories/TerritoriesSection';
import { CategoryWinSection } from './win-rates/CategoryWinSection';
import { WinRateSection } from './win-rates/WinRateSection';
import './team.css';

/**
 * The Team page (/team): the period and rep pickers, then every section; a rep's name opens their page at
 * /team/reps/:id, which keeps the period chosen here.
 */
export function TeamTab() {
  const [choice, setChoice] = useState<PeriodChoice>({ period: 'this-week' });
  const [only, setOnly] = useState('');
  const [, rep] = useRoute('/reps/:id');
  const [, navigate] = useLocation();
  const openRep = rep?.id ?? null;
  const setOpenRep = (id: string | null) => navigate(id ? `/reps/${encodeURIComponent(id)}` : '/');
  const everyone = useTeamQuery('activity', choice, null, () => teamApi.activity(choice));
  const userId = only || null;

  if (openRep) {
    return (
      <Stack gap="sm" className="team-dashboard" data-testid="team-tab">
        <Group gap="sm" align="flex-end" className="no-print">
          <PeriodControls choice={choice} onChange={setChoice} />
        </Group>
        <RepPage userId={openRep} choice={choice} onBack={() => setOpenRep(null)} />
      </Stack>
    );
  }

  const period = everyone.data?.period;
  return (
    <Stack gap="sm" className="team-dashboard" data-testid="team-tab">
      <Title order={2} size="h3">
        Team
        {period && (
          <Text span size="sm" c="dimmed" fw={400}>
            {' '}
            · {shortDate(period.from)} to {shortDate(period.to)} ({period.timeZone})
          </Text>
        )}
      </Title>
      <TeamFilters
        choice={choice}
        onChoice={setChoice}
        reps={everyone.data?.reps ?? []}
        only={only}
        onOnly={setOnly}
      />
      {choice.period === 'custom' && !(choice.from && choice.to) && (
        <Text size="sm" c="dimmed">
          Choose the first and last day.
        </Text>
      )}
      {everyone.isPending && choice.period !== 'custom' && <Loading label="Loading the team's activity..." />}
      {everyone.isError && <ErrorAlert message={messageOf(everyone.error)} />}
      {everyone.isSuccess && (
        <>
          <RepsSection activity={everyone.data} userId={userId} open={setOpenRep} />
          <DailySection choice={choice} userId={userId} />
          <FunnelSection choice={choice} userId={userId} />
          <WinRateSection choice={choice} userId={userId} />
          <CategoryWinSection choice={choice} userId={userId} />
          <OutcomeSections choice={choice} userId={userId} />
          <MapSection choice={choice} userId={userId} />
          <TerritoriesSection
            choice={choice}
            userId={userId}
            period={everyone.data.period}
            open={setOpenRep}
          />
          <QuietReps open={setOpenRep} />
        </>
      )}
    </Stack>
  );
}
