import { Stack, Table, Text } from '@mantine/core';
import type { Prospect } from '../../../core/types';
import { VERTICAL_LABELS } from '../../../core/verticals';
// The constants only (labels): the scoring model itself stays off the page.
import { KEYWORD_LABELS, type KeywordGroup, type ScoreRule } from '../../../core/scoring/constants';

const BREAKDOWN_ROWS = [
  ['fit', 'Channel fit'],
  ['presence', 'Online presence'],
  ['scale', 'Size'],
  ['keywords', 'Name signals'],
  ['distance', 'Distance'],
  ['qualitySpread', 'Scan variety bonus'],
] as const;

/** Words a rep reads for the rules that decide a score outright. */
const RULE_LABELS: Readonly<Record<ScoreRule | 'fallback', string>> = {
  nationalChain: 'national chain',
  lowPropensity: 'does not buy local advertising',
  restricted: 'a category many stations may not accept',
  autoRepair: 'independent auto repair',
  chain: 'part of a chain',
  gasStation: 'gas station',
  government: 'public institution',
  hospital: 'hospital',
  nonProfit: 'non-profit',
  fallback: 'category estimate',
};

/** How the score was reached: the components and their points, or the rule that decided it (docs/SCORING.md). */
export function ScoreBreakdown({ prospect }: { prospect: Prospect }) {
  const b = prospect.aiAnalysis?.breakdown;
  if (!b) return null;
  const score = prospect.aiAnalysis?.score ?? Math.round(prospect.score * 100);
  const vertical = VERTICAL_LABELS[b.vertical] ?? String(b.vertical).replaceAll('_', ' ');
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        Scored as {vertical.toLowerCase()}
        {b.rule ? ` — rule: ${RULE_LABELS[b.rule]}` : ''}
        {b.brand ? ` — brand: ${b.brand}` : ''}
      </Text>
      {b.points || !b.rule ? (
        <Table withRowBorders={false} verticalSpacing={2} fz="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Component</Table.Th>
              <Table.Th ta="right">Value</Table.Th>
              <Table.Th ta="right">Points</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {b.points && (
              <Table.Tr>
                <Table.Td>Starting points</Table.Td>
                <Table.Td />
                <Table.Td ta="right">{b.points.base}</Table.Td>
              </Table.Tr>
            )}
            {BREAKDOWN_ROWS.map(([key, label]) => (
              <Table.Tr key={key}>
                <Table.Td>{label}</Table.Td>
                <Table.Td ta="right">{Math.round((b[key] ?? 0) * 100)}%</Table.Td>
                <Table.Td ta="right">
                  {b.points ? b.points[key] : ((b.contributions?.[key] ?? 0) * 100).toFixed(1)}
                </Table.Td>
              </Table.Tr>
            ))}
            {b.points && (
              <Table.Tr>
                <Table.Td fw={700}>Score</Table.Td>
                <Table.Td />
                <Table.Td ta="right" fw={700}>
                  {score}
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="xs">
          A rule decides this score: {b.rule ? RULE_LABELS[b.rule] : ''} ({score}).
        </Text>
      )}
      {b.quantile !== undefined && b.quantile !== null && b.reference && (
        <Text size="xs">
          Standing {Math.min(100, Math.round(b.quantile * 100))}/100 on the scale of the reference market (
          {b.reference.population.toLocaleString('en-US')} businesses): the same wherever it is scanned.
        </Text>
      )}
      {b.keywordMatches && b.keywordMatches.length > 0 && (
        <Text size="xs">
          Name signals: {b.keywordMatches.map((k) => KEYWORD_LABELS[k as KeywordGroup] ?? k).join(', ')}
        </Text>
      )}
    </Stack>
  );
}
