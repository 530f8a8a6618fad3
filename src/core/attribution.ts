// The credit open business data asks for, wherever it is shown: OpenStreetMap's licence (ODbL) asks for
// "© OpenStreetMap contributors"; Overture Maps' places (which include OpenStreetMap's) for both names.
import type { FieldSources } from './api/prospect';

export const OSM_CREDIT = '© OpenStreetMap contributors';
export const OVERTURE_CREDIT = '© OpenStreetMap contributors, Overture Maps Foundation';

/** The credit a business's fields call for: by the sources they came from; null for a maps service's business. */
export function creditOf(sources: FieldSources | undefined): string | null {
  if (!sources) return null;
  const labels = Object.values(sources);
  if (labels.some((l) => l.startsWith('Overture'))) return OVERTURE_CREDIT;
  return labels.length > 0 ? OSM_CREDIT : null;
}
