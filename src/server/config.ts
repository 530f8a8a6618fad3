import { z } from 'zod';
import { resolve } from 'node:path';

// Every setting the server reads, parsed once at start-up. Each variable is documented in .env.example.
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
  z.url().optional(),
);

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalUrl,
  /**
   * More addresses the app is opened at (a second domain name), as a comma list of origins: state-changing
   * requests from pages of these origins are accepted besides PUBLIC_URL's and the request's own.
   */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^https?:\/\/[^/?#\s]+\/?$/,
            'must be a comma list of origins like https://prospects.example.com',
          )
          .transform((o) => new URL(o).origin),
      ),
    ),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .trim()
    .default('')
    .refine(
      (v) => v === '' || /^postgres(ql)?:\/\//.test(v),
      'must be a postgres:// URL or empty for SQLite',
    ),
  /** PostgreSQL: how long to wait for a connection (a new one, or a free one from the pool) before answering 503. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(DEFAULT_CONNECT_TIMEOUT_MS),
  /** PostgreSQL: how long the server waits at start for a database that is not up yet (0: no wait). */
  DATABASE_WAIT_MS: z.coerce.number().int().min(0).default(60_000),
  /** PostgreSQL: longest statement (server side; the client gives up 1 s later if no answer comes). 0 = none. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_STATEMENT_TIMEOUT_MS),
  /** SQLite synchronous pragma: FULL makes every answered write survive a power cut or SIGKILL. */
  SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  AUTH_SECRET: z
    .string()
    .default('')
    .refine((v) => v === '' || v.length >= 32, 'must be at least 32 characters (or empty to generate one)'),
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(128).default(8),
  /** Password hashes (sign-in, registration, reset) running at once per process; empty: as many as the cores. */
  PASSWORD_HASH_CONCURRENCY: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(1).max(64).optional(),
  ),
  /** false, true (every hop), a number of hops, or a comma list of proxy addresses/CIDRs. */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((v): boolean | number | string[] => {
      if (['', 'false', '0', 'no'].includes(v)) return false;
      if (['true', 'yes'].includes(v)) return true;
      if (/^\d+$/.test(v)) return Number(v);
      return v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
    }),
  /** The longest a graceful shutdown may take before the process exits anyway (a crash mid-job is safe). */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Prospect Finder <no-reply@localhost>'),
  /** Hour (0-23) on each rep's own clock at which the morning digest of due follow-ups is e-mailed. */
  DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(7),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  SIGN_IN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  /** Failed sign-ins from one IP address, whatever the e-mail, per 15 minutes (stops password spraying). */
  SIGN_IN_IP_RATE_LIMIT: z.coerce.number().int().min(1).default(12),
  INVITATION_CHECK_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  PASSWORD_RESET_RATE_LIMIT: z.coerce.number().int().min(1).default(5),
  /** Google place photos one user may load per hour (each is a billed Place Photos request). */
  PHOTO_RATE_LIMIT: z.coerce.number().int().min(1).default(300),
  /** Redis shared by every instance for the rate limits above; empty keeps them in memory, per instance. */
  RATE_LIMIT_REDIS_URL: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL or empty')
      .optional(),
  ),
  /** Reads of one calendar feed per minute (each feed token), and reads of any feed from one IP per minute. */
  CALENDAR_FEED_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  CALENDAR_FEED_IP_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
  /** The calendar feed holds open follow-ups due from this many days back to this many ahead, nearest first. */
  CALENDAR_FEED_DAYS_BACK: z.coerce.number().int().min(0).max(3650).default(90),
  CALENDAR_FEED_DAYS_AHEAD: z.coerce.number().int().min(1).max(3650).default(365),
  CALENDAR_FEED_MAX_EVENTS: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** New follow-ups and call-log entries one rep may write per day (UTC); more answer 429. */
  FOLLOW_UPS_PER_DAY: z.coerce.number().int().min(1).default(500),
  CALL_LOGS_PER_DAY: z.coerce.number().int().min(1).default(1000),
  /** Live-update streams (GET /api/events) open at once, per session and per user, on one instance. */
  EVENT_STREAMS_PER_SESSION: z.coerce.number().int().min(1).max(1000).default(10),
  EVENT_STREAMS_PER_USER: z.coerce.number().int().min(1).max(10000).default(30),
  // Discovery
  RADIUS_MAX_MILES: z.coerce.number().min(1).default(5),
  PLACE_PROVIDERS: z.string().default('auto'),
  GOOGLE_MAPS_API_KEY: z.string().default(''),
  GOOGLE_PLACES_URL: z.url().default('https://places.googleapis.com'),
  GOOGLE_GEOCODING_URL: z.url().default('https://maps.googleapis.com'),
  GOOGLE_DETAILS_LIMIT: z.coerce.number().int().min(0).max(100).default(10),
  OSM_ENABLED: bool.default(false),
  OVERPASS_URL: z.url().default('https://overpass-api.de/api/interpreter'),
  NOMINATIM_URL: z.url().default('https://nominatim.openstreetmap.org'),
  /** Where `import:osm --region` downloads extracts from: the Geofabrik download server or a mirror of it. */
  OSM_MIRROR_URL: z.url().default('https://download.geofabrik.de'),
  OSM_USER_AGENT: z.string().default('prospect-finder/0.1 (self-hosted; contact: admin@localhost)'),
  /** `import:overture` leaves out places whose Overture confidence (0..1, how sure it is they exist) is under this. */
  OVERTURE_MIN_CONFIDENCE: z.coerce.number().min(0).max(1).default(0.5),
  /** Where `import:overture --bbox/--region` reads releases from: the folder holding `<release>/theme=places/...`. */
  OVERTURE_RELEASE_URL: z.url().default('https://overturemaps-us-west-2.s3.us-west-2.amazonaws.com/release'),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** The least time between two scans of one user: at least 500 ms; 0 turns it off (tests, load runs). */
  SCAN_COOLDOWN_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || ms >= 500, 'must be 0 (off) or at least 500 (the minimum scan debounce)')
    .default(2_000),
  // Route for the day: an OSRM server's table service for road distances; empty = straight lines
  ROUTING_URL: optionalUrl,
  ROUTING_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
  // Map tiles shown in the browser
  TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  TILE_ATTRIBUTION: z
    .string()
    .default('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),
  // AI (any OpenAI-compatible chat-completions endpoint); empty means the built-in playbooks
  AI_BASE_URL: optionalUrl,
  AI_API_KEY: z.string().default(''),
  AI_MODEL: z.string().default('gpt-4o-mini'),
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).default(600_000),
  AI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /**
   * All the AI work of one background job (every request, retry and backoff), counted from when the job was
   * started; past it the playbook answers. Under the browser's 180 s wait, so a rep always gets one.
   */
  AI_JOB_DEADLINE_MS: z.coerce.number().int().min(1000).max(170_000).default(120_000),
  /** With the team switch "useLlmAnalysis" on, the model rewrites the reasoning of at most this many top results. */
  AI_ANALYSIS_TOP_N: z.coerce.number().int().min(0).max(50).default(10),
  /** How long a background job's claim lasts without renewal: after a crash, the job is retried this much later. */
  JOB_LEASE_MS: z.coerce.number().int().min(500).default(60_000),
  /** Background jobs one instance works at the same time (one slow AI call must not hold up every rep). */
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** A job claimed this often without finishing (its worker died each time) fails instead of looping. */
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  /** Finished background jobs are deleted after this many days (kept strategies live in their own table). */
  JOB_RETENTION_DAYS: z.coerce.number().min(1).default(7),
  /** The team pipeline: a claim nobody touched for this many days is released automatically. */
  PIPELINE_RELEASE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Billing: an advertiser billed in this many months up to the current one is a current advertiser. */
  BILLING_CURRENT_MONTHS: z.coerce.number().int().min(1).max(24).default(3),
  /** Territories: the largest area, in square miles, an admin may draw or build from ZIP codes. */
  TERRITORY_MAX_SQUARE_MILES: z.coerce.number().positive().max(1_000_000).default(2000),
  // Website evidence: a polite check of each scanned business's website, as background jobs
  /** on: after a scan, each business with a website and no fresh evidence gets a check; off: none. */
  WEBSITE_CHECKS: z.enum(['on', 'off']).default('on'),
  /** TESTS ONLY: lets the checks fetch loopback addresses (local fixture servers). Never in production. */
  WEBSITE_CHECKS_ALLOW_LOOPBACK: bool.default(false),
  /** The identifying User-Agent of the checks (robots.txt rules are read for it). */
  WEBSITE_CHECK_USER_AGENT: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .default('ProspectFinderBot/0.1 (website evidence for local ad sales; self-hosted)'),
  /** Pause after each request to one host (at most one request at a time per host, per instance). */
  WEBSITE_CHECK_HOST_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** Website checks one instance works at the same time (separate from JOB_CONCURRENCY). */
  WEBSITE_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
});

/** The names of every environment variable the server reads (each one documented in .env.example). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export type Config = ReturnType<typeof parseConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parse the environment once. Lists every problem at once instead of stopping at the first. */
export function parseConfig(env: Record<string, string | undefined> = process.env) {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = result.data;
  const dataDir = resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    /** Origins (besides PUBLIC_URL's and the request's own) whose pages may send state-changing requests. */
    allowedOrigins: e.ALLOWED_ORIGINS,
    /**
     * Whether PUBLIC_URL or ALLOWED_ORIGINS was set: the app then answers only requests sent to their host
     * names, to an IP address or to localhost (http/cross-site.ts, the Host check).
     */
    checkHost: e.PUBLIC_URL !== undefined || e.ALLOWED_ORIGINS.length > 0,
    dataDir,
    /** Where `import:osm --region` downloads extracts from (OSM_MIRROR_URL). */
    osmMirrorUrl: e.OSM_MIRROR_URL,
    /** `import:overture`: the confidence threshold and the mirror of Overture's releases. */
    overture: { minConfidence: e.OVERTURE_MIN_CONFIDENCE, releaseUrl: e.OVERTURE_RELEASE_URL },
    database: e.DATABASE_URL
      ? ({
          kind: 'postgres',
          url: e.DATABASE_URL,
          connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
          statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
          waitMs: e.DATABASE_WAIT_MS,
        } as const)
      : ({ kind: 'sqlite', file: resolve(dataDir, 'app.db'), synchronous: e.SQLITE_SYNCHRONOUS } as const),
    authSecret: e.AUTH_SECRET || undefined,
    passwordMinLength: e.PASSWORD_MIN_LENGTH,
    passwordHashConcurrency: e.PASSWORD_HASH_CONCURRENCY ?? null,
    trustProxy: e.TRUST_PROXY,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, outboxDir: resolve(dataDir, 'outbox') },
    /** The morning digest's hour in each rep's zone (DIGEST_HOUR). */
    digestHour: e.DIGEST_HOUR,
    bodyLimit: e.BODY_LIMIT_BYTES,
    rateLimits: {
      signIn: e.SIGN_IN_RATE_LIMIT,
      /** Failed sign-ins per 15 minutes from one IP address across every e-mail (password spraying). */
      signInFailuresPerIp: e.SIGN_IN_IP_RATE_LIMIT,
      invitationCheck: e.INVITATION_CHECK_RATE_LIMIT,
      /** Password-reset e-mails per hour, for one address and from one IP address. */
      passwordReset: e.PASSWORD_RESET_RATE_LIMIT,
      /** Google place photos per hour for one user. */
      photos: e.PHOTO_RATE_LIMIT,
      redisUrl: e.RATE_LIMIT_REDIS_URL,
      /** Prefix of the rate-limit keys in Redis (tests set a unique one per run). */
      redisNamespace: 'pf-rate-limit-',
    },
    /** The calendar feed's rate limits (per minute) and bounds. */
    calendarFeed: {
      perToken: e.CALENDAR_FEED_RATE_LIMIT,
      perIp: e.CALENDAR_FEED_IP_RATE_LIMIT,
      daysBack: e.CALENDAR_FEED_DAYS_BACK,
      daysAhead: e.CALENDAR_FEED_DAYS_AHEAD,
      maxEvents: e.CALENDAR_FEED_MAX_EVENTS,
    },
    /** Writes one rep may make per day (UTC). */
    perDay: { followUps: e.FOLLOW_UPS_PER_DAY, callLogs: e.CALL_LOGS_PER_DAY },
    /** Open live-update streams allowed at once on one instance (more answer 429). */
    eventStreams: { perSession: e.EVENT_STREAMS_PER_SESSION, perUser: e.EVENT_STREAMS_PER_USER },
    discovery: {
      radiusMaxMiles: e.RADIUS_MAX_MILES,
      providers: e.PLACE_PROVIDERS,
      google: {
        apiKey: e.GOOGLE_MAPS_API_KEY,
        placesUrl: e.GOOGLE_PLACES_URL,
        geocodingUrl: e.GOOGLE_GEOCODING_URL,
        detailsLimit: e.GOOGLE_DETAILS_LIMIT,
      },
      osm: {
        enabled: e.OSM_ENABLED,
        overpassUrl: e.OVERPASS_URL,
        nominatimUrl: e.NOMINATIM_URL,
        userAgent: e.OSM_USER_AGENT,
      },
      providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
      scanCooldownMs: e.SCAN_COOLDOWN_MS,
    },
    map: { tileUrl: e.TILE_URL, tileAttribution: e.TILE_ATTRIBUTION },
    /** Road distances for routes: an OSRM server (its /table/v1 service); null means straight lines. */
    routing: { url: e.ROUTING_URL ?? null, timeoutMs: e.ROUTING_TIMEOUT_MS },
    ai: {
      baseURL: e.AI_BASE_URL,
      apiKey: e.AI_API_KEY,
      model: e.AI_MODEL,
      timeoutMs: e.AI_TIMEOUT_MS,
      maxRetries: e.AI_MAX_RETRIES,
      jobDeadlineMs: e.AI_JOB_DEADLINE_MS,
      analysisTopN: e.AI_ANALYSIS_TOP_N,
    },
    jobs: {
      leaseMs: e.JOB_LEASE_MS,
      concurrency: e.JOB_CONCURRENCY,
      maxAttempts: e.JOB_MAX_ATTEMPTS,
      retentionMs: e.JOB_RETENTION_DAYS * 86_400_000,
    },
    pipeline: { releaseDays: e.PIPELINE_RELEASE_DAYS },
    billing: { currentMonths: e.BILLING_CURRENT_MONTHS },
    territories: { maxSquareMiles: e.TERRITORY_MAX_SQUARE_MILES },
    websites: {
      enabled: e.WEBSITE_CHECKS === 'on',
      allowLoopback: e.WEBSITE_CHECKS_ALLOW_LOOPBACK,
      userAgent: e.WEBSITE_CHECK_USER_AGENT,
      hostPauseMs: e.WEBSITE_CHECK_HOST_PAUSE_MS,
      concurrency: e.WEBSITE_CHECK_CONCURRENCY,
    },
  };
}
