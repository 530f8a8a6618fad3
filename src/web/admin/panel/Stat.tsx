import { Paper, Text } from '@mantine/core';

/** One labelled number in a section's grid of counts. */
export function Stat({ label, value }: { label: string; value: number | string }) {
  return (
    <Paper withBorder p="xs" radius="md" data-testid={`stat-${label.toLowerCase()}`}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
    </Paper>
  );
}
