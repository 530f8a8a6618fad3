// The imported market: after every import, count the places each business has (places.locations), find the
// businesses with places in several cities (places.many_cities), and make every place's profile and rank current
// (ranks.ts). The counting is done by the database (grouping places by the keys their business is known by), so a
// national import needs no map of its businesses in memory; only the places whose rank must change are read.
// A server checks at start, with one row, whether the last rebuild was made under the rules and brand index it
// scores with (market_state), and rebuilds in the background when not (data imported before, a new model).
import { sql, type Expression, type RawBuilder } from 'kysely';
import { inTexts, nowIso, type Db } from '../db/database.js';
import { businessCacheKey } from '../../core/types.js';
import type { WebsiteEvidence } from '../../core/websites/signals.js';
import { parseEvidence } from '../websites/repository.js';
import { locationKey, MANY_CITIES_HAVERSINE, SAME_PLACE_DEGREES, siteKey } from '../../core/market.js';
import type { BrandIndex } from '../../core/scoring/index.js';
import { encodeProfile, placeProfile, profileVersion } from '../../core/scoring/profile.js';
import { placeArea } from '../../core/scoring/nsi.js';
import { rowToBusiness } from './local.js';
import { hasPlaces } from './local-store.js';
import { placeRank } from './ranks.js';

const PAGE = 5000;

export interface MarketSummary {
  /** Places of businesses with places elsewhere in the market (by name). */
  multiLocation: number;
  /** Places whose business (name or website domain) has places in several cities. */
  manyCities: number;
  /** Places whose profile was missing or stale and was made (none after an import, which makes them). */
  profilesMade: number;
  /** Places whose rank changed. */
  ranksChanged: number;
}

interface Change {
  id: string;
  locations: number;
  many_cities: number;
  rank_score: number | null;
  rank_rule: number | null;
  profile: string | null;
  name_key: string | null;
  site_domain: string | null;
}

/**
 * Recount the places of each business, find those in several cities, and make every place's profile and rank
 * current. Run after an import. Three steps: places with a stale profile are made again (they may be known by other
 * keys now); the database counts the market by those keys; the places whose count, cities or rank may have changed
 * are ranked again, a page at a time.
 */
export async function refreshMarket(db: Db, brandIndex: BrandIndex | undefined): Promise<MarketSummary> {
  const version = profileVersion(brandIndex);
  const summary: MarketSummary = { multiLocation: 0, manyCities: 0, profilesMade: 0, ranksChanged: 0 };

  // Imported before profiles, or under other rules or another brand index. Its stored profile begins with the
  // version it was made under.
  const prefix = `["${version}",`;
  await listWork(
    db,
    db.kysely
      .selectFrom('places')
      .select('id')
      .where((eb) =>
        eb.or([eb('profile', 'is', null), eb(sql`substr(profile, 1, ${prefix.length})`, '<>', prefix)]),
      ),
  );
  await remakeWork(db, brandIndex, version, summary);

  await countMarket(db);

  // A place whose count or cities changed (an import writes a place as its business's only one), one without a
  // rank, and one whose website was checked (an import writes its rank without the check's evidence).
  const market = marketOf();
  await listWork(
    db,
    db.kysely
      .selectFrom('places as p')
      .leftJoin('market_keys as n', (j) => j.on('n.kind', '=', 'name').onRef('n.key', '=', 'p.name_key'))
      .leftJoin('market_keys as d', (j) => j.on('d.kind', '=', 'domain').onRef('d.key', '=', 'p.site_domain'))
      .select('p.id')
      .where((eb) =>
        eb.or([
          eb('p.locations', '<>', market.locations),
          eb('p.many_cities', '<>', market.manyCities),
          eb.and([eb('p.rank_score', 'is', null), eb('p.rank_rule', 'is', null)]),
        ]),
      )
      .union(
        db.kysely
          .selectFrom('website_evidence')
          .select(sql<string>`substr(business_key, ${PLACE_KEY.length + 1})`.as('id'))
          .where(sql`substr(business_key, 1, ${PLACE_KEY.length})`, '=', PLACE_KEY),
      ),
  );
  await remakeWork(db, brandIndex, version, summary);

  const counts = await db.kysely
    .selectFrom('places')
    .select([
      sql<number | string | null>`sum(case when locations > 1 then 1 else 0 end)`.as('multi'),
      sql<number | string | null>`sum(many_cities)`.as('cities'),
    ])
    .executeTakeFirstOrThrow();
  summary.multiLocation = Number(counts.multi ?? 0);
  summary.manyCities = Number(counts.cities ?? 0);
  await db.kysely
    .insertInto('market_state')
    .values({ id: 'local', profile_version: version, built_at: nowIso() })
    .onConflict((oc) => oc.column('id').doUpdateSet({ profile_version: version, built_at: nowIso() }))
    .execute();
  return summary;
}

/**
 * A place's count and cities as the market says them, joined as `n` (its name's key) and `d` (its domain's key):
 * a business missing from market_keys has one place, in one city.
 */
function marketOf(): { locations: RawBuilder<number>; manyCities: RawBuilder<number> } {
  return {
    locations: sql<number>`coalesce(n.locations, 1)`,
    manyCities: sql<number>`case when n.many_cities = 1 or d.many_cities = 1 then 1 else 0 end`,
  };
}

/**
 * The businesses known by several places, into market_keys: by name, its distinct places (places in one cell of a
 * SAME_PLACE_DEGREES grid are one: a shop mapped as a node and as its building) and whether they span more than
 * MANY_CITIES_MILES; by website domain, the domains whose places span more than that.
 */
async function countMarket(db: Db): Promise<void> {
  const step = sql.lit(SAME_PLACE_DEGREES);
  const cell = sql`(cast(round(lat / ${step}) as bigint) + 100000) * 400000 + cast(round(lng / ${step}) as bigint)`;
  // The haversine term of the corners of the box the group's places span (MANY_CITIES_HAVERSINE).
  const h = sql`power(sin(radians(max(lat) - min(lat)) / 2), 2)
    + cos(radians(min(lat))) * cos(radians(max(lat))) * power(sin(radians(max(lng) - min(lng)) / 2), 2)`;
  const far = sql.lit(MANY_CITIES_HAVERSINE);
  await db.kysely.deleteFrom('market_keys').execute();
  await sql`insert into market_keys (kind, key, locations, many_cities)
    select 'name', name_key, count(distinct ${cell}), case when ${h} > ${far} then 1 else 0 end
    from places where name_key is not null
    group by name_key having count(distinct ${cell}) > 1`.execute(db.kysely);
  await sql`insert into market_keys (kind, key, locations, many_cities)
    select 'domain', site_domain, 1, 1
    from places where site_domain is not null
    group by site_domain having count(*) > 1 and ${h} > ${far}`.execute(db.kysely);
}

/** Make market_work the ids `select` answers. */
async function listWork(db: Db, select: Expression<{ id: string }>): Promise<void> {
  await db.kysely.deleteFrom('market_work').execute();
  await db.kysely.insertInto('market_work').columns(['id']).expression(select).execute();
}

/**
 * Make the profile (when stale), keys and rank of the places listed in market_work, with their count and cities as
 * market_keys says them, a page at a time; write those that changed.
 */
async function remakeWork(
  db: Db,
  brandIndex: BrandIndex | undefined,
  version: string,
  summary: MarketSummary,
): Promise<void> {
  const market = marketOf();
  let after = '';
  for (;;) {
    const rows = await db.kysely
      .selectFrom('market_work as w')
      .innerJoin('places as p', 'p.id', 'w.id')
      .leftJoin('market_keys as n', (j) => j.on('n.kind', '=', 'name').onRef('n.key', '=', 'p.name_key'))
      .leftJoin('market_keys as d', (j) => j.on('d.kind', '=', 'domain').onRef('d.key', '=', 'p.site_domain'))
      .selectAll('p')
      .select([market.locations.as('market_locations'), market.manyCities.as('market_many')])
      .where('w.id', '>', after)
      .orderBy('w.id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    const checks = await evidenceOf(
      db,
      rows.map((r) => r.id),
    );
    const changes: Change[] = [];
    for (const row of rows) {
      const locations = Number(row.market_locations);
      const manyCities = Number(row.market_many);
      const business = rowToBusiness(
        { ...row, locations, many_cities: manyCities },
        undefined,
        undefined,
        version,
      );
      let profile = row.profile;
      if (!business.profile) {
        business.profile = placeProfile({ ...business, area: placeArea(row.lat, row.lng) }, brandIndex);
        profile = encodeProfile(business.profile);
        summary.profilesMade++;
      }
      const keys = { name_key: locationKey(row.name), site_domain: siteKey(row.website) };
      const rank = placeRank(business, brandIndex, checks.get(row.id));
      const rankChanged = rank.rank_score !== row.rank_score || rank.rank_rule !== row.rank_rule;
      if (rankChanged) summary.ranksChanged++;
      if (
        rankChanged ||
        profile !== row.profile ||
        locations !== row.locations ||
        manyCities !== row.many_cities ||
        keys.name_key !== row.name_key ||
        keys.site_domain !== row.site_domain
      ) {
        changes.push({ id: row.id, locations, many_cities: manyCities, ...rank, profile, ...keys });
      }
    }
    if (changes.length > 0) await saveChanges(db, changes);
  }
  await db.kysely.deleteFrom('market_work').execute();
}

/** The latest website checks of these places, by place id (any age: a place's rank is the higher with or without). */
async function evidenceOf(db: Db, ids: readonly string[]): Promise<Map<string, WebsiteEvidence>> {
  const out = new Map<string, WebsiteEvidence>();
  const keys = ids.map((id) => businessCacheKey({ id, name: '', address: '', category: '' }));
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await db.kysely
      .selectFrom('website_evidence')
      .select(['business_key', 'evidence'])
      .where(inTexts(db.kind, 'business_key', keys.slice(i, i + 500)))
      .execute();
    for (const r of rows) {
      const parsed = parseEvidence(r.evidence);
      if (parsed) out.set(r.business_key.slice(PLACE_KEY.length), parsed);
    }
  }
  return out;
}

/** The prefix of an imported place's cache key (businessCacheKey of a business without a place id). */
const PLACE_KEY = 'place_';

/** Write a page's changed rows: one statement (a JSON document of the rows) on either database. */
async function saveChanges(db: Db, changes: readonly Change[]): Promise<void> {
  const rows = JSON.stringify(changes);
  await (
    db.kind === 'postgres'
      ? sql`update places set locations = m.locations, many_cities = m.many_cities, rank_score = m.rank_score,
            rank_rule = m.rank_rule, profile = m.profile, name_key = m.name_key, site_domain = m.site_domain
          from jsonb_to_recordset(${rows}::jsonb)
            as m(id text, locations int, many_cities int, rank_score float8, rank_rule int, profile text,
              name_key text, site_domain text)
          where places.id = m.id`
      : sql`update places set locations = m.value ->> '$.locations', many_cities = m.value ->> '$.many_cities',
            rank_score = m.value ->> '$.rank_score', rank_rule = m.value ->> '$.rank_rule',
            profile = m.value ->> '$.profile', name_key = m.value ->> '$.name_key',
            site_domain = m.value ->> '$.site_domain'
          from json_each(${rows}) as m
          where places.id = m.value ->> '$.id'`
  ).execute(db.kysely);
}

/** The profile version the last rebuild of the market made every place's profile and rank under (null: none). */
async function builtVersion(db: Db): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('market_state')
    .select('profile_version')
    .where('id', '=', 'local')
    .executeTakeFirst();
  return row?.profile_version ?? null;
}

export type MarketKeeper = ReturnType<typeof createMarketKeeper>;

/**
 * Keeps the imported market current under the server's rules: at start, when places are imported but the last
 * rebuild was made under other rules or another brand index (or never), the market is rebuilt in the background.
 * One row read, however many places there are. Scans meanwhile derive a stale place's profile afresh.
 */
export function createMarketKeeper(
  db: Db,
  brandIndex: () => BrandIndex | undefined,
  log: { warn(obj: object, msg?: string): void },
) {
  let rebuilding: Promise<unknown> = Promise.resolve();
  return {
    start(): void {
      rebuilding = (async () => {
        if ((await builtVersion(db)) === profileVersion(brandIndex())) return;
        if (await hasPlaces(db.kysely)) await refreshMarket(db, brandIndex());
      })().catch((err: unknown) => log.warn({ err }, 'rebuilding the imported market failed'));
    },
    /** Resolves when a rebuild started at start has finished (tests, a graceful stop). */
    settled: (): Promise<unknown> => rebuilding,
  };
}
