// The Admin Panel's business-data areas: which areas have imported data, and refreshing a named region of the
// download mirror -- download (resumed, verified: places/osm-download.ts), import (staged, so a failure
// leaves the previous data as it was: places/osm-import.ts), market rebuilt -- as a background job in the
// `jobs` table. Region jobs run on a queue of their own with one slot per instance, so a state-sized import
// never holds up the strategy and reasoning jobs; the job's progress is written to jobs.progress for the
// panel.
import { rm } from 'node:fs/promises';
// The answers' shapes are the API contract's (src/core/api/areas.ts).
import type { DataArea, RefreshProgress, RefreshResult, RegionRefresh } from '../../core/api/areas.js';
import { join } from 'node:path';
import type { AppContext } from '../context.js';
import { openDatabase, type Db } from '../db/database.js';
import { JobQueue, type JobView } from '../jobs/queue.js';
import { badRequest, conflict } from '../http/errors.js';
import type { CurrentUser } from '../http/access.js';
import { recordAudit } from '../audit/service.js';
import { downloadExtract, DownloadError, regionPath, regionUrl } from '../places/osm-download.js';
import { importOsmFile } from '../places/osm-import.js';
import { listAreas, type AreaRow } from '../places/areas.js';
import { countPlaces } from '../places/local-store.js';
import { OVERTURE_JOB, runOvertureImport, type OverturePayload } from './overture.js';

export const REGION_JOB = 'osm-region';
/** How often the panel asks for news of a running refresh. */
export const REGION_POLL_MS = 1000;
/** The least time between two progress writes of one job. */
const PROGRESS_EVERY_MS = 500;

export const regionRequestSchemaText = 'a region name like us/alabama or europe/monaco';

export interface RegionPayload {
  /** The region as the admin typed it (trimmed). */
  region: string;
}

export function presentArea(row: AreaRow): DataArea {
  const box =
    row.min_lat !== null && row.min_lng !== null && row.max_lat !== null && row.max_lng !== null
      ? {
          minLat: Number(row.min_lat),
          minLng: Number(row.min_lng),
          maxLat: Number(row.max_lat),
          maxLng: Number(row.max_lng),
        }
      : null;
  const isUrl = /^https?:\/\//i.test(row.source);
  return {
    key: row.key,
    name: row.name,
    region: row.region,
    // A server path says nothing useful to the panel and something about the server: the file's name only.
    source: isUrl ? row.source : (row.source.split(/[\\/]/).pop() ?? row.source),
    bbox: box,
    businesses: Number(row.businesses),
    dataDate: row.data_date ?? row.imported_at,
    dataDateFrom: row.data_date ? 'extract' : 'import',
    importedAt: row.imported_at,
  };
}

export function presentRefresh(job: JobView): RegionRefresh {
  const payload = job.payload as (Partial<RegionPayload> & Partial<OverturePayload>) | null;
  const label = payload?.region ?? payload?.name;
  return {
    jobId: job.id,
    region: typeof label === 'string' ? label : job.key,
    status: job.status,
    progress: job.status === 'running' ? (job.progress as RefreshProgress | null) : null,
    result: job.status === 'complete' ? (job.result as RefreshResult) : null,
    error: job.status === 'error' ? job.error : null,
    startedAt: job.createdAt,
  };
}

/**
 * A region name the panel accepts: the CLI's `--region` names (us/alabama, europe/monaco, or a path on the mirror
 * ending .osm.pbf), never a URL (the panel downloads from OSM_MIRROR_URL only). Throws 400 with the reason.
 */
export function validRegion(input: string): { region: string; key: string } {
  const region = input.trim();
  if (!region) throw badRequest(`Enter ${regionRequestSchemaText}.`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(region)) {
    throw badRequest(
      `Enter ${regionRequestSchemaText}, not an address: extracts are downloaded from the configured mirror (OSM_MIRROR_URL).`,
    );
  }
  try {
    return { region, key: regionPath(region) };
  } catch (error) {
    if (error instanceof DownloadError) throw badRequest(`${error.message}.`);
    throw error;
  }
}

export async function listAreasView(ctx: Pick<AppContext, 'db' | 'jobs'>) {
  const [rows, total, regions, files] = await Promise.all([
    listAreas(ctx.db.kysely),
    countPlaces(ctx.db.kysely),
    ctx.jobs.activeJobs(REGION_JOB),
    ctx.jobs.activeJobs(OVERTURE_JOB),
  ]);
  const active = [...regions, ...files].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
  return {
    areas: rows.map(presentArea),
    /** Businesses stored, every area together (overlapping areas count a business once). */
    businesses: total,
    /** Refreshes pending or running, started by anyone on any instance. */
    refreshes: active.map(presentRefresh),
  };
}

/** Start a region's refresh: 409 while one of the same region is pending or running. */
export async function startRegionRefresh(
  ctx: Pick<AppContext, 'db' | 'jobs'>,
  me: CurrentUser,
  input: string,
): Promise<{ jobId: string; region: string }> {
  const { region, key } = validRegion(input);
  const busy = `${region} is already being refreshed; wait for that refresh to finish.`;
  if (await ctx.jobs.activeJob(REGION_JOB, key)) throw conflict(busy);
  const payload: RegionPayload = { region };
  const job = await ctx.jobs.enqueue(REGION_JOB, key, me.id, payload);
  if (job.joined) throw conflict(busy);
  await recordAudit(ctx.db, me, 'places.region_refresh', { type: 'region', id: key, label: region });
  return { jobId: job.id, region };
}

/** Plain words for a failed refresh; the data imported before stays either way. */
function failure(error: unknown): Error {
  const unchanged = 'The businesses imported before are unchanged.';
  if (error instanceof DownloadError) return new Error(`Download failed: ${error.message}. ${unchanged}`);
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`Import failed: ${message}. ${unchanged}`);
}

export interface RegionWorkerOptions {
  /** Pause before a download retry (doubled each time); default 1 s. */
  retryDelayMs?: number;
}

/**
 * A job's progress reports, written to the database in order, at most every PROGRESS_EVERY_MS (the latest report
 * of an interval is written at its end), a new stage's first report at once. `settled` waits for the last write.
 */
function progressWriter(queue: JobQueue, jobId: string, log: AppContext['log']) {
  let chain: Promise<void> = Promise.resolve();
  let last = 0;
  let lastStage = '';
  let latest: RefreshProgress | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const p = latest;
    if (!p) return;
    latest = undefined;
    last = Date.now();
    lastStage = p.stage;
    chain = chain
      .then(() => queue.setProgress(jobId, p))
      .catch((err: unknown) => log.warn({ err, jobId }, 'import progress not recorded'));
  };
  const report = (p: RefreshProgress) => {
    latest = p;
    if (p.stage !== lastStage) {
      if (timer) clearTimeout(timer);
      flush();
      return;
    }
    timer ??= setTimeout(flush, Math.max(0, last + PROGRESS_EVERY_MS - Date.now()));
  };
  const settled = async () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    await chain;
  };
  return { report, settled };
}

/**
 * A database for a long import: PostgreSQL's bulk statements may rightly outlast the request timeout, so it imports
 * on a connection without one, as the CLI does. `done` closes it.
 */
function importDatabase(ctx: AppContext): { db: Db; done: () => Promise<void> } {
  const { config } = ctx;
  if (config.database.kind !== 'postgres') return { db: ctx.db, done: () => Promise.resolve() };
  const db = openDatabase({ database: { ...config.database, statementTimeoutMs: 0 } });
  return { db, done: () => db.destroy() };
}

/**
 * The queue that works business-data imports: region refreshes and Overture files (one at a time per instance).
 * The caller starts it when the app is ready and stops it on close.
 */
export function createRegionWorker(ctx: AppContext, options: RegionWorkerOptions = {}): JobQueue {
  const { config, log } = ctx;
  const queue = new JobQueue(ctx.db, log, {
    concurrency: 1,
    leaseMs: config.jobs.leaseMs,
    maxAttempts: config.jobs.maxAttempts,
    retentionMs: config.jobs.retentionMs,
  });
  queue.register(OVERTURE_JOB, async (payload, job): Promise<RefreshResult> => {
    const { report, settled } = progressWriter(queue, job.id, log);
    const target = importDatabase(ctx);
    try {
      report({ stage: 'reading', percent: 0, places: 0 });
      const result = await runOvertureImport(
        target.db,
        payload as OverturePayload,
        config.overture.minConfidence,
        report,
      );
      log.info(
        { file: result.region, businesses: result.businesses, total: result.total },
        'overture imported',
      );
      return result;
    } catch (error) {
      throw failure(error);
    } finally {
      await settled();
      await target.done();
    }
  });
  queue.register(REGION_JOB, async (payload, job): Promise<RefreshResult> => {
    const { region } = payload as RegionPayload;
    const { report, settled } = progressWriter(queue, job.id, log);
    let url: string;
    let file: string;
    let bytes: number;
    try {
      url = regionUrl(region, config.osmMirrorUrl);
      report({ stage: 'downloading', bytes: 0, total: 0 });
      const d = await downloadExtract(url, {
        dir: join(config.dataDir, 'downloads'),
        userAgent: config.discovery.osm.userAgent,
        progress: (p) => report({ stage: 'downloading', bytes: p.bytes, total: p.total }),
        ...(options.retryDelayMs !== undefined && { retryDelayMs: options.retryDelayMs }),
      });
      file = d.file;
      bytes = d.bytes;
    } catch (error) {
      await settled();
      throw failure(error);
    }
    const target = importDatabase(ctx);
    const importDb = target.db;
    try {
      report({ stage: 'importing', pass: 1, percent: 0, businesses: 0 });
      const r = await importOsmFile(importDb, file, {
        region,
        source: url,
        progress: (p) =>
          report({
            stage: 'importing',
            pass: p.pass,
            percent: p.totalBytes > 0 ? Math.min(100, Math.round((p.bytesRead / p.totalBytes) * 100)) : 0,
            businesses: p.businesses,
          }),
      });
      await settled();
      log.info({ region, businesses: r.upserted, total: r.total, ms: r.ms }, 'region refreshed');
      return { region, businesses: r.upserted, total: r.total, bytes };
    } catch (error) {
      await settled();
      throw failure(error);
    } finally {
      await target.done();
      // The extract was only the means: a state's file is hundreds of MB. (A failed import keeps nothing either.)
      await rm(file, { force: true });
    }
  });
  return queue;
}
