// The outlines of the signed-in user's territories on the main map: thin lines with no fill, so a click inside one
// still picks a point or opens a marker; the name shows on hovering or tapping the line.
import { memo } from 'react';
import { Polygon, Tooltip } from 'react-leaflet';
import { positionsOf, type Territory } from '../main/territories/territories';

const OUTLINE = { color: '#7048e8', weight: 2, opacity: 0.9, fill: false, dashArray: '6 4' } as const;
/** The territory the scan covers: a solid, slightly thicker line. */
const SCANNED = { ...OUTLINE, weight: 3, dashArray: undefined } as const;

export const TerritoryOutlines = memo(function TerritoryOutlines({
  territories,
  scanned,
}: {
  territories: readonly Territory[];
  /** The id of the territory the scan covers, or null. */
  scanned: string | null;
}) {
  return (
    <>
      {territories.map((t) => (
        <Polygon
          key={`${t.id}:${t.updatedAt}`}
          positions={positionsOf(t.area)}
          pathOptions={t.id === scanned ? SCANNED : OUTLINE}
          // Set when Leaflet creates the path: the browser tests and the stylesheet find the outlines by it.
          className="territory-outline"
          // A click on the line still reaches the map (a point pick), as one beside it does.
          bubblingMouseEvents
        >
          <Tooltip sticky>{t.name}</Tooltip>
        </Polygon>
      ))}
    </>
  );
});
