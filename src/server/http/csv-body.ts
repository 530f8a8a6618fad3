import type { FastifyInstance } from 'fastify';

/**
 * Lets this plugin's routes take a file posted as itself, `text/csv` (a customer list, a billing export): unlike
 * text/plain, no cross-site form can send that type, and fetch() from another origin needs a preflight the server
 * never grants. The body arrives as a string for the route's schema to read.
 */
export function acceptCsvBodies(app: FastifyInstance): void {
  if (app.hasContentTypeParser('text/csv')) return;
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, parsed) => {
    parsed(null, body);
  });
}
