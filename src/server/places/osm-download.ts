// Downloading a named regional OpenStreetMap extract from a mirror of the Geofabrik download server, for
// `npm run import:osm -- --region us/alabama`. The file is written to DATA_DIR/downloads/NAME.part, resumed with
// an HTTP Range request when a connection breaks (in the same run, a few times, and in a later run from the
// .part file left behind), checked against the mirror's .md5 file when it publishes one and against the file's
// format (a PBF file's whole structure; an OSM XML file's root, the rest as it is imported), and only then
// renamed to DATA_DIR/downloads/NAME. Nothing touches the database here: a failed
// download leaves the previous import exactly as it was.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { OsmFormatError, type OsmFileFormat } from './osm-format.js';
import { checkOsmFile } from './pbf-reader.js';

export const DEFAULT_OSM_MIRROR_URL = 'https://download.geofabrik.de';

/** Geofabrik's top-level folders: a region path starting with one of them is used as it is. */
const CONTINENTS = [
  'africa',
  'antarctica',
  'asia',
  'australia-oceania',
  'central-america',
  'europe',
  'north-america',
  'russia',
  'south-america',
];
/** Short names for the sub-regions people ask for most: `us/alabama` is north-america/us/alabama. */
const SHORTHANDS: Record<string, string> = {
  us: 'north-america/us',
  canada: 'north-america/canada',
};

/** A download that failed: the message is the one line the CLI prints. */
export class DownloadError extends Error {
  override name = 'DownloadError';
}

/**
 * The path of a region's extract on the mirror.
 *   `us/alabama`                                 -> north-america/us/alabama-latest.osm.pbf
 *   `europe/monaco`                              -> europe/monaco-latest.osm.pbf
 *   `north-america/us/alabama-latest.osm.pbf`   -> as it is (a full path on the mirror)
 */
export function regionPath(region: string): string {
  const r = region.trim().replace(/^\/+|\/+$/g, '');
  if (!r || r.split('/').some((p) => p === '' || p === '.' || p === '..' || !/^[a-z0-9._-]+$/i.test(p))) {
    throw new DownloadError(
      `Not a region name: "${region}" (examples: us/alabama, europe/monaco, north-america/us/alabama-latest.osm.pbf)`,
    );
  }
  if (r.endsWith('.osm.pbf')) return r;
  const [head = '', ...rest] = r.split('/');
  const prefix = SHORTHANDS[head.toLowerCase()];
  const full = prefix ? [prefix, ...rest].join('/') : r;
  if (!prefix && !CONTINENTS.includes(head.toLowerCase())) {
    throw new DownloadError(
      `Unknown region "${region}": start with us/, canada/ or one of ${CONTINENTS.join(', ')} (e.g. us/alabama)`,
    );
  }
  return `${full.toLowerCase()}-latest.osm.pbf`;
}

/** The extract's URL on the mirror: a region name, a path on the mirror, or a full http(s) URL. */
export function regionUrl(region: string, mirror: string = DEFAULT_OSM_MIRROR_URL): string {
  if (/^https?:\/\//i.test(region.trim())) return region.trim();
  return `${mirror.replace(/\/+$/, '')}/${regionPath(region)}`;
}

export interface DownloadProgress {
  bytes: number;
  /** 0 when the server does not say. */
  total: number;
}

export interface DownloadOptions {
  /** DATA_DIR/downloads. */
  dir: string;
  progress?: (p: DownloadProgress) => void;
  /** Attempts per run before giving up (each resumes where the last stopped). Default 4. */
  attempts?: number;
  /** Pause before a retry, doubled each time. Default 1 s. */
  retryDelayMs?: number;
  userAgent?: string;
}

export interface DownloadResult {
  file: string;
  bytes: number;
  /** The byte offsets the download was resumed at (HTTP Range), after a break in this or an earlier run. */
  resumedAt: number[];
  /** 'md5 ok' when the mirror publishes a checksum, else null. */
  md5: string | null;
  /** The file's format, from its content. */
  format: OsmFileFormat;
}

interface PartMeta {
  url: string;
  validator: string | null;
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

function describe(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message ?? String(error)} (${cause})` : (e.message ?? String(error));
}

/** One request: append what the server sends to `part`, from the end of what it already holds when possible. */
async function fetchInto(
  url: string,
  part: string,
  metaFile: string,
  opts: DownloadOptions,
  resumedAt: number[],
): Promise<void> {
  let offset = await sizeOf(part);
  let meta: PartMeta | null = null;
  if (offset > 0) {
    meta = await readFile(metaFile, 'utf8')
      .then((t) => JSON.parse(t) as PartMeta)
      .catch(() => null);
    // A .part from another URL, or with nothing to tell whether the file changed since, starts over.
    if (!meta || meta.url !== url || !meta.validator) {
      await rm(part, { force: true });
      offset = 0;
    }
  }
  const headers: Record<string, string> = { 'user-agent': opts.userAgent ?? 'prospect-finder' };
  if (offset > 0 && meta?.validator) {
    headers.range = `bytes=${offset}-`;
    // The server sends the whole file again (200) when it changed since the .part was started.
    headers['if-range'] = meta.validator;
  }
  let res: Response;
  try {
    res = await fetch(url, { headers, redirect: 'follow' });
  } catch (error) {
    throw Object.assign(new DownloadError(`network error fetching ${url}: ${describe(error)}`), {
      retry: true,
    });
  }
  if (res.status === 416 && offset > 0) {
    // The .part is already complete (or longer than the file): check it as it is, or start over.
    await res.body?.cancel();
    return;
  }
  if (res.status !== 200 && res.status !== 206) {
    await res.body?.cancel();
    throw Object.assign(
      new DownloadError(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''} from ${url}`),
      { retry: res.status >= 500 || res.status === 429 },
    );
  }
  let start = 0;
  let total = Number(res.headers.get('content-length') ?? 0);
  if (res.status === 206) {
    const m = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(res.headers.get('content-range') ?? '');
    if (!m || Number(m[1]) !== offset) {
      await res.body?.cancel();
      await rm(part, { force: true });
      throw Object.assign(new DownloadError(`${url} answered a range that was not asked for`), {
        retry: true,
      });
    }
    start = offset;
    resumedAt.push(offset);
    total = m[2] === '*' ? 0 : Number(m[2]);
  } else {
    const validator = res.headers.get('etag') ?? res.headers.get('last-modified');
    // Weak ETags cannot be used in If-Range: resume only with a strong validator.
    await writeFile(
      metaFile,
      JSON.stringify({ url, validator: validator && !validator.startsWith('W/') ? validator : null }),
    );
  }
  if (!res.body) throw new DownloadError(`${url} sent no body`);
  let bytes = start;
  opts.progress?.({ bytes, total });
  const out = createWriteStream(part, { flags: start > 0 ? 'a' : 'w' });
  const body = Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    opts.progress?.({ bytes, total });
  });
  try {
    await pipeline(body, out);
  } catch (error) {
    throw Object.assign(
      new DownloadError(
        `network error: the download of ${url} broke off at ${bytes.toLocaleString('en-US')}` +
          `${total ? ` of ${total.toLocaleString('en-US')}` : ''} bytes (${describe(error)})`,
      ),
      { retry: true },
    );
  }
  if (total > 0 && bytes < total) {
    throw Object.assign(
      new DownloadError(
        `network error: the download of ${url} broke off at ${bytes.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} bytes`,
      ),
      { retry: true },
    );
  }
}

/** The mirror's published MD5 of `url` (from `url.md5`), or null when it publishes none. */
async function publishedMd5(url: string, userAgent: string): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(`${url}.md5`, { headers: { 'user-agent': userAgent } });
  } catch (error) {
    throw new DownloadError(`network error fetching ${url}.md5: ${describe(error)}`);
  }
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new DownloadError(
      `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''} from ${url}.md5`,
    );
  }
  const m = /^([0-9a-f]{32})\b/i.exec((await res.text()).trim());
  if (!m?.[1]) throw new DownloadError(`${url}.md5 does not hold an MD5 checksum`);
  return m[1].toLowerCase();
}

async function md5Of(file: string): Promise<string> {
  const hash = createHash('md5');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Download `url` into `opts.dir`, resuming a .part left there by a broken download, verify it and return the
 * finished file. Throws DownloadError with a one-line message; the .part stays for the next run unless it is
 * known to be bad (checksum mismatch, not an OpenStreetMap file), which is deleted.
 */
export async function downloadExtract(url: string, opts: DownloadOptions): Promise<DownloadResult> {
  await mkdir(opts.dir, { recursive: true });
  const name = basename(new URL(url).pathname) || 'extract.osm.pbf';
  const file = join(opts.dir, name);
  const part = `${file}.part`;
  const metaFile = `${file}.part.json`;
  const userAgent = opts.userAgent ?? 'prospect-finder';
  const attempts = Math.max(1, opts.attempts ?? 4);
  let delay = opts.retryDelayMs ?? 1000;
  const resumedAt: number[] = [];
  for (let attempt = 1; ; attempt++) {
    try {
      await fetchInto(url, part, metaFile, opts, resumedAt);
      break;
    } catch (error) {
      const retry = (error as { retry?: boolean }).retry === true;
      if (!retry || attempt >= attempts) throw error;
      await new Promise((r) => setTimeout(r, delay));
      delay *= 2;
    }
  }
  const expected = await publishedMd5(url, userAgent);
  if (expected) {
    const actual = await md5Of(part);
    if (actual !== expected) {
      await rm(part, { force: true });
      await rm(metaFile, { force: true });
      throw new DownloadError(
        `checksum mismatch for ${name}: the mirror's .md5 says ${expected}, the download is ${actual}; deleted it, run again to download it afresh`,
      );
    }
  }
  let format: OsmFileFormat;
  try {
    format = await checkOsmFile(part);
  } catch (error) {
    if (error instanceof OsmFormatError) {
      await rm(part, { force: true });
      await rm(metaFile, { force: true });
      throw new DownloadError(`${name} is not a usable extract: ${error.message}; deleted it`);
    }
    throw error;
  }
  await rename(part, file);
  await rm(metaFile, { force: true });
  return { file, bytes: await sizeOf(file), resumedAt, md5: expected, format };
}

/** A text progress bar, e.g. `[##########----------]  50% 12.3 of 24.6 MB`. */
export function formatDownloadProgress(p: DownloadProgress): string {
  const mb = (n: number) => (n / 1e6).toFixed(1);
  if (p.total <= 0) return `downloading: ${mb(p.bytes)} MB`;
  const frac = Math.min(1, p.bytes / p.total);
  const width = 30;
  const filled = Math.round(frac * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(frac * 100)).padStart(3)}% ${mb(p.bytes)} of ${mb(p.total)} MB`;
}
