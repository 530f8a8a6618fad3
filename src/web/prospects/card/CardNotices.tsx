import { Alert, Text } from '@mantine/core';
import type { Prospect } from '../../../core/types';
import type { Advertiser } from '../../api';
import { formatDateTime } from '../../format';

/** What a restricted category is, as its flag says it. */
const RESTRICTED_LABELS = {
  cannabis: 'Cannabis',
  firearms: 'Firearms',
  adult: 'Adult entertainment',
} as const;

type Restricted = NonNullable<NonNullable<Prospect['aiAnalysis']>['breakdown']>['restricted'];

/** The notes a card may carry: the saved note, a restricted category's warning, the current-advertiser banner. */
export function CardNotices({
  savedNote,
  restricted,
  advertiser,
}: {
  savedNote: string | undefined;
  restricted: Restricted;
  advertiser: Advertiser | undefined;
}) {
  return (
    <>
      {savedNote && (
        <Text size="sm" data-testid="saved-note">
          <Text span fw={600} size="sm">
            Note:
          </Text>{' '}
          {savedNote}
        </Text>
      )}
      {restricted && (
        <Alert color="orange" variant="light" p={6} data-testid="restricted-flag">
          <Text size="sm">
            <Text span fw={600} size="sm">
              {RESTRICTED_LABELS[restricted]}:
            </Text>{' '}
            most local TV and cable sellers may not accept its ads. Check your station's policy before
            calling.
          </Text>
        </Alert>
      )}
      {advertiser && (
        <Alert color="grape" variant="light" p={6} data-testid="advertiser-banner">
          <Text size="sm">
            Current advertiser — marked by {advertiser.markedByName} on {formatDateTime(advertiser.markedAt)}
          </Text>
        </Alert>
      )}
    </>
  );
}
