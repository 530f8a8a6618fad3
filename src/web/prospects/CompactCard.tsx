// A prospect in a phone's list: what a rep needs to decide whether to call, in a third of a full card's height
// (rank, name, score, category, distance, the number and Call, Saved and the pipeline stage, the last note).
// "Details" opens the full card in its place.
import { memo } from 'react';
import { Badge, Button, Card, Group, Text } from '@mantine/core';
import type { PipelineEntry } from '../../core/api';
import type { Prospect } from '../../core/types';
import type { Advertiser } from '../api';
import { CardNumber, ScoreBadge } from './card/CardHeader';
import { CallButton } from './card/ContactButtons';
import { useBusy } from './card/feedback';
import { BillingLine } from './card/CardNotices';

/** "0.4 mi", "12 mi": a tenth of a mile near, whole miles far. */
export const milesText = (miles: number) => `${miles < 10 ? miles.toFixed(1) : Math.round(miles)} mi`;

export const CompactCard = memo(function CompactCard(props: {
  prospect: Prospect;
  number: number;
  /** The rep saved it for later. */
  saved: boolean;
  pipeline: PipelineEntry | undefined;
  advertiser: Advertiser | undefined;
  /** The note of the latest call-log entry for this business, when it has one. */
  lastNote: string | undefined;
  onShowOnMap: ((prospect: Prospect) => void) | undefined;
  onOpen: (id: string) => void;
}) {
  const { prospect: p, pipeline } = props;
  const busy = useBusy();
  const headingId = `prospect-${p.id}-name`;
  const claimed = pipeline !== undefined && pipeline.ownerId !== null;
  const markers = props.saved || claimed || props.advertiser !== undefined;
  return (
    <Card
      withBorder
      radius="md"
      padding={8}
      component="article"
      className="prospect-card compact-card"
      aria-labelledby={headingId}
      data-testid="prospect-card"
      data-compact="true"
    >
      <Group gap={8} wrap="nowrap" align="center">
        <CardNumber prospect={p} number={props.number} onShowOnMap={props.onShowOnMap} />
        <div className="compact-card-title">
          <Text fw={700} id={headingId} className="prospect-name" data-testid="prospect-name" truncate="end">
            {p.name}
          </Text>
          <Text size="sm" c="dimmed" truncate="end">
            {p.category || 'Business'} · {milesText(p.distance)}
          </Text>
        </div>
        <ScoreBadge score={p.score} />
      </Group>
      <Group gap={8} wrap="nowrap" mt={6} align="center">
        <Text size="sm" className="compact-card-phone" data-testid="compact-phone">
          {p.phone || 'No number listed'}
        </Text>
        <CallButton prospect={p} busy={busy} />
        <Button
          size="xs"
          variant="default"
          onClick={() => props.onOpen(p.id)}
          aria-expanded={false}
          aria-label={`Details of ${p.name}`}
        >
          Details
        </Button>
      </Group>
      <BillingLine billing={p.billing} compact />
      {(markers || props.lastNote) && (
        <Group gap={6} wrap="nowrap" mt={6} className="compact-card-markers">
          {props.saved && (
            <Badge size="sm" variant="light" color="blue" style={{ flexShrink: 0 }}>
              Saved
            </Badge>
          )}
          {claimed && (
            <Badge
              size="sm"
              variant="light"
              color="grape"
              style={{ flexShrink: 0 }}
              data-testid="compact-stage"
            >
              {pipeline.stage}
            </Badge>
          )}
          {props.advertiser && (
            <Badge size="sm" variant="light" color="teal" style={{ flexShrink: 0 }}>
              Advertiser
            </Badge>
          )}
          {props.lastNote && (
            <Text size="sm" c="dimmed" truncate="end" data-testid="compact-note">
              {props.lastNote}
            </Text>
          )}
        </Group>
      )}
    </Card>
  );
});
