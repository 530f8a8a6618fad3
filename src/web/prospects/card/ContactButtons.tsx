import { Button } from '@mantine/core';
import type { Prospect } from '../../../core/types';
import { useDialogs } from '../../dialogs';
import { directionsUrl, telHref, websiteHref } from '../../format';
import { PHONE_NOT_AVAILABLE, WEBSITE_NOT_AVAILABLE } from '../../texts';
import type { Busy } from './feedback';
import type { CardVariant } from './types';
import { usePlaceDetails } from './usePlaceDetails';
import { CallLink, DirectionsLink, WebsiteLink } from '../../ContactLinks';

/**
 * Call, Directions and Website. Without a phone or website on the card, Call and Website fetch the business's
 * details first; the Saved tab shows them only when the card has one.
 */
export function ContactButtons({
  prospect: p,
  variant,
  busy: cardBusy,
}: {
  prospect: Prospect;
  variant: CardVariant;
  busy: Busy;
}) {
  const { busy, setBusy } = cardBusy;
  const { notify } = useDialogs();
  const { details, canFetchDetails, fetchDetails } = usePlaceDetails(p);
  const phone = p.phone || details?.phone || '';
  const website = websiteHref(p.website || details?.website);
  const showCall = variant === 'prospects' || phone !== '';
  const showWebsite = variant === 'prospects' || website !== null;

  const openWebsite = async () => {
    // The tab opens now, inside the click: one opened after the details request is a blocked popup on iOS
    // Safari. It is sent to the website once the details name one, or closed again when there is none.
    const tab = window.open('', '_blank');
    setBusy('website');
    const found = await fetchDetails();
    setBusy(null);
    const href = websiteHref(found?.website);
    if (href && tab) {
      tab.opener = null;
      tab.location.href = href;
      return;
    }
    tab?.close();
    if (href) window.open(href, '_blank', 'noopener');
    else notify(WEBSITE_NOT_AVAILABLE, 'error');
  };

  return (
    <>
      {showCall && <CallButton prospect={p} busy={cardBusy} />}
      <DirectionsLink name={p.name} href={directionsUrl(p)} />
      {showWebsite &&
        (website ? (
          <WebsiteLink name={p.name} href={website} />
        ) : (
          <Button
            size="xs"
            variant="light"
            loading={busy === 'website'}
            onClick={() => (canFetchDetails ? void openWebsite() : notify(WEBSITE_NOT_AVAILABLE, 'error'))}
            aria-label={`Website of ${p.name}`}
          >
            Website
          </Button>
        ))}
    </>
  );
}

/** Call: a tel: link when the number is known, else a button that fetches the business's details first. */
export function CallButton({ prospect: p, busy: { busy, setBusy } }: { prospect: Prospect; busy: Busy }) {
  const { notify } = useDialogs();
  const { details, canFetchDetails, fetchDetails } = usePlaceDetails(p);
  const phone = p.phone || details?.phone || '';
  if (phone) return <CallLink name={p.name} phone={phone} />;
  const call = async () => {
    setBusy('call');
    const found = await fetchDetails();
    setBusy(null);
    if (found?.phone) window.location.href = telHref(found.phone);
    else notify(PHONE_NOT_AVAILABLE, 'error');
  };
  return (
    <Button
      size="xs"
      variant="light"
      loading={busy === 'call'}
      onClick={() => (canFetchDetails ? void call() : notify(PHONE_NOT_AVAILABLE, 'error'))}
      aria-label={`Call ${p.name}`}
    >
      Call
    </Button>
  );
}
