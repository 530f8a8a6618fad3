import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import {
  createTerritory,
  deleteTerritory,
  listTerritories,
  updateTerritory,
  type TerritoryDeps,
} from './service.js';
import { territoryWork } from './team-view.js';

export const territoryRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const deps: TerritoryDeps = {
    db: ctx.db,
    events: ctx.events,
    maxSquareMiles: ctx.config.territories.maxSquareMiles,
  };

  route(app, 'GET /api/territories', async (request) => ({
    territories: await listTerritories(ctx.db, currentUser(request)),
  }));

  route(app, 'POST /api/territories', async (request, reply) => {
    const territory = await createTerritory(deps, currentUser(request), request.body);
    return reply.status(201).send({ territory });
  });

  route(app, 'PUT /api/territories/:id', async (request) => ({
    territory: await updateTerritory(deps, currentUser(request), request.params.id, request.body),
  }));

  route(app, 'DELETE /api/territories/:id', async (request, reply) => {
    await deleteTerritory(deps, currentUser(request), request.params.id);
    return reply.status(204).send();
  });

  route(app, 'GET /api/team/territories', async (request) => territoryWork(ctx.db, request.query));

  done();
};
