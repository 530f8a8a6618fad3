// Local stand-ins for the outside services (Google Places / Geocoding, Overpass, Nominatim): a node:http server
// on 127.0.0.1 that records every request and answers through a handler written in the real response format.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
