// The Today tab: the rep's open follow-ups in Overdue, Today and Upcoming on this browser's clock,
// each with the card's actions (call, directions, website), Done, one-tap reschedule and an .ics download.
import { lazy, Suspense, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isQueued, type FollowUp } from '../../api';
import { SAVED_ON_DEVICE } from '../../offline/texts';
import { LOAD_MORE_ENTRIES } from '../../texts';
import { useDialogs } from '../../dialogs';
import { directionsUrl, scoreHex, scorePercent, scoreTextHex, websiteHref } from '../../format';
import { CallLink, DirectionsLink, WebsiteLink } from '../../ContactLinks';
import { dueLabel, groupFollowUps, QUICK_PICKS, quickPickDate } from '../../../core/follow-ups';
import { inSeasonFirst, monthOf } from '../../../core/season';
import { SeasonLine } from '../../prospects/card/SeasonLine';
import { PlanRoute } from '../route/PlanRoute';
import { useMainScreen } from '../screen';
import { browserToday } from './draft';
import { useFollowUps } from './useFollowUps';

const CalendarDialog = lazy(() => import('./CalendarDialog').then((m) => ({ default: m.CalendarDialog })));

export const NO_FOLLOW_UPS =
  'Nothing to follow up yet. When you log a call or visit, pick “Tomorrow”, “Next week” or a date, and it shows up here on the day.';

function FollowUpCard({ item, today, overdue }: { item: FollowUp; today: string; overdue: boolean }) {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const [otherDate, setOtherDate] = useState('');
  const website = websiteHref(item.website);
  const headingId = `follow-up-${item.id}-name`;
  const replace = (next: FollowUp) =>
    queryClient.setQueryData<FollowUp[]>(['followUps'], (old) =>
      // A single follow-up's answer carries no vertical: the listed one's is kept.
      (old ?? []).flatMap((f) =>
        f.id !== next.id ? [f] : next.doneAt ? [] : [{ ...next, vertical: next.vertical ?? f.vertical }],
      ),
    );
  const done = useMutation({
    mutationFn: () => api.completeFollowUp(item),
    onSuccess: (next) => {
      replace(next);
      // Offline: kept on the device until it is sent.
      if (isQueued(next)) notify(SAVED_ON_DEVICE, 'info');
      else notify(`Done: ${item.name}.`, 'success');
    },
    onError: (error) => notify(error.message, 'error'),
  });
  const move = useMutation({
    mutationFn: (dueDate: string) => api.rescheduleFollowUp(item, dueDate),
    onSuccess: (next) => {
      replace(next);
      setOtherDate('');
      if (isQueued(next)) notify(SAVED_ON_DEVICE, 'info');
      else notify(`${item.name}: moved to ${dueLabel(next, today)}.`, 'success');
    },
    onError: (error) => notify(error.message, 'error'),
  });
  const busy = done.isPending || move.isPending;
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      component="article"
      aria-labelledby={headingId}
      data-testid="follow-up"
    >
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <div>
            <Text fw={700} id={headingId} data-testid="follow-up-name">
              {item.name}
            </Text>
            <Text size="sm" c="dimmed">
              {item.category || 'Business'}
            </Text>
          </div>
          {item.score !== null && (
            <Badge
              color={scoreHex(item.score)}
              style={{ flexShrink: 0, color: scoreTextHex(item.score) }}
              size="lg"
              variant="filled"
              aria-label={`Score ${scorePercent(item.score)}`}
            >
              {scorePercent(item.score)}
            </Badge>
          )}
        </Group>
        <Group gap={6}>
          <Badge color={overdue ? 'red' : 'blue'} variant="light" tt="none" data-testid="follow-up-due">
            {overdue ? 'Overdue · ' : ''}
            {dueLabel(item, today)}
          </Badge>
          {item.isMeeting && (
            <Badge color="violet" variant="light" tt="none">
              Meeting
            </Badge>
          )}
        </Group>
        <SeasonLine vertical={item.vertical ?? undefined} />
        {item.nextStep && (
          <Text size="sm">
            <Text span fw={600} size="sm">
              Next step:
            </Text>{' '}
            {item.nextStep}
          </Text>
        )}
        {item.address && <Text size="sm">{item.address}</Text>}
        <Group gap={6} wrap="wrap">
          {item.phone && <CallLink name={item.name} phone={item.phone} />}
          {(item.address || (item.lat !== null && item.lng !== null)) && (
            <DirectionsLink
              name={item.name}
              href={directionsUrl({ address: item.address, lat: item.lat ?? 0, lng: item.lng ?? 0 })}
            />
          )}
          {website && <WebsiteLink name={item.name} href={website} />}
          <Button
            component="a"
            href={api.followUpIcsUrl(item.id)}
            download
            size="xs"
            variant="light"
            aria-label={`Add the follow-up with ${item.name} to a calendar (.ics)`}
          >
            .ics
          </Button>
        </Group>
        <Group gap={6} wrap="wrap" align="flex-end">
          <Button size="xs" loading={done.isPending} disabled={busy} onClick={() => done.mutate()}>
            Done
          </Button>
          {QUICK_PICKS.map((pick) => (
            <Button
              key={pick}
              size="xs"
              variant="default"
              disabled={busy}
              aria-label={`Reschedule ${item.name}: ${pick}`}
              onClick={() => move.mutate(quickPickDate(pick, today))}
            >
              {pick}
            </Button>
          ))}
          <TextInput
            type="date"
            size="xs"
            label="Other date"
            value={otherDate}
            min={today}
            disabled={busy}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setOtherDate(value);
              if (/^\d{4}-\d{2}-\d{2}$/.test(value)) move.mutate(value);
            }}
            w={150}
          />
        </Group>
      </Stack>
    </Card>
  );
}

function Section({
  title,
  items,
  today,
  overdue = false,
}: {
  title: string;
  items: FollowUp[];
  today: string;
  overdue?: boolean;
}) {
  if (items.length === 0) return null;
  const id = `follow-ups-${title.toLowerCase()}`;
  return (
    <section aria-labelledby={id} data-testid={id}>
      <Title order={3} size="h5" id={id} mb={6}>
        {title} ({items.length})
      </Title>
      <Stack gap="sm">
        {items.map((f) => (
          <FollowUpCard key={f.id} item={f} today={today} overdue={overdue} />
        ))}
      </Stack>
    </section>
  );
}

/** The Today tab's orders: due first (the default), or businesses in their buying season first. */
const ORDERS = [
  { value: 'due', label: 'Due first' },
  { value: 'season', label: 'In season first' },
] as const;
type Order = (typeof ORDERS)[number]['value'];

export function TodayPanel() {
  const { me, location } = useMainScreen();
  const { notify } = useDialogs();
  const followUps = useFollowUps();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [order, setOrder] = useState<Order>('due');
  const today = browserToday();
  const due = groupFollowUps(followUps.data ?? [], today);
  // In season first: within each of Overdue, Today and Upcoming, so nothing overdue moves out of sight.
  const bySeason = (items: FollowUp[]) => inSeasonFirst(items, (f) => f.vertical, monthOf(today));
  const groups =
    order === 'season'
      ? { overdue: bySeason(due.overdue), today: bySeason(due.today), upcoming: bySeason(due.upcoming) }
      : due;
  const none = (followUps.data ?? []).length === 0;
  // The day's route: what is overdue and due today, each business once.
  const dueStops = [
    ...new Map([...groups.overdue, ...groups.today].map((f) => [f.prospectId, f])).values(),
  ].map((f) => ({ id: f.prospectId, name: f.name }));
  return (
    <Stack gap="md" data-testid="today-panel">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed">
          {order === 'season' ? 'Your follow-ups, in season first.' : 'Your follow-ups, due first.'}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <NativeSelect
            aria-label="Order of follow-ups"
            data={ORDERS.map((o) => ({ value: o.value, label: o.label }))}
            value={order}
            onChange={(e) => setOrder(e.currentTarget.value === 'season' ? 'season' : 'due')}
            size="xs"
            data-testid="follow-ups-order"
          />
          <Button size="xs" variant="default" onClick={() => setSettingsOpen(true)}>
            Calendar & e-mail
          </Button>
        </Group>
      </Group>
      {followUps.isPending ? (
        <Loader size="sm" aria-label="Loading follow-ups" />
      ) : followUps.isError ? (
        <Alert color="red">{followUps.error.message}</Alert>
      ) : none ? (
        <Text data-testid="no-follow-ups">{NO_FOLLOW_UPS}</Text>
      ) : (
        <>
          {groups.overdue.length + groups.today.length === 0 && (
            <Text size="sm">Nothing due today. Your next follow-ups are below.</Text>
          )}
          {dueStops.length > 0 && (
            <PlanRoute
              stops={dueStops}
              fallbackStart={{ lat: location.settings.lat, lng: location.settings.lng }}
              label="Plan today's route"
            />
          )}
          <Section title="Overdue" items={groups.overdue} today={today} overdue />
          <Section title="Today" items={groups.today} today={today} />
          <Section title="Upcoming" items={groups.upcoming} today={today} />
          {followUps.hasMore && (
            <Button
              variant="default"
              onClick={() =>
                void followUps
                  .loadMore()
                  .catch((error: unknown) =>
                    notify(error instanceof Error ? error.message : String(error), 'error'),
                  )
              }
              loading={followUps.loadingMore}
              data-testid="follow-ups-load-more"
            >
              {LOAD_MORE_ENTRIES}
            </Button>
          )}
        </>
      )}
      {settingsOpen && (
        <Suspense fallback={null}>
          <CalendarDialog userId={me.id} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
