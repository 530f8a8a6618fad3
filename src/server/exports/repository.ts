import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

export interface LatestScanRow {
  user_id: string;
  user_name: string | null;
  /** JSON array of prospects, as the scan service wrote it. */
  prospects: string;
  created_at: string;
}

/** Every user's latest scan, newest first, with the user's name. */
export async function listLatestScans(db: Conn): Promise<LatestScanRow[]> {
  return db
    .selectFrom('latest_scans')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'latest_scans.user_id')
    .select([
      'latest_scans.user_id',
      'user_profiles.name as user_name',
      'latest_scans.prospects',
      'latest_scans.created_at',
    ])
    .orderBy('latest_scans.created_at', 'desc')
    .orderBy('latest_scans.user_id', 'asc')
    .execute();
}

export async function findLatestScan(db: Conn, userId: string): Promise<LatestScanRow | undefined> {
  return db
    .selectFrom('latest_scans')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'latest_scans.user_id')
    .select([
      'latest_scans.user_id',
      'user_profiles.name as user_name',
      'latest_scans.prospects',
      'latest_scans.created_at',
    ])
    .where('latest_scans.user_id', '=', userId)
    .executeTakeFirst();
}
