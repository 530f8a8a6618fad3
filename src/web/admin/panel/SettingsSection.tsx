import { Checkbox, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlgorithmSettings } from '../../../core/api';
import { useDialogs } from '../../dialogs';
import { ADMIN_KEYS, adminApi } from '../api';
import { ErrorAlert, Loading, messageOf } from '../common';

const SETTING_LABELS: Record<keyof AlgorithmSettings, { label: string; description: string }> = {
  showAllProspects: {
    label: 'Show all prospects',
    description: 'Skip the prefilter that scores chains, gas stations, government and non-profits near zero.',
  },
  useOsmTopUp: {
    label: 'Top up results from OpenStreetMap',
    description: 'Add Overpass results when a scan finds fewer businesses than requested.',
  },
  useLlmAnalysis: {
    label: 'Use the AI model for analysis text',
    description: 'Let the configured AI endpoint rewrite the reasoning of the top results; scores stay.',
  },
};

/** Algorithm Settings: team-wide switches; admins read them, SuperAdmins change them. */
export function SettingsSection({ canChange }: { canChange: boolean }) {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const settings = useQuery({ queryKey: ADMIN_KEYS.settings, queryFn: adminApi.settings });
  const update = useMutation({
    mutationFn: adminApi.updateSettings,
    // Shown at once; put back if the server refuses.
    onMutate: (patch) => {
      const before = queryClient.getQueryData<AlgorithmSettings>(ADMIN_KEYS.settings);
      if (before) queryClient.setQueryData<AlgorithmSettings>(ADMIN_KEYS.settings, { ...before, ...patch });
      return { before };
    },
    onSuccess: (next) => queryClient.setQueryData(ADMIN_KEYS.settings, next),
    onError: (error, _patch, context) => {
      if (context?.before) queryClient.setQueryData(ADMIN_KEYS.settings, context.before);
      notify(messageOf(error), 'error');
    },
  });
  return (
    <Stack gap="xs">
      {settings.isPending && <Loading label="Loading settings..." />}
      {settings.isError && <ErrorAlert message={messageOf(settings.error)} />}
      {settings.data &&
        (Object.keys(SETTING_LABELS) as (keyof AlgorithmSettings)[]).map((key) => (
          <Checkbox
            key={key}
            label={SETTING_LABELS[key].label}
            description={SETTING_LABELS[key].description}
            checked={settings.data[key]}
            disabled={!canChange || update.isPending}
            onChange={(e) => update.mutate({ [key]: e.currentTarget.checked })}
          />
        ))}
      {!canChange && (
        <Text size="xs" c="dimmed">
          Only SuperAdmins can change these settings.
        </Text>
      )}
    </Stack>
  );
}
