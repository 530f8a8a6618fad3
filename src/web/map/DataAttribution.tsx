import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

/**
 * The credit of the business data shown on a map ("© OpenStreetMap contributors, Overture Maps Foundation"), in
 * the map's attribution line beside the tiles' own. Nothing when `text` is empty (no imported data).
 */
export default function DataAttribution({ text }: { text: string }) {
  const map = useMap();
  useEffect(() => {
    const control = map.attributionControl;
    if (!text || !control) return;
    const label = `Businesses ${text}`;
    control.addAttribution(label);
    return () => {
      control.removeAttribution(label);
    };
  }, [map, text]);
  return null;
}
