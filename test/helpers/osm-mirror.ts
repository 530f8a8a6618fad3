// A local download mirror with the Geofabrik layout for region-download tests: serves `PATH` and `PATH.md5` for
// each file set, with ETags and Range requests, speaking plain HTTP on 127.0.0.1. A path may be held: its answer
// sends the first `holdAfter` bytes and waits for `release()` before the rest (a download caught mid-way).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OsmMirror {
  /** e.g. http://127.0.0.1:41234 (OSM_MIRROR_URL). */
  url: string;
  /** Serve `bytes` at `path` (e.g. /north-america/us/alabama-latest.osm.pbf); replaces what was there. */
  set(path: string, bytes: Buffer): void;
  /** Answer `path` with its first `bytes` bytes, then wait for release() before sending the rest. */
  hold(path: string, bytes: number): void;
  release(): void;
  /** The paths requested so far. */
  requests: string[];
  close(): Promise<void>;
}

export async function startOsmMirror(): Promise<OsmMirror> {
  const files = new Map<string, Buffer>();
  const held = new Map<string, number>();
  let release: () => void = () => undefined;
  let released = new Promise<void>((r) => (release = r));
  const requests: string[] = [];
  const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    if (path.endsWith('.md5')) {
      const body = files.get(path.slice(0, -4));
      if (!body) res.writeHead(404, 'Not Found').end('not found');
      else res.writeHead(200).end(`${md5(body)}  ${path.split('/').pop()?.slice(0, -4)}\n`);
      return;
    }
    const body = files.get(path);
    if (!body) {
      res.writeHead(404, 'Not Found').end('not found');
      return;
    }
    const etag = `"${md5(body)}"`;
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (m && req.headers['if-range'] === etag && Number(m[1]) < body.length) {
      const start = Number(m[1]);
      res.writeHead(206, {
        etag,
        'content-length': body.length - start,
        'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
      });
      res.end(body.subarray(start));
      return;
    }
    res.writeHead(200, { etag, 'accept-ranges': 'bytes', 'content-length': body.length });
    const at = held.get(path);
    if (at === undefined) {
      res.end(body);
      return;
    }
    res.write(body.subarray(0, at));
    void released.then(() => res.end(body.subarray(at)));
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (path, bytes) => void files.set(path, bytes),
    hold: (path, bytes) => {
      held.set(path, bytes);
      released = new Promise<void>((r) => (release = r));
    },
    release: () => {
      held.clear();
      release();
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
