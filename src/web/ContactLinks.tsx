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

/** Directions to the business in a new tab (`href`: directionsUrl of its address or position). */
export function DirectionsLink({ name, href }: { name: string; href: string }) {
  return (
    <Button
      component="a"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      size="xs"
      variant="light"
      aria-label={`Directions to ${name}`}
    >
      Directions
    </Button>
  );
}

/** The business's website in a new tab (`href`: websiteHref of what it gave). */
export function WebsiteLink({ name, href }: { name: string; href: string }) {
  return (
    <Button
      component="a"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      size="xs"
      variant="light"
      aria-label={`Website of ${name}`}
    >
      Website
    </Button>
  );
}
