// "Why now": a business in its buying season says so on its card, in the rep's own month (this browser's clock
// and zone). Read beside the score, never part of it.
import { Text } from '@mantine/core';
import { monthOf, seasonFor, seasonLine } from '../../../core/season';
import { localDateOf, runtimeTimeZone } from '../../../core/time-zone';
import type { Vertical } from '../../../core/verticals';

/** The rep's month now, 1-12, on this browser's clock in its zone. */
export const browserMonth = () => monthOf(localDateOf(Date.now(), runtimeTimeZone()));

export function SeasonLine({ vertical }: { vertical: Vertical | undefined }) {
  const season = seasonFor(vertical, browserMonth());
  if (!season) return null;
  return (
    <Text size="sm" fw={600} c="teal.9" data-testid="season-line">
      {seasonLine(season)}
    </Text>
  );
}
