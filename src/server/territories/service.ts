import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { inTransaction, nowIso } from '../db/database.js';
import type { TerritoryTable } from '../db/schema.js';
import type { EventBus } from '../events/bus.js';
import { isAdmin, type CurrentUser } from '../http/access.js';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import { recordAudit } from '../audit/service.js';
import { zipCentroid } from '../geocoding/gazetteer.js';
import {
  territoryAreaSchema,
  type Territory,
  type TerritoryArea,
  type TerritoryInput,
} from '../../core/api/territories.js';
import {
  areaFromZips,
  checkTerritoryArea,
  territoryBox,
  territorySquareMiles,
  territoryTooBig,
} from '../../core/territory.js';
import type { BoundingBox } from '../../core/geo.js';
import {
  addressPointsByZip,
  deleteTerritoryRow,
  existingUsers,
  findTerritoryRow,
  insertTerritory,
  isAssigned,
  listTerritoryRows,
  nameTaken,
  repsByTerritory,
  repsOf,
  setTerritoryReps,
  updateTerritoryRow,
} from './repository.js';

// Territories (docs/PRODUCT.md, "Territories"): admins draw them or list their ZIP codes and assign reps; every
// write is audited and announced; a rep reads the territories they are assigned to and may scan them.

export const TERRITORY_NAME_TAKEN = 'A territory with this name already exists.';
export const TERRITORY_NOT_FOUND = 'No territory with this id.';
export const NOT_ASSIGNED_TO_TERRITORY = 'You are not assigned to this territory.';
export const noUserWithId = (id: string) => `No user with id ${id}.`;
export const unknownZips = (zips: string[]) =>
  zips.length === 1
    ? `ZIP code ${zips[0]} is not known: no imported address carries it and the gazetteer does not list it.`
    : `ZIP codes ${zips.join(', ')} are not known: no imported address carries them and the gazetteer does not list them.`;
export const ZIP_AREA_TOO_COMPLEX =
  'These ZIP codes make an outline too detailed to store. Please list fewer ZIP codes, or draw the territory.';

type Actor = Pick<CurrentUser, 'id' | 'name' | 'email'>;
type Viewer = Pick<CurrentUser, 'id' | 'role' | 'isSuperAdmin'>;

export interface TerritoryDeps {
  db: Db;
  events: EventBus;
  maxSquareMiles: number;
}

/** A stored territory with its parsed area and box, for the scan and the Team view. */
export interface StoredTerritory {
  id: string;
  name: string;
  area: TerritoryArea;
  box: BoundingBox;
  squareMiles: number;
}

const boxOf = (row: TerritoryTable): BoundingBox => ({
  minLat: row.min_lat,
  maxLat: row.max_lat,
  minLng: row.min_lng,
  maxLng: row.max_lng,
});

export const storedTerritory = (row: TerritoryTable): StoredTerritory => ({
  id: row.id,
  name: row.name,
  area: JSON.parse(row.area) as TerritoryArea,
  box: boxOf(row),
  squareMiles: row.square_miles,
});

function present(row: TerritoryTable, reps: { id: string; name: string }[]): Territory {
  return {
    id: row.id,
    name: row.name,
    area: JSON.parse(row.area) as TerritoryArea,
    zips: JSON.parse(row.zips) as string[],
    areaSquareMiles: Math.round(row.square_miles * 1000) / 1000,
    reps,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function presentAll(db: Db, rows: TerritoryTable[]): Promise<Territory[]> {
  const reps = repsByTerritory(
    await repsOf(
      db.kysely,
      rows.map((r) => r.id),
    ),
  );
  return rows.map((row) => present(row, reps.get(row.id) ?? []));
}

/** Admins: every territory; a rep: the ones they are assigned to. */
export async function listTerritories(db: Db, viewer: Viewer): Promise<Territory[]> {
  return presentAll(db, await listTerritoryRows(db.kysely, isAdmin(viewer) ? undefined : viewer.id));
}

/** Every territory with its area, for the Team view. */
export async function allStoredTerritories(db: Db): Promise<StoredTerritory[]> {
  return (await listTerritoryRows(db.kysely)).map(storedTerritory);
}

/** The territory a user may scan: 404 unknown, 403 when a rep is not assigned to it (admins: any). */
export async function territoryToScan(db: Db, user: Viewer, id: string): Promise<StoredTerritory> {
  const row = await findTerritoryRow(db.kysely, id);
  if (!row) throw notFound(TERRITORY_NOT_FOUND);
  if (!isAdmin(user) && !(await isAssigned(db.kysely, id, user.id))) {
    throw forbidden(NOT_ASSIGNED_TO_TERRITORY);
  }
  return storedTerritory(row);
}

interface Shape {
  area: TerritoryArea;
  zips: string[];
  squareMiles: number;
  box: BoundingBox;
}

/** The checked area of the input: the drawn one, or the one built from its ZIP codes. */
async function shapeOf(deps: TerritoryDeps, input: TerritoryInput): Promise<Shape> {
  if (input.area) {
    const check = checkTerritoryArea(input.area, deps.maxSquareMiles);
    if (!check.ok) throw badRequest(check.error);
    return { area: check.area, zips: [], squareMiles: check.squareMiles, box: check.box };
  }
  const zips = [...new Set(input.zips ?? [])];
  const points = await addressPointsByZip(deps.db.kysely, zips);
  const built = areaFromZips(
    zips.map((zip) => ({ zip, addresses: points.get(zip) ?? [], centroid: zipCentroid(zip) })),
  );
  if (!built.ok) throw badRequest(unknownZips(built.unknown));
  if (!territoryAreaSchema.safeParse(built.area).success) throw badRequest(ZIP_AREA_TOO_COMPLEX);
  const squareMiles = territorySquareMiles(built.area);
  if (squareMiles > deps.maxSquareMiles) throw badRequest(territoryTooBig(squareMiles, deps.maxSquareMiles));
  return { area: built.area, zips, squareMiles, box: territoryBox(built.area) };
}

/** The rep ids, each an existing user of the app (404 naming the first that is not). */
async function checkedReps(db: Db, repIds: string[]): Promise<string[]> {
  const ids = [...new Set(repIds)];
  const known = await existingUsers(db.kysely, ids);
  const missing = ids.find((id) => !known.has(id));
  if (missing !== undefined) throw notFound(noUserWithId(missing));
  return ids;
}

const nameKey = (name: string) => name.trim().toLowerCase();

/** A unique-index violation on either database (another request took the name meanwhile). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Tells every open screen that territories changed, so each fetches the ones it may see. The notice goes to every
 * user, so it carries the id only: a territory's name is for its reps and the admins.
 */
async function announce(events: EventBus, action: string, id: string): Promise<void> {
  await events.publish({ type: 'territories', action, item: { id }, at: nowIso() });
}

/** A territory's name and outline as its row stores them. */
function storedShape(name: string, shape: Awaited<ReturnType<typeof shapeOf>>) {
  return {
    name,
    name_key: nameKey(name),
    area: JSON.stringify(shape.area),
    zips: JSON.stringify(shape.zips),
    min_lat: shape.box.minLat,
    max_lat: shape.box.maxLat,
    min_lng: shape.box.minLng,
    max_lng: shape.box.maxLng,
    square_miles: shape.squareMiles,
  };
}

export async function createTerritory(
  deps: TerritoryDeps,
  actor: Actor,
  input: TerritoryInput,
): Promise<Territory> {
  const { db } = deps;
  const name = input.name.trim();
  const shape = await shapeOf(deps, input);
  const repIds = await checkedReps(db, input.repIds);
  const now = nowIso();
  const row: TerritoryTable = {
    id: randomUUID(),
    ...storedShape(name, shape),
    created_by: actor.id,
    created_at: now,
    updated_at: now,
  };
  try {
    await inTransaction(db.kysely, async (trx) => {
      if (await nameTaken(trx, row.name_key)) throw conflict(TERRITORY_NAME_TAKEN);
      await insertTerritory(trx, row);
      await setTerritoryReps(trx, row.id, repIds);
      await recordAudit(
        trx,
        actor,
        'territory.create',
        { type: 'territory', id: row.id, label: name },
        { squareMiles: Math.round(shape.squareMiles * 100) / 100, zips: shape.zips, repIds },
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(TERRITORY_NAME_TAKEN);
    throw error;
  }
  await announce(deps.events, 'created', row.id);
  const [territory] = await presentAll(db, [row]);
  return territory!;
}

export async function updateTerritory(
  deps: TerritoryDeps,
  actor: Actor,
  id: string,
  input: TerritoryInput,
): Promise<Territory> {
  const { db } = deps;
  const existing = await findTerritoryRow(db.kysely, id);
  if (!existing) throw notFound(TERRITORY_NOT_FOUND);
  const name = input.name.trim();
  const shape = await shapeOf(deps, input);
  const repIds = await checkedReps(db, input.repIds);
  const changes = {
    ...storedShape(name, shape),
    updated_at: nowIso(),
  };
  try {
    await inTransaction(db.kysely, async (trx) => {
      if (!(await findTerritoryRow(trx, id))) throw notFound(TERRITORY_NOT_FOUND);
      if (await nameTaken(trx, changes.name_key, id)) throw conflict(TERRITORY_NAME_TAKEN);
      await updateTerritoryRow(trx, id, changes);
      await setTerritoryReps(trx, id, repIds);
      await recordAudit(
        trx,
        actor,
        'territory.update',
        { type: 'territory', id, label: name },
        {
          ...(existing.name !== name && { renamedFrom: existing.name }),
          areaChanged: existing.area !== changes.area,
          squareMiles: Math.round(shape.squareMiles * 100) / 100,
          zips: shape.zips,
          repIds,
        },
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(TERRITORY_NAME_TAKEN);
    throw error;
  }
  await announce(deps.events, 'updated', id);
  const [territory] = await presentAll(db, [{ ...existing, ...changes }]);
  return territory!;
}

export async function deleteTerritory(deps: TerritoryDeps, actor: Actor, id: string): Promise<void> {
  const removed = await inTransaction(deps.db.kysely, async (trx) => {
    const found = await findTerritoryRow(trx, id);
    if (!found) return undefined;
    await deleteTerritoryRow(trx, id);
    await recordAudit(trx, actor, 'territory.delete', { type: 'territory', id, label: found.name });
    return found;
  });
  if (!removed) throw notFound(TERRITORY_NOT_FOUND);
  await announce(deps.events, 'deleted', id);
}
