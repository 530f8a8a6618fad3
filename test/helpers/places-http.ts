// Local stand-ins for the outside services (Google Places / Geocoding, Overpass, Nominatim): a node:http server
// on 127.0.0.1 that records every request and answers through a handler written in the real response format.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

export interface RecordedRequest {
  method: string;
  path: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface FakeService {
  url: string;
  requests: RecordedRequest[];
  /** Requests being answered right now, and the most at once. */
  inFlight: { now: number; max: number };
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export async function startFakeService(initial?: Handler): Promise<FakeService> {
  let handler: Handler = initial ?? ((_req, res) => json(res, 404, { error: 'no handler' }));
  const requests: RecordedRequest[] = [];
  const inFlight = { now: 0, max: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(recorded);
      inFlight.now++;
      inFlight.max = Math.max(inFlight.max, inFlight.now);
      res.on('close', () => inFlight.now--);
      Promise.resolve(handler(recorded, res)).catch((error: unknown) =>
        json(res, 599, { error: String(error) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inFlight,
    handle: (h) => {
      handler = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A PNG of `width` x `height` pixels of one colour: a real image, made here so no fixture file is needed. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A photo the Google stand-in holds: its bytes and media type, as the image host sends them. */
export interface FakePhoto {
  body: Buffer | string;
  contentType: string;
}

/**
 * Place Photos (New) as Google answers it, for a Google stand-in's handler: `GET /v1/{photo name}/media` with
 * the key (X-Goog-Api-Key header or `key`) and maxWidthPx or maxHeightPx answers `{name, photoUri}` with
 * skipHttpRedirect=true, else a 302 to photoUri; photoUri (on this same stand-in, no key, like Google's image
 * host) sends the bytes. True when the request was one of these; false leaves it to the caller's handler.
 */
export function answerPhoto(
  req: RecordedRequest,
  res: ServerResponse,
  photos: ReadonlyMap<string, FakePhoto>,
  key: string,
): boolean {
  const media = /^\/v1\/(places\/[^/]+\/photos\/[^/]+)\/media$/.exec(req.path);
  if (media) {
    const name = media[1]!;
    const given = req.headers['x-goog-api-key'] ?? req.url.searchParams.get('key');
    if (given !== key) {
      json(res, 403, { error: { code: 403, message: 'API key not valid.', status: 'PERMISSION_DENIED' } });
      return true;
    }
    const width = Number(req.url.searchParams.get('maxWidthPx') ?? 0);
    const height = Number(req.url.searchParams.get('maxHeightPx') ?? 0);
    if (!(width >= 1 && width <= 4800) && !(height >= 1 && height <= 4800)) {
      json(res, 400, { error: { code: 400, message: 'maxWidthPx or maxHeightPx is required.' } });
      return true;
    }
    if (!photos.has(name)) {
      json(res, 404, { error: { code: 404, message: 'Photo not found.', status: 'NOT_FOUND' } });
      return true;
    }
    const photoUri = `http://${req.headers.host}/photo-content/${encodeURIComponent(name)}`;
    if (req.url.searchParams.get('skipHttpRedirect') === 'true')
      json(res, 200, { name: `${name}/media`, photoUri });
    else {
      res.writeHead(302, { location: photoUri });
      res.end();
    }
    return true;
  }
  const content = /^\/photo-content\/([^/]+)$/.exec(req.path);
  if (content) {
    const photo = photos.get(decodeURIComponent(content[1]!));
    if (!photo) json(res, 404, { error: 'no such photo' });
    else {
      res.writeHead(200, { 'content-type': photo.contentType });
      res.end(photo.body);
    }
    return true;
  }
  return false;
}
