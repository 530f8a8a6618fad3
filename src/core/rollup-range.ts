// Range arithmetic for the Team tab's rollups, which keep its counts fast at any size. The database keeps
// counts of call logs per UTC month, day or hour (migration 2026-11-25T0550-call-log-rollups); a period asked
// for in a local time zone rarely starts or ends on those boundaries (America/Chicago's days start at 05:00
// or 06:00 UTC, Asia/Kolkata's at 18:30). splitRange writes any range [start, end) as a signed sum of whole
// UTC buckets and raw ranges (counted from the rows themselves): each end is moved to the NEAREST boundary of
// the coarsest unit that still leaves a whole bucket between them, and the difference is split again with the
// finer units, added when the move cut something off and subtracted when it took in too much. So a local
// month in Chicago is one UTC month, minus six hours before it and plus six hours after it; every raw range
// is shorter than the finest unit. Counts are additive, so the sum is exact in every time zone.

export type RollupUnit = 'month' | 'day' | 'hour';

/** Whole UTC buckets of one unit: their keys as the rollup tables store them ('2026-11', '2026-11-25', '2026-11-25T05'). */
export interface BucketPiece {
  unit: RollupUnit;
  key: string;
  sign: 1 | -1;
}

/** Rows with start <= created_at < end (ISO text), counted from the table itself. */
export interface RawPiece {
  start: string;
  end: string;
  sign: 1 | -1;
}

export interface SplitRange {
  buckets: BucketPiece[];
  raw: RawPiece[];
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The start of the unit containing t (epoch ms, UTC). */
export function floorTo(t: number, unit: RollupUnit): number {
  if (unit === 'hour') return Math.floor(t / HOUR) * HOUR;
  if (unit === 'day') return Math.floor(t / DAY) * DAY;
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The start of the unit after the one beginning at `t` (t on a boundary). */
export function nextBoundary(t: number, unit: RollupUnit): number {
  if (unit === 'hour') return t + HOUR;
  if (unit === 'day') return t + DAY;
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** The boundary nearest to t (the earlier one on a tie). */
function nearest(t: number, unit: RollupUnit): number {
  const below = floorTo(t, unit);
  if (below === t) return t;
  const above = nextBoundary(below, unit);
  return t - below <= above - t ? below : above;
}

/** The rollup key of the bucket starting at t. */
export function bucketKey(t: number, unit: RollupUnit): string {
  const iso = new Date(t).toISOString();
  return unit === 'month' ? iso.slice(0, 7) : unit === 'day' ? iso.slice(0, 10) : iso.slice(0, 13);
}

function split(start: number, end: number, units: readonly RollupUnit[], sign: 1 | -1, out: SplitRange) {
  if (start >= end) return;
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    const s = nearest(start, unit);
    const e = nearest(end, unit);
    if (s >= e) continue;
    for (let t = s; t < e; t = nextBoundary(t, unit))
      out.buckets.push({ unit, key: bucketKey(t, unit), sign });
    const finer = units.slice(i + 1);
    const neg = sign === 1 ? -1 : 1;
    if (start < s) split(start, s, finer, sign, out);
    else if (s < start) split(s, start, finer, neg, out);
    if (e < end) split(e, end, finer, sign, out);
    else if (end < e) split(end, e, finer, neg, out);
    return;
  }
  out.raw.push({ start: new Date(start).toISOString(), end: new Date(end).toISOString(), sign });
}

/**
 * [start, end) (epoch ms) as a signed sum of whole buckets of `units` (coarsest first) and raw ranges:
 * count(range) = sum(sign * count(piece)).
 */
export function splitRange(start: number, end: number, units: readonly RollupUnit[]): SplitRange {
  const out: SplitRange = { buckets: [], raw: [] };
  split(start, end, units, 1, out);
  return out;
}

/** The keys of one unit and sign, for an IN list. */
export function keysOf(range: SplitRange, unit: RollupUnit, sign: 1 | -1): string[] {
  return range.buckets.filter((b) => b.unit === unit && b.sign === sign).map((b) => b.key);
}
