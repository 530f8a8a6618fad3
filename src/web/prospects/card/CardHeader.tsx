import { Badge, Group, Text } from '@mantine/core';
import type { Prospect } from '../../../core/types';
import { scoreColor, scoreHex, scorePercent, scoreTextHex } from '../../format';

/** The card's top: its number on the list (opens the marker on the map), name, category and score. */
export function CardHeader({
  prospect: p,
  number,
  onShowOnMap,
  headingId,
}: {
  prospect: Prospect;
  number: number | undefined;
  onShowOnMap: ((prospect: Prospect) => void) | undefined;
  /** The name's id: the card is labelled by it. */
  headingId: string;
}) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
      <Group gap={8} wrap="nowrap" align="flex-start">
        {number !== undefined && <CardNumber prospect={p} number={number} onShowOnMap={onShowOnMap} />}
        <div>
          <Text fw={700} id={headingId} className="prospect-name" data-testid="prospect-name">
            {p.name}
          </Text>
          <Text size="sm" c="dimmed">
            {p.category || 'Business'}
          </Text>
        </div>
      </Group>
      <ScoreBadge score={p.score} />
    </Group>
  );
}

/** The card's number on the list, in its score's colour: a tap shows the business on the map. */
export function CardNumber({
  prospect: p,
  number,
  onShowOnMap,
}: {
  prospect: Prospect;
  number: number;
  onShowOnMap: ((prospect: Prospect) => void) | undefined;
}) {
  return (
    <button
      type="button"
      className={`card-number prospect-marker-${scoreColor(p.score)}`}
      aria-label={`Number ${number}: show ${p.name} on the map`}
      title="Show on the map"
      onClick={() => onShowOnMap?.(p)}
    >
      {number}
    </button>
  );
}

/** The score as a percentage in its colour. */
export function ScoreBadge({ score }: { score: number }) {
  return (
    <Badge
      color={scoreHex(score)}
      style={{ flexShrink: 0, color: scoreTextHex(score) }}
      size="lg"
      variant="filled"
      aria-label={`Score ${scorePercent(score)}`}
    >
      {scorePercent(score)}
    </Badge>
  );
}
