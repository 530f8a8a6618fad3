import { Button, Group, NativeSelect, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { Prospect } from '../../../core/types';
import { FollowUpFields } from '../../main/follow-ups/FollowUpFields';
import { EMPTY_DRAFT, followUpFromDraft, type FollowUpDraft } from '../../main/follow-ups/draft';
import { OUTCOME_CALLED, OUTCOME_SAVE, OUTCOME_VISITED } from '../../texts';
import { useNotifyError } from './feedback';
import type { CardActions, CardVariant } from './types';

/**
 * The outcome log: a status, a note and, for a call or visit, a follow-up; cleared once the log is stored.
 * The Saved tab has no Save for Later (docs/PRODUCT.md, "Saved prospects, advertisers and the blocklist").
 */
export function LogForm({
  prospect: p,
  variant,
  onLog,
  idPrefix,
}: {
  prospect: Prospect;
  variant: CardVariant;
  onLog: CardActions['onLog'];
  /** Makes the follow-up fields' ids unique to this card. */
  idPrefix: string;
}) {
  const notifyError = useNotifyError();
  const [outcome, setOutcome] = useState('');
  const [note, setNote] = useState('');
  const [followUp, setFollowUp] = useState<FollowUpDraft>(EMPTY_DRAFT);
  const [logging, setLogging] = useState(false);

  const log = async () => {
    if (!outcome) return;
    setLogging(true);
    try {
      const next = outcome === OUTCOME_SAVE ? undefined : followUpFromDraft(followUp);
      await onLog(p, outcome, note, next);
      setOutcome('');
      setNote('');
      setFollowUp(EMPTY_DRAFT);
    } catch (error) {
      notifyError(error);
    } finally {
      setLogging(false);
    }
  };

  const outcomes =
    variant === 'saved' ? [OUTCOME_CALLED, OUTCOME_VISITED] : [OUTCOME_CALLED, OUTCOME_VISITED, OUTCOME_SAVE];
  // A call or visit can set a follow-up; the Log button then comes after its fields.
  const withFollowUp = outcome === OUTCOME_CALLED || outcome === OUTCOME_VISITED;
  const logButton = (
    <Button
      size="xs"
      disabled={!outcome || (followUp.pick === 'date' && !followUp.date)}
      loading={logging}
      onClick={() => void log()}
    >
      Log
    </Button>
  );

  return (
    <>
      <Group gap={6} align="flex-end" wrap="wrap">
        <NativeSelect
          label="Status"
          size="xs"
          value={outcome}
          onChange={(e) => setOutcome(e.currentTarget.value)}
          data={[{ value: '', label: 'Select status' }, ...outcomes.map((o) => ({ value: o, label: o }))]}
          w={140}
        />
        {/* Up to 2,000 characters: the field grows with the note, to six lines, then scrolls. */}
        <Textarea
          label="Note"
          size="xs"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={2000}
          autosize
          minRows={1}
          maxRows={6}
          style={{ flex: 1, minWidth: 140 }}
        />
        {!withFollowUp && logButton}
      </Group>
      {withFollowUp && (
        <>
          <FollowUpFields value={followUp} onChange={setFollowUp} idPrefix={idPrefix} />
          <Group>{logButton}</Group>
        </>
      )}
    </>
  );
}
