import type { Db } from '../db/database.js';
import { rankCircle } from '../places/local-store.js';
import { readAlgorithmSettings } from '../settings/service.js';
import { resolvePeriod } from '../team/service.js';
import type { PeriodQuery } from '../../core/api/dashboard.js';
import type { TerritoryWork } from '../../core/api/territories.js';
import { territoryCircle, territoryContains } from '../../core/territory.js';
import { allStoredTerritories } from './service.js';
import { contactedAmong, movedTo, positionsOf, repsByTerritory, repsOf } from './repository.js';

/** How many of a territory's best-ranked businesses the Team view follows. */
export const TERRITORY_BEST = 50;
/** The stages that count as a meeting: Meeting set and every later one but Lost. */
const MEETING_STAGES = ['Meeting set', 'Proposal', 'Won'];

/**
 * GET /api/team/territories: per territory, its reps; the imported businesses a scan of it ranks (those a rule takes
 * out of the list left out unless the team shows all prospects); how many of its 50 best by stored rank were called
 * or visited in the period; and the businesses inside it that reached a meeting, and a win, in the period.
 */
export async function territoryWork(db: Db, query: PeriodQuery, now?: number): Promise<TerritoryWork> {
  const { range } = resolvePeriod(query, now);
  const [territories, settings] = await Promise.all([allStoredTerritories(db), readAlgorithmSettings(db)]);
  if (territories.length === 0) return { territories: [] };
  const [reps, meetingIds, wonIds] = await Promise.all([
    repsOf(
      db.kysely,
      territories.map((t) => t.id),
    ).then(repsByTerritory),
    movedTo(db.kysely, MEETING_STAGES, range),
    movedTo(db.kysely, ['Won'], range),
  ]);
  const positions = await positionsOf(db.kysely, [...new Set([...meetingIds, ...wonIds])]);
  const out: TerritoryWork['territories'] = [];
  for (const territory of territories) {
    const contains = territoryContains(territory.area);
    const { center, radiusMiles } = territoryCircle(territory.area);
    const ranking = await rankCircle(db, {
      ...center,
      radiusMiles,
      types: [],
      read: TERRITORY_BEST,
      showAll: settings.showAllProspects,
      within: { box: territory.box, contains },
    });
    const best = ranking.rows.map((r) => r.row.id);
    const contacted = await contactedAmong(db.kysely, best, range);
    const inside = (ids: string[]) =>
      ids.filter((id) => {
        const at = positions.get(id);
        return at !== undefined && contains(at);
      }).length;
    out.push({
      id: territory.id,
      name: territory.name,
      reps: reps.get(territory.id) ?? [],
      businesses: ranking.considered,
      bestContacted: contacted.size,
      bestCount: best.length,
      meetings: inside(meetingIds),
      wins: inside(wonIds),
    });
  }
  return { territories: out };
}
