// A local mirror of Overture releases for download tests, on 127.0.0.1: serves files with HEAD, ETags and HTTP
// Range requests (206), lists folders as an HTML index page (as nginx or `python -m http.server` write one) or,
// with `s3: true`, only through the S3 ListObjectsV2 API (`/?list-type=2&prefix=...&delimiter=/`), as Overture's
// S3 bucket does. It counts the body bytes it sends, and can cut a connection once in the middle of a range.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OvertureMirror {
  /** e.g. http://127.0.0.1:41234/release (OVERTURE_RELEASE_URL). */
  releaseUrl: string;
  /** Serve `bytes` at `path` under the release folder (e.g. `2025-09-24.0/theme=places/type=place/a.parquet`). */
  set(path: string, bytes: Buffer): void;
  /** Destroy the socket of the next range request for `path` once, after sending `after` bytes of it. */
  cutOnce(path: string, after: number): void;
  /** Body bytes sent so far, per file path and in all. */
  bytesSent(path?: string): number;
  /** The requests seen ("METHOD path?query range"). */
  requests: string[];
  close(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export async function startOvertureMirror(options: { s3?: boolean } = {}): Promise<OvertureMirror> {
  const files = new Map<string, Buffer>();
  const sent = new Map<string, number>();
  const cuts = new Map<string, number>();
  const requests: string[] = [];
  const prefix = '/release/';

  function children(folder: string): { folders: Set<string>; files: string[] } {
    const folders = new Set<string>();
    const own: string[] = [];
    for (const path of files.keys()) {
      if (!path.startsWith(folder)) continue;
      const rest = path.slice(folder.length);
      const slash = rest.indexOf('/');
      if (slash < 0) own.push(rest);
      else folders.add(rest.slice(0, slash));
    }
    return { folders, files: own.sort() };
  }

  function listS3(url: URL, res: ServerResponse): void {
    const p = `/${url.searchParams.get('prefix') ?? ''}`;
    const { folders, files: own } = children(p);
    const key = p.slice(1);
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(
      '<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        `<Name>mirror</Name><Prefix>${escapeHtml(key)}</Prefix><IsTruncated>false</IsTruncated>` +
        [...folders].map((f) => `<CommonPrefixes><Prefix>${escapeHtml(`${key}${f}/`)}</Prefix></CommonPrefixes>`).join('') +
        own.map((f) => `<Contents><Key>${escapeHtml(`${key}${f}`)}</Key><Size>${files.get(`${p}${f}`)?.length ?? 0}</Size></Contents>`).join('') +
        '</ListBucketResult>',
    ); // prettier-ignore
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    requests.push(`${req.method} ${url.pathname}${url.search} ${req.headers.range ?? ''}`.trim());
    if (options.s3 && url.pathname === '/' && url.searchParams.get('list-type') === '2')
      return listS3(url, res);
    if (path.endsWith('/')) {
      const { folders, files: own } = children(path);
      if (options.s3 || (folders.size === 0 && own.length === 0)) {
        res
          .writeHead(404, { 'content-type': 'application/xml' })
          .end('<Error><Code>NoSuchKey</Code></Error>');
        return;
      }
      const links = [...[...folders].map((f) => `${f}/`), ...own]
        .map((f) => `<a href="${escapeHtml(encodeURIComponent(f.replace(/\/$/, '')) + (f.endsWith('/') ? '/' : ''))}">${escapeHtml(f)}</a>`)
        .join('\n'); // prettier-ignore
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<html><body><h1>Index of ${escapeHtml(path)}</h1><a href="../">../</a>\n${links}</body></html>`,
      );
      return;
    }
    const body = files.get(path);
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    const etag = `"${createHash('md5').update(body).digest('hex')}"`;
    if (req.method === 'HEAD') {
      res.writeHead(200, { etag, 'accept-ranges': 'bytes', 'content-length': body.length }).end();
      return;
    }
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const ifRange = req.headers['if-range'];
    if (!m || (ifRange !== undefined && ifRange !== etag)) {
      sent.set(path, (sent.get(path) ?? 0) + body.length);
      res.writeHead(200, { etag, 'content-length': body.length }).end(body);
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(body.length - 1, m[2] ? Number(m[2]) : body.length - 1);
    const part = body.subarray(start, end + 1);
    res.writeHead(206, {
      etag,
      'content-length': part.length,
      'content-range': `bytes ${start}-${end}/${body.length}`,
    });
    const cut = cuts.get(path);
    if (cut !== undefined && part.length > cut) {
      cuts.delete(path);
      sent.set(path, (sent.get(path) ?? 0) + cut);
      res.write(part.subarray(0, cut), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    sent.set(path, (sent.get(path) ?? 0) + part.length);
    res.end(part);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    releaseUrl: `http://127.0.0.1:${port}/release`,
    set: (path, bytes) => void files.set(`${prefix}${path}`, bytes),
    cutOnce: (path, after) => void cuts.set(`${prefix}${path}`, after),
    bytesSent: (path) =>
      path === undefined
        ? [...sent.values()].reduce((a, b) => a + b, 0)
        : (sent.get(`${prefix}${path}`) ?? 0),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
