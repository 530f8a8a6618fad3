// `npm start`: build what changed (scripts/build.mjs: nothing when the sources are as at the last build), then
// run the compiled server (dist/server/main.js) in this very process. `npm start` execs this script, so the
// process npm starts is the server: SIGTERM or SIGINT reaches its graceful shutdown (src/server/main.ts), and
// npm forwards the signals it gets itself.
import { pathToFileURL } from 'node:url';
import { ensureBuilt, SERVER_OUT } from './build.mjs';

try {
  await ensureBuilt();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
process.setSourceMapsEnabled(true);
await import(pathToFileURL(SERVER_OUT).href);
