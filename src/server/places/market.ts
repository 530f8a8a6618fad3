// The imported market (docs/SCORING.md "Calibration"): after every import, count the places each business has
// (places.locations) and rebuild the `local` source's reference population (score_references) from every imported
// business of the kinds a scan returns. Scans read the references through a small in-memory holder that reloads
// them now and then, so an import made by the CLI in another process reaches every running instance.
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import { LocationCounter, locationsOf, referenceInput } from '../../core/market.js';
import {
  buildReference,
  intrinsicScore,
  isScoreReference,
  MODEL_VERSION,
  type BrandIndex,
  type ScoreReference,
} from '../../core/scoring/index.js';
import type { References } from '../scans/analysis.js';
import { encodeProfile, placeProfile, profileVersion } from '../../core/scoring/profile.js';
import { rowToBusiness } from './local.js';
import { hasPlaces, saveProfiles } from './local-store.js';

const PAGE = 5000;

/** Rows a page at a time in id order, `fetch` reading the page after an id (bounded memory for a state). */
async function* pages<T extends { id: string }>(fetch: (after: string) => Promise<T[]>) {
  let after = '';
  for (;;) {
    const rows = await fetch(after);
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
  }
}

export interface MarketSummary {
  /** Businesses that share their name with places elsewhere in the market. */
  multiLocation: number;
  /** The reference population of the `local` source, or null when too few businesses are imported. */
  reference: ScoreReference | null;
  /** Places whose profile was missing or stale and was made (none after an import, which makes them). */
  profilesMade: number;
}

/**
 * Recount the places of each business and rebuild the `local` reference population. Two passes over the table:
 * names and positions first, then each business's intrinsic score with its count. Run after an import.
 */
export async function refreshMarket(db: Db, brandIndex: BrandIndex | undefined): Promise<MarketSummary> {
  // Counted page by page: no array of every place (a state holds hundreds of thousands).
  const counter = new LocationCounter();
  // The first pass reads names and positions only.
  const positions = pages((after) =>
    db.kysely
      .selectFrom('places')
      .select(['id', 'name', 'lat', 'lng'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute(),
  );
  for await (const rows of positions) for (const r of rows) counter.add(r.name, r.lat, r.lng);
  const counts = counter.counts();

  const values: number[] = [];
  const updates = new Map<number, string[]>();
  let multiLocation = 0;
  const places = pages((after) =>
    db.kysely.selectFrom('places').selectAll().where('id', '>', after).orderBy('id').limit(PAGE).execute(),
  );
  const version = profileVersion(brandIndex);
  let profilesMade = 0;
  for await (const rows of places) {
    const made: { id: string; profile: string }[] = [];
    for (const row of rows) {
      const n = locationsOf(counts, row.name);
      if (n > 1) multiLocation++;
      if (n !== row.locations) {
        const ids = updates.get(n) ?? [];
        ids.push(row.id);
        updates.set(n, ids);
      }
      const business = rowToBusiness({ ...row, locations: n }, undefined, undefined, version);
      if (!business.profile) {
        // Imported before profiles existed, or under other rules or another brand index: made now.
        business.profile = placeProfile(business, brandIndex);
        made.push({ id: row.id, profile: encodeProfile(business.profile) });
      }
      const input = referenceInput(business);
      if (!input) continue;
      const x = intrinsicScore(input, brandIndex ? { brandIndex } : {});
      if (x !== null) values.push(x);
    }
    // A page's profiles are written as it is read: a state's worth is never held at once.
    if (made.length > 0) await saveProfiles(db, made);
    profilesMade += made.length;
  }
  await db.kysely.transaction().execute(async (trx) => {
    for (const [n, ids] of updates) {
      for (let i = 0; i < ids.length; i += 500) {
        await trx
          .updateTable('places')
          .set({ locations: n })
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
      }
    }
  });
  const reference = buildReference('local', values, nowIso());
  if (reference) await saveReference(db, reference, version);
  else await db.kysely.deleteFrom('score_references').where('source', '=', 'local').execute();
  return { multiLocation, reference, profilesMade };
}

async function saveReference(db: Db, ref: ScoreReference, profileVersion: string): Promise<void> {
  const row = {
    source: ref.source,
    model_version: MODEL_VERSION,
    built_at: ref.builtAt,
    population: ref.population,
    reference: JSON.stringify(ref),
    profile_version: profileVersion,
  };
  await db.kysely
    .insertInto('score_references')
    .values(row)
    .onConflict((oc) =>
      oc.column('source').doUpdateSet({
        model_version: row.model_version,
        built_at: row.built_at,
        population: row.population,
        reference: row.reference,
        profile_version: row.profile_version,
      }),
    )
    .execute();
}

/** The profile version the `local` reference's rebuild made the places' profiles under (null: before profiles). */
async function referenceProfileVersion(db: Db): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('score_references')
    .select('profile_version')
    .where('source', '=', 'local')
    .executeTakeFirst();
  return row?.profile_version ?? null;
}

/** The stored references of the current model version, by source (a malformed row is left out). */
export async function loadReferences(db: Db): Promise<References> {
  const rows = await db.kysely
    .selectFrom('score_references')
    .selectAll()
    .where('model_version', '=', MODEL_VERSION)
    .execute();
  const out: Record<string, ScoreReference> = {};
  for (const r of rows) {
    try {
      const parsed: unknown = JSON.parse(r.reference);
      if (isScoreReference(parsed)) out[r.source] = parsed;
    } catch {
      // a damaged row calibrates nothing; the next import rewrites it
    }
  }
  return out;
}

export type ReferenceHolder = ReturnType<typeof createReferenceHolder>;

/**
 * The references a scan scores with: loaded at start, reloaded every `refreshMs` (an import by the CLI or by
 * another instance reaches this one within that time). When places are imported but no reference exists (data
 * imported before calibration existed), the market is rebuilt once in the background.
 */
export function createReferenceHolder(
  db: Db,
  brandIndex: () => BrandIndex | undefined,
  log: { warn(obj: object, msg?: string): void },
  refreshMs = 60_000,
) {
  let current: References = {};
  let timer: NodeJS.Timeout | undefined;
  const reload = async () => {
    try {
      current = await loadReferences(db);
    } catch (err) {
      log.warn({ err }, 'score references could not be read; scans use the absolute scale');
    }
  };
  return {
    get: (): References => current,
    reload,
    async start(): Promise<void> {
      await reload();
      // Rebuilt in the background when places were imported but no reference exists (imported before
      // calibration, or under another model version), or when the rebuild that wrote it made the places'
      // profiles under another version (before profiles, other rules, another brand index: a scan derives
      // those each time it finds the place). One row read, however many places there are.
      const stale = async () =>
        current.local
          ? (await referenceProfileVersion(db)) !== profileVersion(brandIndex())
          : hasPlaces(db.kysely);
      void stale()
        .then((rebuild) => (rebuild ? refreshMarket(db, brandIndex()).then(reload) : undefined))
        .catch((err: unknown) => log.warn({ err }, 'rebuilding the imported market failed'));
      timer = setInterval(() => void reload(), refreshMs);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
    },
  };
}
