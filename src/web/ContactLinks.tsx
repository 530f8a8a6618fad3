// Call, Directions and Website as plain links, the same on every list a rep works from: the prospect card,
// the Today tab and the call log. Each is shown only when there is somewhere to go.
import { Button } from '@mantine/core';
import { telHref } from './format';

/** A tel: link to `phone`, named for the business. */
export function CallLink({ name, phone }: { name: string; phone: string }) {
  return (
    <Button component="a" href={telHref(phone)} size="xs" variant="light" aria-label={`Call ${name}`}>
      Call
    </Button>
  );
}

/** A page about the business in a new tab. */
function NewTabLink({ href, label, ariaLabel }: { href: string; label: string; ariaLabel: string }) {
  return (
    <Button
      component="a"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      size="xs"
      variant="light"
      aria-label={ariaLabel}
    >
      {label}
    </Button>
  );
}

/** Directions to the business (`href`: directionsUrl of its address or position). */
export function DirectionsLink({ name, href }: { name: string; href: string }) {
  return <NewTabLink href={href} label="Directions" ariaLabel={`Directions to ${name}`} />;
}

/** The business's website (`href`: websiteHref of what it gave). */
export function WebsiteLink({ name, href }: { name: string; href: string }) {
  return <NewTabLink href={href} label="Website" ariaLabel={`Website of ${name}`} />;
}
