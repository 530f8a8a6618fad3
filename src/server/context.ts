import type { MarketKeeper } from './places/market.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Auth } from './auth/auth.js';
import type { Mailer } from './mail/mailer.js';
import type { EventBus } from './events/bus.js';
import type { JobQueue } from './jobs/queue.js';
import type { PlaceChain } from './places/index.js';
import type { ScoreFn } from './scans/analysis.js';
import type { Metrics } from './metrics/metrics.js';
import type { AiClient } from './ai/client.js';

/** What every feature slice gets: configuration, the database and the outside-world adapters. */
export interface AppContext {
  config: Config;
  db: Db;
  auth: Auth;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Live-update notices (blocklist, current advertisers), delivered across instances on PostgreSQL. */
  events: EventBus;
  /** Background jobs (strategies, model-written reasoning) in the database, worked by one instance each. */
  jobs: JobQueue;
  /** The place providers (local, google, osm, demo) and geocoders, chained as configured. */
  places: PlaceChain;
  /** The scoring model (docs/SCORING.md) with the brand index loaded. */
  score: ScoreFn;
  /** Keeps the imported places' profiles and ranks current under the server's rules. */
  market: MarketKeeper;
  metrics: Metrics;
  /** Website checks: their own job queue, null when WEBSITE_CHECKS=off. */
  websites: { queue: JobQueue | null };
  /** The configured OpenAI-compatible endpoint, or null (built-in playbooks, scoring model's texts only). */
  ai: AiClient | null;
}
