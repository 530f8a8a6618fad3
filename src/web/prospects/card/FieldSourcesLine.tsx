import { Text } from '@mantine/core';
import type { Prospect } from '../../../core/types';

/** The fields a card says the source of, in its words. */
const SOURCED_FIELDS = [
  ['phone', 'Phone'],
  ['website', 'Website'],
  ['address', 'Address'],
] as const;

/**
 * Where the card's phone, website and address came from: "Source: OpenStreetMap" when one source gave them all,
 * else each ("Phone: Overture (Meta) · Address: OpenStreetMap").
 */
export function FieldSourcesLine({ sources }: { sources: NonNullable<Prospect['sources']> }) {
  const given = SOURCED_FIELDS.flatMap(([field, label]) => {
    const source = sources[field];
    return source ? [{ label, source }] : [];
  });
  if (given.length === 0) return null;
  const one = given.every((g) => g.source === given[0]?.source);
  return (
    <Text size="xs" c="dimmed" data-testid="field-sources">
      {one ? `Source: ${given[0]?.source}` : given.map((g) => `${g.label}: ${g.source}`).join(' · ')}
    </Text>
  );
}
