import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Prospect } from '../../core/types.js';

// A rep's latest results as stored (latest_scans.prospects), compactly: ids and per-scan fields, not whole
// business objects, since every scan rewrites them. A prospect of the imported place table is stored without
// the fields its place row holds (name, position, types, city, state, zip; reviews are always 0 there): those
// are read back from the row when the results are read. What the scan made or may have changed stays in the
// entry: the id, distance, score, analysis, website signals, 'Open now' as the scan saw it, the category (a
// rep may name it), and the address, phone and website (de-duplication may have taken them over from a twin).
// A prospect of another provider is stored whole: its only other copy is the business cache, which expires
// and which admins clear.
//
// An entry whose place is gone from the table (an import replaced it) is left out when read, as a blocked one is.
// Entries stored whole by older versions read as they are: a whole entry has a name.

type Conn = Kysely<Database> | Transaction<Database>;

/** The fields a stored entry of the place table leaves to its row. */
type RowField = 'name' | 'lat' | 'lng' | 'types' | 'city' | 'state' | 'zip' | 'reviews';

/** A prospect of the place table as stored: the prospect without the fields its row holds. */
type StoredEntry = Omit<Prospect, RowField>;

/** Place rows read per statement (far below either database's limit on parameters). */
const READ_CHUNK = 500;

/** A prospect the place table holds the row of: the imported table's, keyed by its own id. */
const fromPlaceTable = (p: Prospect): boolean =>
  p.source === 'local' && p.placeId === undefined && p.reviews === 0;

/** A rep's results as stored: the compact entries of the place table's prospects, the others whole. */
export function packResults(prospects: readonly Prospect[]): string {
  return JSON.stringify(prospects.map((p) => (fromPlaceTable(p) ? toEntry(p) : p)));
}

function toEntry(p: Prospect): StoredEntry {
  const {
    name: _name,
    lat: _lat,
    lng: _lng,
    types: _types,
    city: _city,
    state: _state,
    zip: _zip,
    reviews: _reviews,
    ...entry
  } = p;
  return entry;
}

/** An entry of the stored list that waits for its place row. */
const isEntry = (item: unknown): item is StoredEntry =>
  typeof item === 'object' &&
  item !== null &&
  !('name' in item) &&
  (item as { source?: unknown }).source === 'local' &&
  typeof (item as { id?: unknown }).id === 'string';

/** One stored list's items, [] when the text is not a JSON array (the readers never fail on a stored row). */
function itemsOf(json: string | null | undefined): unknown[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** What a stored list reads as: its prospects, and how many entries were left out because their place is gone. */
export interface StoredResults {
  prospects: Prospect[];
  gone: number;
}

/** A rep's stored results as prospects, their place table rows read in one statement. */
export async function unpackResults(db: Conn, json: string | null | undefined): Promise<StoredResults> {
  const [only] = await unpackMany(db, [json]);
  return only!;
}

/** Several stored lists at once (the team list's copies of a batch of scans): one read of their place rows. */
export async function unpackMany(
  db: Conn,
  lists: readonly (string | null | undefined)[],
): Promise<StoredResults[]> {
  const parsed = lists.map(itemsOf);
  const ids = new Set<string>();
  for (const items of parsed) for (const item of items) if (isEntry(item)) ids.add(item.id);
  const rows = await placeRows(db, [...ids]);
  return parsed.map((items) => {
    const prospects: Prospect[] = [];
    let gone = 0;
    for (const item of items) {
      if (!isEntry(item)) {
        prospects.push(item as Prospect);
        continue;
      }
      const row = rows.get(item.id);
      if (row) prospects.push({ ...item, ...row });
      else gone++;
    }
    return { prospects, gone };
  });
}

/** The fields of each place of `ids` a stored entry leaves to its row, by id. */
async function placeRows(db: Conn, ids: readonly string[]): Promise<Map<string, Pick<Prospect, RowField>>> {
  const out = new Map<string, Pick<Prospect, RowField>>();
  for (let i = 0; i < ids.length; i += READ_CHUNK) {
    const rows = await db
      .selectFrom('places')
      .select(['id', 'name', 'lat', 'lng', 'types', 'city', 'state', 'zip'])
      .where('id', 'in', ids.slice(i, i + READ_CHUNK))
      .execute();
    for (const r of rows) {
      const fields: Pick<Prospect, RowField> = {
        name: r.name,
        lat: r.lat,
        lng: r.lng,
        types: typesOf(r.types),
        reviews: 0,
      };
      if (r.city) fields.city = r.city;
      if (r.state) fields.state = r.state;
      if (r.zip) fields.zip = r.zip;
      out.set(r.id, fields);
    }
  }
  return out;
}

function typesOf(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}
