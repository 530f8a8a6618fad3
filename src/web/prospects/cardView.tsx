// Which cards a list shows: compact ones on a phone (under 600 px wide), full ones elsewhere, unless the rep
// chose otherwise on this device (kept in localStorage, as a device's display is its own).
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { Switch } from '@mantine/core';

export const PHONE_QUERY = '(max-width: 37.49em)';
type Choice = 'compact' | 'full';

/**
 * The phone layout: on a screen under 600 px wide the lists show compact cards and the scan settings fold into
 * one line after a scan, unless the rep chose full cards on this device. The choice is kept in
 * localStorage (a device's display is its own) and shared by every component that asks.
 */
export function useCardView() {
  const phone = useMediaQuery(PHONE_QUERY, window.matchMedia(PHONE_QUERY).matches, {
    getInitialValueInEffect: false,
  });
  const [choice, setChoice] = useLocalStorage<Choice>({
    key: 'prospect-finder.cards',
    defaultValue: 'compact',
    getInitialValueInEffect: false,
  });
  return { phone, compact: phone && choice !== 'full', choose: setChoice };
}

/** The rep's choice between compact and full cards, shown on a phone. */
export function CardViewControl({ view }: { view: ReturnType<typeof useCardView> }) {
  return (
    <Switch
      label="Compact cards"
      checked={view.compact}
      onChange={(e) => view.choose(e.currentTarget.checked ? 'compact' : 'full')}
    />
  );
}
