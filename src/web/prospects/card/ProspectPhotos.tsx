import { Fragment, useState } from 'react';
import { Anchor, Box, Text } from '@mantine/core';
import type { PhotoAuthor } from '../../../core/api';
import type { Prospect } from '../../../core/types';
import { urlOf } from '../../http';

/** The largest a photo is shown, in CSS pixels (the server fetches them at most 400x400). */
const PHOTO_SIDE_PX = 160;

/**
 * Google's photos of the business (up to 3), loaded through the server when they scroll into view, with their
 * authors credited under them as Google's terms require. A photo that fails to load is left out; nothing shows
 * when the business has no photo.
 */
export function ProspectPhotos({ prospect: p }: { prospect: Prospect }) {
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const shown = (p.photos ?? []).filter((photo) => !failed.has(photo.ref));
  if (shown.length === 0) return null;
  // Each author once, with a link when any of their photos gives one.
  const byName = new Map<string, PhotoAuthor>();
  for (const a of shown.flatMap((photo) => photo.authors))
    if (!byName.get(a.displayName)?.uri) byName.set(a.displayName, a);
  const authors = [...byName.values()];
  return (
    <Box data-testid="prospect-photos">
      <Box
        style={{
          display: 'grid',
          gridTemplateColumns: `repeat(3, minmax(0, ${PHOTO_SIDE_PX}px))`,
          gap: 6,
        }}
      >
        {shown.map((photo) => {
          const n = (p.photos ?? []).indexOf(photo) + 1;
          return (
            <img
              key={photo.ref}
              src={urlOf('GET /api/photos', { query: { ref: photo.ref } })}
              alt={`${p.name} photo ${n}`}
              loading="lazy"
              decoding="async"
              width={PHOTO_SIDE_PX}
              height={PHOTO_SIDE_PX}
              onError={() => setFailed((before) => new Set(before).add(photo.ref))}
              style={{
                display: 'block',
                width: '100%',
                height: 'auto',
                aspectRatio: '1 / 1',
                objectFit: 'cover',
                borderRadius: 6,
                background: 'var(--mantine-color-gray-1)',
              }}
            />
          );
        })}
      </Box>
      <Text size="xs" c="dimmed" mt={4} data-testid="photo-credits">
        {authors.length > 0 ? 'Photos by ' : 'Photos from Google Maps'}
        {authors.map((a, i) => (
          <Fragment key={a.displayName}>
            {i > 0 && ', '}
            {a.uri ? (
              <Anchor href={a.uri} target="_blank" rel="noopener noreferrer" inherit>
                {a.displayName}
              </Anchor>
            ) : (
              a.displayName
            )}
          </Fragment>
        ))}
        {authors.length > 0 && ' · Google Maps'}
      </Text>
    </Box>
  );
}
