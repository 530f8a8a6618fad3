// Importing Overture Maps places from the Admin Panel's Business Data section: a places file already on the server
// (given by its path) or one uploaded from the admin's computer, checked as Overture places before the job is
// queued, then imported as `npm run import:overture` imports it (places/overture-import.ts: staged, merged with
// the OpenStreetMap businesses it describes, committed in one transaction) on the region refreshes' queue.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RefreshResult } from '../../core/api/areas.js';
import type { AppContext } from '../context.js';
import type { CurrentUser } from '../http/access.js';
import { badRequest, conflict } from '../http/errors.js';
import { recordAudit } from '../audit/service.js';
import { openOvertureFile, OvertureFormatError, readOvertureMetadata } from '../places/overture-reader.js';
import { importOvertureFiles, type OvertureImportResult } from '../places/overture-import.js';
import type { Db } from '../db/database.js';

export const OVERTURE_JOB = 'overture-import';
/** The largest file the panel takes as an upload; a larger one is put on the server and imported by its path. */
export const UPLOAD_MAX_BYTES = 4 * 1024 ** 3;

export interface OverturePayload {
  /** The file on the server. */
  file: string;
  /** The file's name, as the panel shows the import. */
  name: string;
  /** Uploaded through the panel: removed once imported. */
  uploaded: boolean;
}

export const NOT_A_PARQUET_PATH =
  'Enter the full path of an Overture places file on the server, ending .parquet (for example /data/places.parquet).';
const tooLarge = `The file is larger than ${UPLOAD_MAX_BYTES / 1024 ** 3} GB: put it on the server and import it by its path.`;

/** Of an uploaded file's name, the part kept: a file system takes 255 bytes at most. */
const NAME_KEPT = 100;

/** The name an uploaded file is kept under: its own, reduced to safe characters and NAME_KEPT, ending .parquet. */
export function uploadName(name: string | undefined): string {
  const stem = basename(name ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '')
    .replace(/\.parquet$/i, '')
    .slice(0, NAME_KEPT);
  return `${stem || 'places'}.parquet`;
}

/** Throws 400 with the reader's own line when `file` is not an Overture places file. */
async function checkOverture(file: string, name: string): Promise<void> {
  try {
    await readOvertureMetadata(await openOvertureFile(file), name);
  } catch (error) {
    if (error instanceof OvertureFormatError) throw badRequest(error.message);
    throw badRequest(`${name} could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function queue(
  ctx: Pick<AppContext, 'db' | 'jobs'>,
  me: CurrentUser,
  payload: OverturePayload,
): Promise<{ jobId: string; region: string }> {
  const job = await ctx.jobs.enqueue(OVERTURE_JOB, payload.file, me.id, payload);
  if (job.joined)
    throw conflict(`${payload.name} is already being imported; wait for that import to finish.`);
  await recordAudit(ctx.db, me, 'places.overture_import', {
    type: 'file',
    id: payload.name,
    label: payload.name,
  });
  return { jobId: job.id, region: payload.name };
}

/** Queue the import of a places file on the server, by its absolute path. */
export async function startOverturePathImport(
  ctx: Pick<AppContext, 'db' | 'jobs'>,
  me: CurrentUser,
  input: string,
): Promise<{ jobId: string; region: string }> {
  const file = input.trim();
  if (!isAbsolute(file) || !file.toLowerCase().endsWith('.parquet')) throw badRequest(NOT_A_PARQUET_PATH);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw badRequest(`There is no file at ${file} on the server.`);
  const name = basename(file);
  await checkOverture(file, name);
  return queue(ctx, me, { file, name, uploaded: false });
}

/** Keep an uploaded file under DATA_DIR/uploads, check it, and queue its import; a refused file is not kept. */
export async function startOvertureUploadImport(
  ctx: Pick<AppContext, 'db' | 'jobs' | 'config'>,
  me: CurrentUser,
  body: Readable,
  fileName: string | undefined,
): Promise<{ jobId: string; region: string }> {
  const name = uploadName(fileName);
  // A folder per upload keeps the file's own name (the area is named after it) without clashes.
  const dir = join(ctx.config.dataDir, 'uploads', randomUUID());
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > UPLOAD_MAX_BYTES ? badRequest(tooLarge) : null, chunk);
    },
  });
  try {
    await pipeline(body, limit, createWriteStream(file));
    if (bytes === 0) throw badRequest('The upload was empty: choose an Overture places file (.parquet).');
    await checkOverture(file, name);
    return await queue(ctx, me, { file, name, uploaded: true });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The summary line of a finished import, beside its counts. */
export function importNote(r: OvertureImportResult): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const parts = [
    `${n(r.merged.merged)} merged with OpenStreetMap businesses`,
    `left out: ${n(r.lowConfidence)} under the confidence threshold, ${n(r.notOpen)} not open, ${n(r.uncategorised)} without a category`,
  ];
  if (r.unmapped.length > 0) {
    const top = r.unmapped.slice(0, 5).map(([c, k]) => `${c} (${n(k)})`);
    parts.push(`categories without a match: ${top.join(', ')}${r.unmapped.length > 5 ? ', ...' : ''}`);
  }
  return `${parts.join('; ')}.`;
}

/** The job: import the file, report its progress, remove an uploaded file once done with (imported or not). */
export async function runOvertureImport(
  db: Db,
  payload: OverturePayload,
  minConfidence: number,
  report: (p: { stage: 'reading'; percent: number; places: number } | { stage: 'merging' }) => void,
): Promise<RefreshResult> {
  try {
    const size = (await stat(payload.file)).size;
    const r = await importOvertureFiles(db, [payload.file], {
      minConfidence,
      progress: (p) =>
        report(
          p.phase === 'read'
            ? {
                stage: 'reading',
                percent:
                  p.rowGroups > 0 ? Math.min(100, Math.round((p.rowGroupsDone / p.rowGroups) * 100)) : 0,
                places: p.kept,
              }
            : { stage: 'merging' },
        ),
    });
    return { region: payload.name, businesses: r.imported, total: r.total, bytes: size, note: importNote(r) };
  } finally {
    if (payload.uploaded) await rm(join(payload.file, '..'), { recursive: true, force: true });
  }
}
