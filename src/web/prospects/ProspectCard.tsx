import { memo } from 'react';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import type { Prospect } from '../../core/types';
import type { PipelineEntry } from '../../core/api';
import type { Advertiser } from '../api';
import { fullAddress } from '../format';
import { PipelineRow } from '../main/pipeline/PipelineRow';
import { SignalChips } from './SignalChips';
import { Analysis } from './card/Analysis';
import { CardHeader } from './card/CardHeader';
import { CardNotices } from './card/CardNotices';
import { ContactButtons } from './card/ContactButtons';
import { useBusy, useNotifyError } from './card/feedback';
import { FieldSourcesLine } from './card/FieldSourcesLine';
import { LogForm } from './card/LogForm';
import { ManageButtons } from './card/ManageButtons';
import { ProspectPhotos } from './card/ProspectPhotos';
import { SeasonLine } from './card/SeasonLine';
import { StrategyButtons } from './card/StrategyButtons';
import type { CardActions, CardVariant } from './card/types';

export type { CardActions } from './card/types';

/** Memoized: a card renders again only when its own props change (see useStableHandlers for the actions). */
export const ProspectCard = memo(function ProspectCard(props: {
  prospect: Prospect;
  number?: number;
  variant: CardVariant;
  advertiser: Advertiser | undefined;
  isAdmin: boolean;
  actions: CardActions;
  /** The numbered badge opens this prospect's marker on the map. */
  onShowOnMap?: (prospect: Prospect) => void;
  /** The strategy modal is a separate feature; the button shows once it is there. */
  strategyAvailable: boolean;
  /** Saved tab: the note typed with Save for Later. */
  savedNote?: string | undefined;
  /** The business's pipeline entry (owner, stage, since), when someone works it. */
  pipeline?: PipelineEntry | undefined;
  /** The signed-in user's id: the owner may move the stage. */
  meId?: string | undefined;
  /** On a phone's list of compact cards: closes this full card back to its compact one. */
  onClose?: (() => void) | undefined;
}) {
  const { prospect: p, variant, advertiser, actions } = props;
  const notifyError = useNotifyError();
  // One button of the card at a time shows that its action is under way.
  const busy = useBusy();
  const headingId = `prospect-${p.id}-name`;

  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      component="article"
      className="prospect-card"
      aria-labelledby={headingId}
      data-testid="prospect-card"
    >
      <Stack gap={6}>
        <CardHeader
          prospect={p}
          number={props.number}
          onShowOnMap={props.onShowOnMap}
          headingId={headingId}
        />
        <Text size="sm">{fullAddress(p)}</Text>
        {p.sources && <FieldSourcesLine sources={p.sources} />}
        <ProspectPhotos prospect={p} />
        {actions.onStage && props.meId !== undefined && (
          <PipelineRow
            prospect={p}
            entry={props.pipeline}
            meId={props.meId}
            isAdmin={props.isAdmin}
            onStage={actions.onStage}
            onReassign={actions.onReassign}
            onRelease={actions.onRelease}
            onError={notifyError}
          />
        )}
        {p.signals && p.signals.length > 0 && <SignalChips signals={p.signals} labelledBy={headingId} />}
        <SeasonLine vertical={p.aiAnalysis?.breakdown?.vertical} />
        <CardNotices
          savedNote={props.savedNote}
          restricted={p.aiAnalysis?.breakdown?.restricted}
          advertiser={advertiser}
          billing={p.billing}
        />
        {p.aiAnalysis && <Analysis prospect={p} analysis={p.aiAnalysis} headingId={headingId} />}
        <Group gap={6} wrap="wrap">
          <ContactButtons prospect={p} variant={variant} busy={busy} />
          <StrategyButtons
            prospect={p}
            actions={actions}
            strategyAvailable={props.strategyAvailable}
            busy={busy}
          />
        </Group>
        <LogForm prospect={p} variant={variant} onLog={actions.onLog} idPrefix={headingId} />
        <ManageButtons
          prospect={p}
          advertiser={advertiser}
          isAdmin={props.isAdmin}
          actions={actions}
          busy={busy}
        />
        {props.onClose && (
          <Button
            variant="default"
            size="xs"
            onClick={props.onClose}
            aria-label={`Close details of ${p.name}`}
          >
            Close details
          </Button>
        )}
      </Stack>
    </Card>
  );
});
