// A small TCP proxy (node:net) between the app and a server such as PostgreSQL, so a test can take the
// database away from the app and give it back without stopping the machine's shared server: cut() refuses
// (the server is down), hang() accepts and goes silent (the server or the network is stalled).
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drop every open connection and refuse new ones (ECONNREFUSED) until restore(). */
  cut(): Promise<void>;
  /**
   * Stall: open connections stop passing bytes either way, and new ones are accepted but never reach the
   * server and never hear back. The connections open at that moment stay silent for ever, as ones a
   * firewall or a failed-over server forgot: neither closed nor answered.
   */
  hang(): void;
  /** Forward new connections again: after cut(), listen again on the same port; after hang(), also drop
   * the connections accepted while hanging (they never reached the server). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  /** Silent for ever: not even the server closing its end reaches the app. */
  stalled: boolean;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<Pair>();
  const held = new Set<Socket>(); // accepted while hanging, never connected upstream
  let hanging = false;
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const stall = (pair: Pair) => {
    const { client, upstream } = pair;
    pair.stalled = true;
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  const makeServer = () =>
    createServer((client) => {
      track(client);
      client.on('error', () => client.destroy());
      if (hanging) {
        held.add(client);
        client.on('close', () => held.delete(client));
        client.pause(); // read nothing, answer nothing
        return;
      }
      const upstream = connect(target.port, target.host);
      track(upstream);
      const pair: Pair = { client, upstream, stalled: false };
      pairs.add(pair);
      client.pipe(upstream);
      upstream.pipe(client);
      upstream.on('error', () => {
        if (!pair.stalled) client.destroy();
      });
      client.on('close', () => {
        pairs.delete(pair);
        upstream.destroy();
      });
      upstream.on('close', () => {
        if (!pair.stalled) client.destroy();
      });
    });
  let server: Server | null = makeServer();
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const stop = async () => {
    const s = server;
    server = null;
    hanging = false;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  return {
    port,
    cut: stop,
    hang: () => {
      hanging = true;
      for (const pair of pairs) stall(pair);
      pairs.clear();
    },
    restore: async () => {
      if (hanging) {
        hanging = false;
        for (const socket of held) socket.destroy();
      }
      if (server) return;
      const s = makeServer();
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
      server = s;
    },
    close: stop,
  };
}
