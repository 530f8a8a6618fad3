// Visits that count: today's visits in the order they were logged (GET /api/visits), each marked
// "Verified visit" when the phone was at the business. Shown at the top of the Log tab when there are any.
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';

/** Today's date on the browser's clock, YYYY-MM-DD. */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

export function VisitsToday() {
  const date = today();
  const visits = useQuery({ queryKey: ['visits', date], queryFn: () => api.visits(date) }).data?.visits ?? [];
  if (visits.length === 0) return null;
  return (
    <Card withBorder padding="sm" radius="md" data-testid="visits-today">
      <Stack gap={6}>
        <Title order={3} size="h5">
          Today&apos;s visits ({visits.length})
        </Title>
        <ol className="route-stops">
          {visits.map((v, i) => (
            <li key={v.id} data-testid="visit">
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" fw={600} style={{ minWidth: 0 }}>
                  {i + 1}. {v.name}
                </Text>
                <Text size="xs" c="dimmed">
                  <time dateTime={v.visitedAt}>{time(v.visitedAt)}</time>
                </Text>
                {v.verified && (
                  <Badge color="green" variant="light" size="sm" tt="none">
                    Verified visit
                  </Badge>
                )}
              </Group>
            </li>
          ))}
        </ol>
      </Stack>
    </Card>
  );
}
