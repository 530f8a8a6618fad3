import type { Generated } from 'kysely';

// Row types of the application's own tables. Timestamps are ISO-8601 strings (UTC, sortable),
// booleans are 0/1 integers and structured values are JSON text, so SQLite and PostgreSQL
// return the very same shapes. better-auth's tables ("user", "session", "account",
// "verification") are described only as far as this code reads them.

export type Role = 'user' | 'admin' | 'SuperAdmin';

export interface AuthUserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export interface AuthSessionTable {
  id: string;
  userId: string;
  token: string;
  expiresAt: Date | string;
}

export interface AuthAccountTable {
  id: string;
  userId: string;
  accountId: string;
  providerId: string;
  password: string | null;
  /** Set by better-auth on every update: for the credential account, when the password last changed. */
  updatedAt: Date | string;
}

/** better-auth's one-time values; a password-reset link is `reset-password:<token>` with the user id as value. */
export interface AuthVerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Date | string;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export interface UserProfileTable {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  is_super_admin: number;
  hide_instructions: number;
  install_prompt_dismissed: number;
  /** JSON: { lat, lng, label, radiusMiles, count, categories } */
  search_settings: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A suspended account; kept apart from the profile, which admins may delete (a suspension outlives it). */
export interface AccountSuspensionTable {
  user_id: string;
  suspended_at: string;
}

export interface InvitationTable {
  id: string;
  code: string;
  invited_by: string | null;
  invited_by_name: string;
  invited_email: string | null;
  created_at: string;
  expires_at: string;
  used: number;
  used_by: string | null;
  used_by_email: string | null;
  used_at: string | null;
  /** When an admin revoked it (null: not revoked), and that admin's name. */
  revoked_at?: string | null;
  revoked_by_name?: string | null;
}

export interface SearchTable {
  id: string;
  user_id: string;
  created_at: string;
  kind: string;
  lat: number;
  lng: number;
  radius_miles: number;
  count: number;
  /** JSON array of category group keys */
  categories: string;
  location_label: string | null;
  query: string | null;
  total: number;
}

export interface LatestScanTable {
  user_id: string;
  search_id: string | null;
  /** JSON: the ranked prospects of the user's latest scan, those of the place table compact (scans/stored-results.ts) */
  prospects: string;
  total: number;
  created_at: string;
  /** Bumped by every write of `prospects`: background writers compare-and-set on it. */
  version: Generated<number>;
}

/** When each rep last claimed a scan (the cooldown), apart from their stored results so a claim is small. */
export interface ScanSlotTable {
  user_id: string;
  claimed_at: string;
}

/** A rep's latest results whose first `count` prospects are still owed to the team list (scans/team-list.ts). */
export interface TeamPendingTable {
  user_id: string;
  search_id: string;
  count: number;
  scanned_at: string;
}

/**
 * Every prospect scanned by anyone on the team, one row per business, the newest scan's copy winning
 * (All Prospects). Blocked businesses are left out when read, by business_id, analysis_hash or business_hash.
 */
export interface TeamProspectTable {
  /** The prospect's stable id */
  business_id: string;
  /** JSON: the prospect as stored in latest_scans */
  prospect: string;
  name: string;
  score: number;
  /** The analysis's business hash, '' when none */
  analysis_hash: string;
  /** The computed cache key of name, address and category (or place id) */
  business_hash: string;
  /** The rep whose scan stored this copy; null once that account is hard-deleted */
  scanned_by: string | null;
  scanned_at: string;
}

export interface CallLogTable {
  id: string;
  user_id: string;
  prospect_id: string;
  name: string;
  category: string;
  phone: string;
  website: string;
  address: string;
  outcome: string;
  note: string;
  created_at: string;
  /** The prospect's score (0-1), latitude and longitude in the team's copy when logged; null when unknown. */
  score?: number | null;
  lat?: number | null;
  lng?: number | null;
  /** The phone's position and accuracy (metres) when a visit was logged; null when it gave none. */
  visit_lat?: number | null;
  visit_lng?: number | null;
  visit_accuracy_m?: number | null;
  /** 1 when the visit was logged within 0.1 mile of the business with a usable accuracy. */
  verified?: number;
}

/**
 * Each business's first call-log entry and its earliest meeting and win, kept by triggers (migration
 * 2026-11-26T0700-first-contacts): the cohorts of the team's win rate by score band.
 */
export interface FirstContactTable {
  prospect_id: string;
  log_id: string;
  first_at: string;
  user_id: string;
  score: number | null;
  category: string;
  /** The earliest change to Meeting set, Proposal or Won; null when none. */
  meeting_at: string | null;
  /** The earliest change to Won; null when none. */
  won_at: string | null;
}

/** Counts of call logs per UTC hour and outcome, kept by triggers (migration 2026-11-25T0550-call-log-rollups). */
export interface CallLogHourTable {
  hour: string;
  outcome: string;
  n: number;
}

/** Counts of call logs per UTC day, outcome, category, score band (-1 unscored) and placed (0/1), kept by triggers. */
export interface CallLogDayTable {
  day: string;
  outcome: string;
  category: string;
  band: number;
  placed: number;
  n: number;
}

/** Placed call logs per UTC day or month (bucket) and 0.01-degree cell, kept by triggers. */
export interface CallLogCellTable {
  bucket: string;
  lat_cell: number;
  lng_cell: number;
  n: number;
  calls: number;
  visits: number;
}

/** Who asked for an appointment strategy, and when (the team dashboard counts them). */
export interface StrategyRequestTable {
  id: string;
  user_id: string;
  business_id: string;
  name: string;
  category: string;
  created_at: string;
}

export interface SavedProspectTable {
  id: string;
  user_id: string;
  prospect_id: string;
  /** JSON of the full prospect */
  prospect: string;
  /** The note the rep typed when saving, if any */
  note: string | null;
  created_at: string;
}

export interface BlocklistTable {
  business_id: string;
  label: string;
  blocked_by: string | null;
  created_at: string;
}

export interface CurrentAdvertiserTable {
  business_id: string;
  label: string;
  marked_by: string | null;
  marked_by_name: string;
  marked_at: string;
}

/** A business's billing of one month, from the billing import (the advertiser's lines of the month summed). */
export interface BillingTable {
  business_id: string;
  /** 'YYYY-MM'. */
  month: string;
  amount_cents: number;
  /** The business's name when imported. */
  label: string;
  /** The advertiser's name as the billing file wrote it. */
  advertiser: string;
  imported_at: string;
  imported_by: string | null;
}

export interface BusinessCacheTable {
  business_id: string;
  /** JSON: name, address, normalizedCategory, website, phone, rating, reviewCount, businessStatus, types */
  data: string;
  content_hash: string;
  model_version: string;
  updated_at: string;
}

export interface AnalysisCacheTable {
  business_id: string;
  /**
   * JSON of the analysis result: score, reasoning, confidence, recommendations, analyzedAt, businessHash,
   * modelVersion, and reasoningModel once the reasoning job wrote its words (no breakdown: scans re-score)
   */
  data: string;
  model_version: string;
  updated_at: string;
  /**
   * JSON of what the analysis was made from, as far as the change thresholds read it (10+ reviews, 0.1+
   * rating, website, phone): `reviewCount`, `rating`, `website`, `phone` (null for a row of an older version
   * until it is rewritten).
   */
  basis: string | null;
}

export interface AppSettingTable {
  key: string;
  /** JSON value */
  value: string;
  updated_at: string;
  updated_by: string | null;
}

export type JobStatus = 'pending' | 'running' | 'complete' | 'error';

export interface JobTable {
  id: string;
  kind: string;
  key: string;
  user_id: string | null;
  /** JSON input of the job */
  payload: string;
  status: JobStatus;
  /** JSON output once complete */
  result: string | null;
  error: string | null;
  attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
  /** JSON progress a running job reports (a region refresh: bytes downloaded, then importing), or null */
  progress: string | null;
  /** A deferred job (JobDeferred) is not claimed before this ISO time; null: at once. */
  run_after: string | null;
  /** How many times the job was handed back to the queue (capped). */
  deferrals: Generated<number>;
}

export interface StrategyTable {
  business_id: string;
  /** '' when written from the server's facts (shared by every rep), else the user whose card supplied them */
  owner_id: string;
  /** JSON of the appointment strategy */
  strategy: string;
  source: string;
  model: string | null;
  created_at: string;
}

export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  actor_name: string;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  /** JSON object of action details */
  details: string;
  created_at: string;
}

/** A business imported from an OpenStreetMap extract (src/server/places/local-*.ts). */
export interface PlaceTable {
  id: string;
  name: string;
  lat: number;
  lng: number;
  cell_lat: number;
  /** Place types as bits (places/type-mask.ts); bigint in PostgreSQL (read as text), integer in SQLite. */
  type_mask: number | string;
  /** JSON array of place types */
  types: string;
  category: string;
  address: string;
  city: string | null;
  state: string | null;
  zip: string | null;
  phone: string | null;
  website: string | null;
  opening_hours: string | null;
  brand: string | null;
  brand_wikidata: string | null;
  /** JSON object of OSM tags */
  tags: string;
  imported_at: string;
  /** Places of the same business in the imported market (places/market.ts); 1 when single. */
  locations: Generated<number>;
  /**
   * What scoring and de-duplication derive from the place's own fields (core/scoring/profile.ts, encoded), made
   * at import and remade by places/market.ts when stale; null in rows imported before profiles existed.
   */
  profile: string | null;
  /**
   * What the place carries wherever it is scanned from (server/places/ranks.ts): its intrinsic score when the model
   * scores it (rank_rule null), else the code of the rule that decides it (rank_score null).
   */
  rank_score: number | null;
  rank_rule: number | null;
  /** 1 when the same business has places in several cities of the imported data (places/market.ts). */
  many_cities: Generated<number>;
  /** The business's name as places of one business share it (core/market.ts locationKey); null for a generic one. */
  name_key: string | null;
  /** The business's website's domain (core/market.ts siteKey); null without one or on a platform. */
  site_domain: string | null;
  /**
   * JSON object: the source each field of a place merged from several sources came from ({"phone": "Overture
   * (Meta)", "name": "OpenStreetMap"}, places/conflate.ts); null for a place of one source.
   */
  field_sources: string | null;
}

/** A source's record of a place merged from several sources (places/conflate.ts). */
export interface PlaceSourceTable {
  /** The id its source knows it by ('osm:node/1', 'overture:08f...'). */
  source_id: string;
  /** The place it is merged into. */
  place_id: string;
  kind: 'osm' | 'overture';
  /** JSON: the source's fields (local-store.ts PlaceSource). */
  record: string;
}

/** An addressed object of the imported map data (geocoding/addresses.ts), keyed as core/addresses.ts makes keys. */
export interface AddressTable {
  /** The id its source knows it by ('osm:node/1', 'osm:way/2', 'overture:08f...'). */
  id: string;
  /** As written ("12A"), its key ("12a") and the number it starts with (12; null without digits). */
  number: string;
  number_key: string;
  number_value: number | null;
  street: string;
  street_key: string;
  city: string | null;
  city_key: string | null;
  state: string | null;
  postcode: string | null;
  lat: number;
  lng: number;
}

/** What the last rebuild of the imported market (places/market.ts) made every place's profile and rank under. */
export interface MarketStateTable {
  /** 'local': one row. */
  id: string;
  profile_version: string;
  built_at: string;
}

/** A business known by several places of the imported market (places/market.ts), by its name or website's domain. */
export interface MarketKeyTable {
  kind: 'name' | 'domain';
  key: string;
  /** Its distinct places (within about 100 m: one); 1 for a domain. */
  locations: number;
  /** 1 when its places span several cities. */
  many_cities: number;
}

/** The places the running rebuild of the market remakes (places/market.ts); empty between rebuilds. */
export interface MarketWorkTable {
  id: string;
}

/** An area with imported business data (places/areas.ts): a named region of the mirror, or a file. */
export interface PlaceAreaTable {
  /** The region's path on the mirror (north-america/us/alabama-latest.osm.pbf), 'file:NAME', or 'earlier-imports' */
  key: string;
  /** What the panel shows: the region as asked for (us/alabama) or the file's name */
  name: string;
  /** The region name to download it again with, or null (a file: not refreshable from the panel) */
  region: string | null;
  /** The URL or file it was imported from */
  source: string;
  /** The box it covers: the extract header's bounding box, else the box of its businesses; null when empty */
  min_lat: number | null;
  min_lng: number | null;
  max_lat: number | null;
  max_lng: number | null;
  /** Businesses its latest import wrote */
  businesses: number;
  /** ISO time the data was taken (the extract header's replication timestamp), or null when it does not say */
  data_date: string | null;
  /** ISO time of its latest import */
  imported_at: string;
}

export interface PlaceStagingTable extends PlaceTable {
  import_id: string;
}

/** The team pipeline: one row per business someone set a stage on. */
export interface PipelineTable {
  business_id: string;
  label: string;
  /** null: released (stage 'New'). */
  owner_id: string | null;
  owner_name: string | null;
  stage: string;
  /** When the stage or owner last changed. */
  since: string;
  /** Last activity on the claim (stage change, the owner's call log). */
  updated_at: string;
}

export interface PipelineHistoryTable {
  id: string;
  business_id: string;
  from_stage: string | null;
  to_stage: string;
  from_owner_id: string | null;
  from_owner_name: string | null;
  to_owner_id: string | null;
  to_owner_name: string | null;
  by_id: string | null;
  by_name: string;
  at: string;
  reason: string;
}

/** Which website check holds a host, and when the host may be asked again (websites/hosts.ts). */
export interface WebsiteHostTable {
  /** host[:port], lower case */
  host: string;
  /** The holding check's token, or null when free */
  holder: string | null;
  /** ISO time the holder's lease ends (renewed while it fetches) */
  lease_until: string | null;
  /** ISO time of the end of the pause after the last request */
  next_allowed_at: string;
}

/** The latest check of a business's website, under the business's cache key. */
export interface WebsiteEvidenceTable {
  business_key: string;
  /** The website as checked (normalised URL). */
  website: string;
  /** 'checked' | 'unreachable' | 'failed' */
  status: string;
  /** The detection rule set's version (src/core/websites/rules.ts RULES_VERSION). */
  rules: string;
  checked_at: string;
  /** JSON: the WebsiteEvidence (src/core/websites/signals.ts). */
  evidence: string;
  /** JSON: the Business as last scanned. */
  business: string;
}

/** A follow-up a rep set when logging a call or visit; due on the rep's local date. */
export interface FollowUpTable {
  id: string;
  user_id: string;
  prospect_id: string;
  name: string;
  category: string;
  address: string;
  phone: string;
  website: string;
  score: number | null;
  lat: number | null;
  lng: number | null;
  /** 'YYYY-MM-DD' in time_zone */
  due_date: string;
  /** 'HH:MM', null for any time that day */
  due_time: string | null;
  /** IANA zone the browser reported when it was set */
  time_zone: string;
  next_step: string;
  is_meeting: number;
  done_at: string | null;
  created_at: string;
  updated_at: string;
  call_log_id: string | null;
}

/** A rep's calendar feed, digest switch and zone. */
export interface FollowUpSettingsTable {
  user_id: string;
  /** SHA-256 (hex) of the feed's secret token; null when no feed link was made */
  feed_token_hash: string | null;
  feed_created_at: string | null;
  digest_enabled: number;
  time_zone: string | null;
  /** The rep's local date the last digest was sent for */
  digest_sent_for: string | null;
  updated_at: string;
}

/**
 * A write's Idempotency-Key and the answer it got, stored in the write's own transaction; the same
 * key again (a phone replaying its queue) gets this answer instead of a second write. Primary key (user, key).
 */
export interface IdempotencyKeyTable {
  user_id: string;
  /** The client-generated UUID, lower case. */
  key: string;
  /** Method and route pattern, e.g. "POST /api/call-logs". */
  route: string;
  /** SHA-256 of the request's parameters and body: the same key with other content is refused (422). */
  request_hash: string;
  status_code: number;
  /** The answer's JSON. */
  answer: string;
  created_at: string;
}

/** Writes of one kind ('follow-up', 'call-log') one rep made on one day (UTC), for the per-day caps. */
export interface DailyWritesTable {
  user_id: string;
  kind: string;
  /** YYYY-MM-DD, UTC */
  day: string;
  n: number;
}

/** An area of the map reps are assigned to: drawn, or built from ZIP codes. */
export interface TerritoryTable {
  id: string;
  name: string;
  /** The name lower-cased: names are unique whatever their case. */
  name_key: string;
  /** GeoJSON Polygon or MultiPolygon. */
  area: string;
  /** JSON array of the ZIP codes it was built from; [] when drawn. */
  zips: string;
  min_lat: number;
  max_lat: number;
  min_lng: number;
  max_lng: number;
  square_miles: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A rep assigned to a territory. Primary key (territory_id, user_id). */
export interface TerritoryRepTable {
  territory_id: string;
  user_id: string;
}

export interface Database {
  user: AuthUserTable;
  session: AuthSessionTable;
  account: AuthAccountTable;
  verification: AuthVerificationTable;
  user_profiles: UserProfileTable;
  account_suspensions: AccountSuspensionTable;
  invitations: InvitationTable;
  searches: SearchTable;
  latest_scans: LatestScanTable;
  scan_slots: ScanSlotTable;
  team_pending: TeamPendingTable;
  team_prospects: TeamProspectTable;
  call_logs: CallLogTable;
  call_log_hours: CallLogHourTable;
  call_log_days: CallLogDayTable;
  call_log_cells: CallLogCellTable;
  first_contacts: FirstContactTable;
  saved_prospects: SavedProspectTable;
  blocklist: BlocklistTable;
  current_advertisers: CurrentAdvertiserTable;
  billing: BillingTable;
  business_cache: BusinessCacheTable;
  analysis_cache: AnalysisCacheTable;
  app_settings: AppSettingTable;
  audit_log: AuditLogTable;
  jobs: JobTable;
  strategies: StrategyTable;
  strategy_requests: StrategyRequestTable;
  places: PlaceTable;
  market_state: MarketStateTable;
  market_keys: MarketKeyTable;
  market_work: MarketWorkTable;
  places_staging: PlaceStagingTable;
  place_sources: PlaceSourceTable;
  addresses: AddressTable;
  place_areas: PlaceAreaTable;
  website_evidence: WebsiteEvidenceTable;
  pipeline: PipelineTable;
  pipeline_history: PipelineHistoryTable;
  website_hosts: WebsiteHostTable;
  follow_ups: FollowUpTable;
  follow_up_settings: FollowUpSettingsTable;
  idempotency_keys: IdempotencyKeyTable;
  daily_writes: DailyWritesTable;
  territories: TerritoryTable;
  territory_reps: TerritoryRepTable;
}

// Generated is re-exported for slices that add tables with database-generated columns.
export type { Generated };
