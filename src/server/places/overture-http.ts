// Reading Overture releases from a mirror over HTTP, for `npm run import:overture -- --bbox W,S,E,N` (or
// `--region NAME`): a release is a folder of many GeoParquet files (`<release>/theme=places/type=place/*.parquet`
// under OVERTURE_RELEASE_URL), and only the row groups whose bbox statistics meet the box are read, each file
// through an AsyncBuffer over HTTP Range requests. So a state's places come from a few hundred MB of a release of
// many GB. A range cut off mid-way (a broken connection) is asked again from the byte where it stopped, with a
// pause that doubles, a few times; a failure then is one OvertureDownloadError line.
//
// The folders are listed by the S3 ListObjectsV2 API (the default mirror is Overture's public S3 bucket) or, on a
// mirror that is a plain web server, from its HTML index page (nginx, Apache and `python -m http.server` write
// one), whichever answers.
import { Parser } from 'htmlparser2';
import type { AsyncBuffer } from 'hyparquet';

export const DEFAULT_OVERTURE_RELEASE_URL =
  'https://overturemaps-us-west-2.s3.us-west-2.amazonaws.com/release';

/** A mirror that cannot be read: the message is the one line the CLI prints. */
export class OvertureDownloadError extends Error {
  override name = 'OvertureDownloadError';
  /** Marks it for the reader: a fetch failure, not a damaged file (overture-reader.ts FetchFailure). */
  readonly fetchFailure = true;
}

/** What the HTTP reads of one import cost. */
export interface TransferStats {
  /** Body bytes received. */
  bytes: number;
  requests: number;
  /** Ranges asked again after a broken connection or a server error. */
  retries: number;
}

export const newTransferStats = (): TransferStats => ({ bytes: 0, requests: 0, retries: 0 });

export interface HttpOptions {
  userAgent?: string;
  /** Attempts per range before giving up (default 5). */
  attempts?: number;
  /** Pause before the first retry, doubled each time (default 500 ms). */
  retryDelayMs?: number;
  /** Counted into as bytes arrive. */
  stats?: TransferStats;
  /** Called as body bytes arrive (for a progress bar). */
  onBytes?: (bytes: number) => void;
}

const describe = (error: unknown): string => {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message ?? String(error)} (${cause})` : (e.message ?? String(error));
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ranges of this size or less are kept once fetched (footers, metadata, page indexes); column data is not. */
const CACHED_RANGE = 1024 * 1024;
/** Bytes of ranges kept, the least recently used dropped first. */
const CACHE_BYTES = 4 * 1024 * 1024;

/**
 * A remote file as an AsyncBuffer over HTTP Range requests. Its size comes from a HEAD request (else from the
 * Content-Range of a one-byte range). Every read fetches exactly the bytes asked for; those of at most 1 MB are kept
 * in a small cache (4 MB, least recently used dropped first) that answers any later read inside them: hyparquet reads
 * a file's footer, then its metadata and the page indexes again while planning each row group. The server must
 * answer ranges (206): one that sends the whole file instead is refused rather than downloaded.
 */
export async function httpAsyncBuffer(url: string, options: HttpOptions = {}): Promise<AsyncBuffer> {
  const headers: Record<string, string> = { 'user-agent': options.userAgent ?? 'prospect-finder' };
  const attempts = Math.max(1, options.attempts ?? 5);
  const stats = options.stats;
  let size: number | null = null;
  let validator: string | null = null;
  try {
    const head = await fetch(url, { method: 'HEAD', headers });
    if (stats) stats.requests++;
    if (head.status === 404) throw new OvertureDownloadError(`HTTP 404 Not Found from ${url}`);
    if (head.ok) {
      const length = Number(head.headers.get('content-length') ?? NaN);
      if (Number.isFinite(length) && length > 0) size = length;
      const etag = head.headers.get('etag');
      validator = etag && !etag.startsWith('W/') ? etag : null;
    }
  } catch (error) {
    if (error instanceof OvertureDownloadError) throw error;
    throw new OvertureDownloadError(`network error asking the size of ${url}: ${describe(error)}`);
  }

  /** Bytes [start, end) of the file, resumed where a broken answer stopped. */
  async function fetchRange(start: number, end: number): Promise<ArrayBuffer> {
    const out = new Uint8Array(end - start);
    let got = 0;
    let delay = options.retryDelayMs ?? 500;
    let lastError = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        if (stats) stats.retries++;
        await sleep(delay);
        delay *= 2;
      }
      const from = start + got;
      const h: Record<string, string> = { ...headers, range: `bytes=${from}-${end - 1}` };
      // The file changed on the mirror since its size was read: the server then sends it whole (200), refused below.
      if (validator) h['if-range'] = validator;
      let res: Response;
      try {
        res = await fetch(url, { headers: h });
        if (stats) stats.requests++;
      } catch (error) {
        lastError = `network error: ${describe(error)}`;
        continue;
      }
      if (res.status !== 206) {
        await res.body?.cancel().catch(() => undefined);
        if (res.status >= 500 || res.status === 429) {
          lastError = `HTTP ${res.status}`;
          continue;
        }
        throw new OvertureDownloadError(
          res.status === 200
            ? `${url} was sent whole instead of the range asked for: the mirror must answer HTTP Range requests (or the file changed on it during the import)`
            : `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''} from ${url}`,
        );
      }
      const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.headers.get('content-range') ?? '');
      if (!m || Number(m[1]) !== from) {
        await res.body?.cancel().catch(() => undefined);
        throw new OvertureDownloadError(`${url} answered another range than bytes ${from}-${end - 1}`);
      }
      if (!res.body) {
        lastError = 'no body';
        continue;
      }
      const reader = res.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const n = Math.min(value.byteLength, out.length - got);
          out.set(value.subarray(0, n), got);
          got += n;
          if (stats) stats.bytes += value.byteLength;
          options.onBytes?.(value.byteLength);
        }
      } catch (error) {
        lastError = `the connection broke at byte ${(start + got).toLocaleString('en-US')} (${describe(error)})`;
        continue;
      }
      if (got >= out.length) return out.buffer;
      lastError = `the answer stopped at byte ${(start + got).toLocaleString('en-US')} of ${end.toLocaleString('en-US')}`;
    }
    throw new OvertureDownloadError(`reading ${url} failed after ${attempts} attempts: ${lastError}`);
  }

  if (size === null) {
    // No usable HEAD answer: a one-byte range tells the size in its Content-Range.
    try {
      const res = await fetch(url, { headers: { ...headers, range: 'bytes=0-0' } });
      if (stats) stats.requests++;
      await res.body?.cancel().catch(() => undefined);
      const total = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1];
      if (res.status !== 206 || !total) {
        throw new OvertureDownloadError(
          `${url} (HTTP ${res.status}) does not say its size or answer range requests`,
        );
      }
      size = Number(total);
    } catch (error) {
      if (error instanceof OvertureDownloadError) throw error;
      throw new OvertureDownloadError(`network error asking the size of ${url}: ${describe(error)}`);
    }
  }
  const byteLength = size;

  /** Fetched ranges kept, least recently used first. */
  const cache: { start: number; end: number; data: Promise<ArrayBuffer> }[] = [];
  const cachedBytes = () => cache.reduce((sum, c) => sum + (c.end - c.start), 0);

  return {
    byteLength,
    async slice(start: number, end: number = byteLength): Promise<ArrayBuffer> {
      const s = Math.max(0, start);
      const e = Math.min(byteLength, end);
      if (e <= s) return new ArrayBuffer(0);
      const i = cache.findIndex((c) => c.start <= s && e <= c.end);
      if (i >= 0) {
        const [hit] = cache.splice(i, 1);
        if (hit) {
          cache.push(hit);
          const buf = await hit.data;
          return buf.slice(s - hit.start, e - hit.start);
        }
      }
      const data = fetchRange(s, e);
      if (e - s <= CACHED_RANGE) {
        const entry = { start: s, end: e, data };
        cache.push(entry);
        data.catch(() => cache.splice(cache.indexOf(entry), 1));
        while (cachedBytes() > CACHE_BYTES && cache.length > 1) cache.shift();
      }
      return data;
    },
  };
}

/** A folder's entries: sub-folder names (without the slash) and files with their size when the listing says. */
export interface FolderListing {
  folders: string[];
  files: { name: string; size: number | null }[];
}

async function getText(
  url: string,
  userAgent: string,
): Promise<{ status: number; type: string; body: string }> {
  try {
    const res = await fetch(url, { headers: { 'user-agent': userAgent } });
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
  } catch (error) {
    throw new OvertureDownloadError(`network error listing ${url}: ${describe(error)}`);
  }
}

/** The elements' text of an XML document, by element name (S3 ListObjectsV2 answers are flat enough for this). */
function xmlEntries(xml: string): {
  prefixes: string[];
  keys: { key: string; size: number | null }[];
  next: string | null;
} {
  const prefixes: string[] = [];
  const keys: { key: string; size: number | null }[] = [];
  let next: string | null = null;
  const stack: string[] = [];
  let textBuf = '';
  let pendingKey: string | null = null;
  const parser = new Parser(
    {
      onopentag(name) {
        stack.push(name);
        textBuf = '';
      },
      ontext(t) {
        textBuf += t;
      },
      onclosetag(name) {
        const parent = stack[stack.length - 2];
        const value = textBuf.trim();
        if (name === 'prefix' && parent === 'commonprefixes') prefixes.push(value);
        if (name === 'key' && parent === 'contents') pendingKey = value;
        if (name === 'size' && parent === 'contents' && pendingKey !== null) {
          keys.push({ key: pendingKey, size: Number(value) });
          pendingKey = null;
        }
        if (name === 'nextcontinuationtoken') next = value || null;
        stack.pop();
        textBuf = '';
      },
    },
    { xmlMode: true, lowerCaseTags: true },
  );
  parser.write(xml);
  parser.end();
  return { prefixes, keys, next };
}

/** List a folder through the S3 ListObjectsV2 API at the mirror's origin (anonymous), or null when it is no S3. */
async function listS3(folderUrl: URL, userAgent: string): Promise<FolderListing | null> {
  const prefix = decodeURIComponent(folderUrl.pathname.replace(/^\/+/, ''));
  const listing: FolderListing = { folders: [], files: [] };
  let token: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const q = new URL('/', folderUrl);
    q.searchParams.set('list-type', '2');
    q.searchParams.set('delimiter', '/');
    q.searchParams.set('prefix', prefix);
    if (token) q.searchParams.set('continuation-token', token);
    const res = await getText(q.toString(), userAgent);
    if (res.status !== 200 || !/<ListBucketResult[\s>]/.test(res.body)) return page === 0 ? null : listing;
    const { prefixes, keys, next } = xmlEntries(res.body);
    for (const p of prefixes) listing.folders.push(p.slice(prefix.length).replace(/\/$/, ''));
    for (const k of keys)
      if (k.key.length > prefix.length)
        listing.files.push({ name: k.key.slice(prefix.length), size: k.size });
    if (!next) return listing;
    token = next;
  }
  return listing;
}

/** List a folder from the HTML index page a web server writes for it, or null when it writes none. */
async function listHtml(folderUrl: URL, userAgent: string): Promise<FolderListing | null> {
  const res = await getText(folderUrl.toString(), userAgent);
  if (res.status !== 200 || !/html/i.test(res.type)) return null;
  const listing: FolderListing = { folders: [], files: [] };
  const parser = new Parser({
    onopentag(name, attrs) {
      if (name !== 'a' || !attrs.href) return;
      let target: URL;
      try {
        target = new URL(attrs.href, folderUrl);
      } catch {
        return;
      }
      if (target.origin !== folderUrl.origin || !target.pathname.startsWith(folderUrl.pathname)) return;
      const rest = decodeURIComponent(target.pathname.slice(folderUrl.pathname.length));
      if (/^[^/]+$/.test(rest)) listing.files.push({ name: rest, size: null });
      else if (/^[^/]+\/$/.test(rest)) listing.folders.push(rest.slice(0, -1));
    },
  });
  parser.write(res.body);
  parser.end();
  return listing;
}

/** A folder of the mirror listed by whichever of S3's API and an HTML index answers. */
export async function listFolder(folderUrl: string, userAgent = 'prospect-finder'): Promise<FolderListing> {
  const url = new URL(folderUrl.endsWith('/') ? folderUrl : `${folderUrl}/`);
  const listing = (await listHtml(url, userAgent)) ?? (await listS3(url, userAgent));
  if (!listing) {
    throw new OvertureDownloadError(
      `cannot list ${url.toString()}: the mirror answers neither an S3 listing nor an HTML index`,
    );
  }
  return listing;
}

/** Release folder names (`2025-09-24.0`), compared by date then by their number after the dot. */
const RELEASE = /^(\d{4}-\d{2}-\d{2})(?:\.(\d+))?$/;

export function latestRelease(names: readonly string[]): string | null {
  const releases = names.filter((n) => RELEASE.test(n));
  releases.sort((a, b) => {
    const [, da = '', na = '0'] = RELEASE.exec(a) ?? [];
    const [, db = '', nb = '0'] = RELEASE.exec(b) ?? [];
    return da === db ? Number(na) - Number(nb) : da < db ? -1 : 1;
  });
  return releases.at(-1) ?? null;
}

export interface ReleaseFiles {
  release: string;
  /** The places files, in name order, with their size when the listing gives it. */
  files: { url: string; size: number | null }[];
}

/**
 * The places files of a release on the mirror (`<base>/<release>/theme=places/type=place/*.parquet`): the
 * release given, else the latest the mirror lists.
 */
export async function releaseFiles(
  baseUrl: string,
  options: { release?: string; userAgent?: string } = {},
): Promise<ReleaseFiles> {
  const base = baseUrl.replace(/\/+$/, '');
  const userAgent = options.userAgent ?? 'prospect-finder';
  let release = options.release?.trim();
  if (!release) {
    const top = await listFolder(`${base}/`, userAgent);
    release = latestRelease(top.folders) ?? undefined;
    if (!release) throw new OvertureDownloadError(`${base}/ lists no release folder (like 2025-09-24.0)`);
  } else if (!RELEASE.test(release)) {
    throw new OvertureDownloadError(`"${release}" is not a release name (like 2025-09-24.0)`);
  }
  const folder = `${base}/${release}/theme=places/type=place/`;
  const listing = await listFolder(folder, userAgent);
  const files = listing.files
    .filter((f) => f.name.endsWith('.parquet'))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((f) => ({ url: `${folder}${encodeURIComponent(f.name).replace(/%3D/g, '=')}`, size: f.size }));
  if (files.length === 0) throw new OvertureDownloadError(`${folder} lists no places file (*.parquet)`);
  return { release, files };
}
