// "Plan route": a button that orders the given stops from the rep's position (GPS within a few
// seconds, else the scan centre) with POST /api/route, and a dialog showing the numbered route on a map, the leg
// and total distances and the map-app links. Reusable: the Saved tab, a selection of cards, Today's follow-ups
// each hand it their list of stops.
import { lazy, Suspense, useState } from 'react';
import { Button, Loader, Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { RouteAnswer } from '../../../core/api';
import { MAX_ROUTE_STOPS } from '../../../core/api/limits';
import { api } from '../../api';
import { useDialogs } from '../../dialogs';
import { useConfig } from '../../session';
import { currentPosition } from './position';

// The route view and its map (Leaflet) are a chunk of their own, loaded when a route is planned.
const RouteView = lazy(() => import('./RouteView'));

export interface RouteStopInput {
  /** The business's id (its prospect id). */
  id: string;
  name: string;
}

export interface PlanRouteProps {
  /** The businesses to visit; the server looks up their positions. */
  stops: readonly RouteStopInput[];
  /** Where to start when the phone gives no position: the scan centre. */
  fallbackStart: { lat: number; lng: number };
  /** The button's text (default "Plan route"). */
  label?: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function PlanRoute({ stops, fallbackStart, label = 'Plan route' }: PlanRouteProps) {
  const { notify } = useDialogs();
  const config = useConfig().data;
  const phone = useMediaQuery('(max-width: 48em)');
  const [busy, setBusy] = useState(false);
  const [route, setRoute] = useState<{ answer: RouteAnswer; startLabel: string } | null>(null);
  const tooMany = stops.length > MAX_ROUTE_STOPS;

  const plan = async () => {
    setBusy(true);
    try {
      const gps = await currentPosition();
      const start = gps ? { lat: gps.lat, lng: gps.lng } : fallbackStart;
      const answer = await api.planRoute({ start, prospectIds: stops.map((s) => s.id) });
      setRoute({ answer, startLabel: gps ? 'Your position' : 'Scan centre' });
    } catch (error) {
      notify(messageOf(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        onClick={() => void plan()}
        loading={busy}
        disabled={stops.length === 0 || tooMany}
        title={tooMany ? `A route takes at most ${MAX_ROUTE_STOPS} stops` : undefined}
        data-testid="plan-route"
      >
        {label} ({stops.length})
      </Button>
      <Modal
        opened={route !== null}
        onClose={() => setRoute(null)}
        title="Route for the day"
        fullScreen={phone}
        size="xl"
        closeButtonProps={{ 'aria-label': 'Close route' }}
      >
        {route && (
          <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading" />}>
            <RouteView
              route={route.answer}
              startLabel={route.startLabel}
              tileUrl={config?.map.tileUrl ?? ''}
              tileAttribution={config?.map.tileAttribution ?? ''}
              dataAttribution={config?.map.dataAttribution ?? ''}
            />
          </Suspense>
        )}
      </Modal>
    </>
  );
}
