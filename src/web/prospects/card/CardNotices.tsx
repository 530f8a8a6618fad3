import { Alert, Text } from '@mantine/core';
import type { Prospect } from '../../../core/types';
import type { Advertiser } from '../../api';
import { formatDateTime } from '../../format';
import { billingLine } from '../../../core/billing-text';

/** What a restricted category is, as its flag says it. */
const RESTRICTED_LABELS = {
  cannabis: 'Cannabis',
  firearms: 'Firearms',
  adult: 'Adult entertainment',
} as const;

type Restricted = NonNullable<NonNullable<Prospect['aiAnalysis']>['breakdown']>['restricted'];

/** The billing import's line of a lapsed or declining advertiser ("Lapsed advertiser: last ran March, ..."). */
export function BillingLine({ billing, compact }: { billing: Prospect['billing']; compact?: boolean }) {
  const line = billing ? billingLine(billing) : null;
  if (!line) return null;
  const color = billing?.status === 'lapsed' ? 'orange' : 'yellow';
  return compact ? (
    <Text size="sm" fw={600} c={`${color}.9`} mt={6} data-testid="billing-line">
      {line}
    </Text>
  ) : (
    <Alert color={color} variant="light" p={6} data-testid="billing-line">
      <Text size="sm" fw={600}>
        {line}
      </Text>
    </Alert>
  );
}

/** Who marked a current advertiser: a user, or the billing import. */
const markedBy = (a: Advertiser) =>
  a.markedBy === null && a.markedByName === 'billing'
    ? `from the billing import of ${formatDateTime(a.markedAt)}`
    : `marked by ${a.markedByName} on ${formatDateTime(a.markedAt)}`;

/**
 * The notes a card may carry: the saved note, a restricted category's warning, the current-advertiser banner,
 * the billing line of a lapsed or declining advertiser.
 */
export function CardNotices({
  savedNote,
  restricted,
  advertiser,
  billing,
}: {
  savedNote: string | undefined;
  restricted: Restricted;
  advertiser: Advertiser | undefined;
  billing?: Prospect['billing'];
}) {
  return (
    <>
      <BillingLine billing={billing} />
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
          <Text size="sm">Current advertiser — {markedBy(advertiser)}</Text>
        </Alert>
      )}
    </>
  );
}
