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
        {number !== undefined && (
          <button
            type="button"
            className={`card-number prospect-marker-${scoreColor(p.score)}`}
            aria-label={`Number ${number}: show ${p.name} on the map`}
            title="Show on the map"
            onClick={() => onShowOnMap?.(p)}
          >
            {number}
          </button>
        )}
        <div>
          <Text fw={700} id={headingId} className="prospect-name" data-testid="prospect-name">
            {p.name}
          </Text>
          <Text size="sm" c="dimmed">
            {p.category || 'Business'}
          </Text>
        </div>
      </Group>
      <Badge
        color={scoreHex(p.score)}
        style={{ flexShrink: 0, color: scoreTextHex(p.score) }}
        size="lg"
        variant="filled"
        aria-label={`Score ${scorePercent(p.score)}`}
      >
        {scorePercent(p.score)}
      </Badge>
    </Group>
  );
}
