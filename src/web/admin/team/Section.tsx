import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ScrollBox } from '../common';

/** A column of a dashboard table: its header, its cell, and whether it holds numbers (right-aligned). */
export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
}

export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  minWidth = 480,
  testId,
}: {
  label: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  minWidth?: number;
  testId?: string;
}) {
  return (
    <ScrollBox label={label} minWidth={minWidth}>
      <Table striped withTableBorder highlightOnHover={false} data-testid={testId}>
        <Table.Caption className="sr-only">{label}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.header} style={c.numeric ? { textAlign: 'right' } : undefined} scope="col">
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((c) => (
                <Table.Td key={c.header} style={c.numeric ? { textAlign: 'right' } : undefined}>
                  {c.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollBox>
  );
}

/**
 * One block of the dashboard: a title, a sentence that says what the chart shows (its text alternative, also
 * the chart's accessible name), the chart or its table (a button switches; the printed page has both), and a
 * CSV download of the table.
 */
export function Section({
  id,
  title,
  summary,
  note,
  chart,
  table,
  onCsv,
  actions,
  interactive = false,
}: {
  id: string;
  title: string;
  summary: string;
  note?: string;
  chart?: ReactNode;
  table: ReactNode;
  onCsv?: () => void;
  actions?: ReactNode;
  /** The chart takes input itself (the map): a named group, not an image, so its controls stay reachable. */
  interactive?: boolean;
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const showChart = chart !== undefined && view === 'chart';
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      component="section"
      aria-labelledby={`team-${id}-title`}
      className="team-section"
      data-testid={`team-section-${id}`}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" align="flex-start">
          <Title order={3} size="h4" id={`team-${id}-title`}>
            {title}
          </Title>
          <Group gap="xs" className="no-print">
            {actions}
            {chart !== undefined && (
              <Button
                variant="default"
                size="compact-sm"
                aria-pressed={view === 'table'}
                onClick={() => setView(view === 'chart' ? 'table' : 'chart')}
              >
                {view === 'chart' ? 'Show table' : 'Show chart'}
              </Button>
            )}
            {onCsv && (
              <Button
                variant="light"
                size="compact-sm"
                onClick={onCsv}
                aria-label={`Download ${title} as CSV`}
              >
                CSV
              </Button>
            )}
          </Group>
        </Group>
        <Text size="sm" data-testid={`team-${id}-summary`}>
          {summary}
        </Text>
        {note && (
          <Text size="xs" c="dimmed">
            {note}
          </Text>
        )}
        {chart !== undefined && (
          <div
            role={interactive ? 'group' : 'img'}
            aria-label={`${title}: ${summary}`}
            className={showChart ? 'team-chart' : 'team-chart print-only'}
            data-testid={`team-${id}-chart`}
          >
            {chart}
          </div>
        )}
        <div className={showChart ? 'print-only' : undefined}>{table}</div>
      </Stack>
    </Paper>
  );
}
