// "Calendar & e-mail": the rep's private calendar feed link (copy, make a new one: the old link stops
// working) and the morning digest switch. The server keeps only the token's hash, so the link is shown when it
// is made and remembered on this device only.
import { useState } from 'react';
import { Button, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type CalendarSettings } from '../../api';
import { useDialogs } from '../../dialogs';
import { runtimeTimeZone } from '../../../core/time-zone';

const storageKey = (userId: string) => `calendarFeed:${userId}`;

function rememberedFeed(userId: string): string | null {
  try {
    return window.localStorage.getItem(storageKey(userId));
  } catch {
    return null;
  }
}

export function CalendarDialog({ userId, onClose }: { userId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { notify, confirm } = useDialogs();
  const settings = useQuery({ queryKey: ['calendarSettings'], queryFn: api.calendarSettings });
  const [feedUrl, setFeedUrl] = useState<string | null>(() => rememberedFeed(userId));
  const shownUrl = settings.data?.hasFeed ? feedUrl : null;

  const makeFeed = useMutation({
    mutationFn: api.newCalendarFeed,
    onSuccess: ({ feedUrl: url, settings: next }) => {
      setFeedUrl(url);
      try {
        window.localStorage.setItem(storageKey(userId), url);
      } catch {
        // Private mode: the link is still shown until the dialog closes.
      }
      queryClient.setQueryData<CalendarSettings>(['calendarSettings'], next);
    },
    onError: (error) => notify(error.message, 'error'),
  });

  const digest = useMutation({
    mutationFn: (digestEnabled: boolean) =>
      api.changeCalendarSettings({ digestEnabled, timeZone: runtimeTimeZone() }),
    onSuccess: (next) => queryClient.setQueryData<CalendarSettings>(['calendarSettings'], next),
    onError: (error) => notify(error.message, 'error'),
  });

  const regenerate = async () => {
    if (
      settings.data?.hasFeed &&
      !(await confirm(
        'Make a new calendar link? Calendars subscribed to the old link stop getting updates.',
        'New link',
      ))
    ) {
      return;
    }
    makeFeed.mutate();
  };

  const copy = async () => {
    if (!shownUrl) return;
    try {
      await navigator.clipboard.writeText(shownUrl);
      notify('Calendar link copied.', 'success');
    } catch {
      notify('Copy failed: select the link and copy it.', 'error');
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title="Calendar & e-mail"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Stack gap={6}>
          <Text fw={600}>Calendar feed</Text>
          <Text size="sm">
            Subscribe to your private link in Google Calendar, Apple Calendar or Outlook to see your
            follow-ups and meetings there. Anyone with the link can read them: keep it to yourself.
          </Text>
          {shownUrl ? (
            <>
              <TextInput
                label="Your calendar link"
                value={shownUrl}
                readOnly
                onFocus={(e) => e.currentTarget.select()}
                data-testid="calendar-feed-url"
              />
              <Group gap={6}>
                <Button size="xs" onClick={() => void copy()}>
                  Copy link
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  loading={makeFeed.isPending}
                  onClick={() => void regenerate()}
                >
                  New link
                </Button>
              </Group>
            </>
          ) : settings.data?.hasFeed ? (
            <>
              <Text size="sm" c="dimmed">
                Your calendar link is active. It is shown only on the device that made it; make a new link to
                copy it here (the old one stops working).
              </Text>
              <Group>
                <Button size="xs" loading={makeFeed.isPending} onClick={() => void regenerate()}>
                  New link
                </Button>
              </Group>
            </>
          ) : (
            <Group>
              <Button
                size="xs"
                loading={makeFeed.isPending}
                disabled={settings.isPending}
                onClick={() => makeFeed.mutate()}
              >
                Create calendar link
              </Button>
            </Group>
          )}
        </Stack>
        <Stack gap={6}>
          <Text fw={600}>Morning e-mail</Text>
          <Switch
            label="E-mail me my follow-ups each morning"
            description="Sent early in the day on days something is due, with a route through the stops."
            checked={settings.data?.digestEnabled ?? true}
            disabled={settings.isPending || digest.isPending}
            onChange={(e) => digest.mutate(e.currentTarget.checked)}
          />
        </Stack>
      </Stack>
    </Modal>
  );
}
