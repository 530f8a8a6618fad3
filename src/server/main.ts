import { ConfigError, parseConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { buildApp } from './app.js';
import { getBrandIndex } from '../core/scoring/nsi.js';
import { DatabaseStartError, ensurePostgresReady } from './db/postgres-ready.js';

async function main(): Promise<void> {
  let config;
  try {
    config = parseConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (config.database.kind === 'postgres') {
    // Wait for a server that is not up yet, create a missing database; else one line and exit 1.
    try {
      await ensurePostgresReady(config.database);
    } catch (error) {
      if (error instanceof DatabaseStartError) {
        console.error(error.message);
        process.exit(1);
      }
      throw error;
    }
  }
  const db = openDatabase(config);
  const app = await buildApp({ config, db });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // A keep-alive connection busy when closing starts turns idle once its answer is sent; close it then
    // instead of after keepAliveTimeout (72 s), which would hold the exit for that long.
    setInterval(() => app.server.closeIdleConnections(), 200).unref();
    // A job stuck in a long AI call must not hold the exit for ever: its lease hands it to the next start.
    setTimeout(() => {
      app.log.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    app
      .close()
      .then(() => db.destroy())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  // The scorer's national-chain lookup is built from a 12 MB file on first use: ~0.5 s of the event loop.
  // Pay it before taking requests, not inside the first scan while every other request waits behind it.
  getBrandIndex();
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Prospect Finder is running at ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
