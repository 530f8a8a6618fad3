import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { SavedProspectTable } from '../db/schema.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import {
  businessSourceSchema,
  prospectAnalysisSchema,
  prospectInputSchema,
  prospectSchema,
  type Prospect,
  type ProspectInput,
} from '../../core/api/prospect.js';
import type { SavedItem } from '../../core/api/lists.js';
import { CATEGORY_TEXT_MESSAGES, checkCategoryText } from '../../core/categories.js';
import {
  countSaved,
  deleteSaved,
  findSaved,
  insertSaved,
  listSaved,
  lockUserSaves,
  replaceSavedProspect,
  setSavedNote,
} from './repository.js';

/** A rep keeps at most 30 saved prospects; saving one more is refused with SAVED_LIMIT_REACHED. */
export const MAX_SAVED = 30;
export const SAVED_LIMIT_REACHED = 'You can only save up to 30 prospects';
export const SAVED_NOT_FOUND = 'This prospect is not in your saved list';

/**
 * A stored saved prospect as the full record the cards show. Stored copies are what clients posted
 * (prospectInputSchema): fields a card may lack get the record's defaults, and an analysis that is not a whole
 * one is left off, as are photos of an older shape. A row no schema accepts (written before the schemas were
 * strict) is null.
 */
export function asProspect(raw: unknown): Prospect | null {
  // Photos stored in an older shape (plain links) are left off rather than the whole card.
  const input =
    prospectInputSchema.safeParse(raw).data ??
    prospectInputSchema.safeParse({ ...(raw as object), aiAnalysis: undefined }).data ??
    prospectInputSchema.safeParse({ ...(raw as object), photos: undefined }).data ??
    prospectInputSchema.safeParse({ ...(raw as object), aiAnalysis: undefined, photos: undefined }).data;
  if (!input) return null;
  return (
    prospectSchema.safeParse({
      ...input,
      openNow: input.openNow ?? true,
      reviews: input.reviews ?? 0,
      source: businessSourceSchema.safeParse(input.source).data ?? 'local',
      distance: input.distance ?? 0,
      types: input.types ?? [],
      aiAnalysis: prospectAnalysisSchema.safeParse(input.aiAnalysis).data,
    }).data ?? null
  );
}

function parseStored(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

function presentSaved(row: SavedProspectTable): SavedItem | null {
  const prospect = asProspect(parseStored(row.prospect));
  return (
    prospect && {
      prospectId: row.prospect_id,
      prospect,
      savedAt: row.created_at,
      ...(row.note ? { note: row.note } : {}),
    }
  );
}

/** A row this request just wrote or read back under its lock: it was validated on the way in. */
function presentOwn(row: SavedProspectTable): SavedItem {
  const item = presentSaved(row);
  if (!item) throw badRequest('This saved prospect cannot be read back.');
  return item;
}

export async function savedProspects(db: Db, userId: string): Promise<SavedItem[]> {
  return (await listSaved(db.kysely, userId)).flatMap((row) => presentSaved(row) ?? []);
}

/**
 * Saves a prospect for the user, with the note typed beside it. Saving one already saved answers the existing
 * save (idempotent, even at the limit); a new non-empty note replaces the stored one. The count check and the
 * insert run in one transaction under a per-user lock, so two concurrent saves can never take a user past 30.
 */
export async function saveProspect(
  db: Db,
  userId: string,
  prospect: ProspectInput,
  note?: string,
): Promise<{ saved: SavedItem; created: boolean }> {
  const cleanNote = note?.trim() || null;
  return inTransaction(db.kysely, async (trx) => {
    await lockUserSaves(trx, db.kind, userId);
    const existing = await findSaved(trx, userId, prospect.id);
    if (existing) {
      if (cleanNote && cleanNote !== existing.note) {
        await setSavedNote(trx, userId, prospect.id, cleanNote);
        return { saved: presentOwn({ ...existing, note: cleanNote }), created: false };
      }
      return { saved: presentOwn(existing), created: false };
    }
    if ((await countSaved(trx, userId)) >= MAX_SAVED) throw badRequest(SAVED_LIMIT_REACHED);
    const row: SavedProspectTable = {
      id: randomUUID(),
      user_id: userId,
      prospect_id: prospect.id,
      prospect: JSON.stringify(prospect),
      note: cleanNote,
      created_at: nowIso(),
    };
    await insertSaved(trx, row);
    return { saved: presentOwn(row), created: true };
  });
}

export async function unsaveProspect(db: Db, userId: string, prospectId: string): Promise<void> {
  if (!(await deleteSaved(db.kysely, userId, prospectId))) throw notFound(SAVED_NOT_FOUND);
}

/**
 * Set a missing category on a saved prospect (the Saved card's Set category, so its Strategy can be asked for).
 * Compare-and-set on the stored JSON, tried again if it changed in between.
 */
export async function setSavedCategory(
  db: Db,
  userId: string,
  prospectId: string,
  category: string,
): Promise<Prospect> {
  // The same text rules as the latest results' Set category: it is written into the strategy's AI prompt.
  const checked = checkCategoryText(category);
  if (!checked.ok) throw badRequest(CATEGORY_TEXT_MESSAGES[checked.reason]);
  const clean = checked.category;
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await findSaved(db.kysely, userId, prospectId);
    if (!row) throw notFound(SAVED_NOT_FOUND);
    const stored = asProspect(parseStored(row.prospect));
    if (!stored) throw badRequest('This saved prospect cannot be read back.');
    const prospect = { ...(parseStored(row.prospect) as object), category: clean };
    if (await replaceSavedProspect(db.kysely, userId, prospectId, row.prospect, JSON.stringify(prospect))) {
      return { ...stored, category: clean };
    }
  }
  throw new HttpError(409, 'Your saved prospect was changing. Please try again.');
}
