import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { dataCreditFor } from '../format';

/**
 * The credit of the business data shown on a map (`text`: "© OpenStreetMap contributors, Overture Maps
 * Foundation") in the map's attribution line, after the tiles' own credit (`tiles`) and without repeating it.
 * Nothing when `text` is empty (no imported data).
 */
export default function DataAttribution({ text, tiles }: { text: string; tiles: string }) {
  const map = useMap();
  useEffect(() => {
    const control = map.attributionControl;
    const label = dataCreditFor(text, tiles);
    if (!label || !control) return;
    control.addAttribution(label);
    return () => {
      control.removeAttribution(label);
    };
  }, [map, text, tiles]);
  return null;
}
