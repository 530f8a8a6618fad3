// The scan's progress line under the overlay's three texts, and the notice when a place source failed. The
// server sends the phases on the event stream (`scan` events) for the scan id the browser chose.
import type { SourceReport } from '../api';
import type { AppEvent, ScanPhase } from '../../core/api';

export type { ScanPhase };

const PHASES: readonly ScanPhase[] = ['fetching', 'found', 'analysing', 'done'];

/** A `scan` notice of the event stream. */
export type ScanNotice = Pick<AppEvent, 'action' | 'scanId' | 'count' | 'providers'> & { type: 'scan' };

/** What the overlay knows of the running scan. */
export interface ScanProgress {
  phase: ScanPhase;
  providers?: string[];
  /** How many businesses the providers found. */
  found?: number;
  /** How many are being analysed (after cleaning and de-duplication). */
  analysing?: number;
  /** How many were ranked. */
  ranked?: number;
}

const PROVIDER_LABELS: Record<string, string> = {
  local: 'the local business data',
  google: 'Google Places',
  osm: 'OpenStreetMap',
  demo: 'the demo data',
};

export const providerLabel = (name: string) => PROVIDER_LABELS[name] ?? name;

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function joinNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

const businesses = (n: number) => `${n} ${n === 1 ? 'business' : 'businesses'}`;

/**
 * The progress after a notice: notices of another scan, of an unknown phase or of an earlier phase than the
 * one shown (they may arrive late) change nothing.
 */
export function nextProgress(
  current: ScanProgress | null,
  notice: ScanNotice,
  scanId: string | null,
): ScanProgress | null {
  if (!scanId || notice.scanId !== scanId) return current;
  const phase = PHASES.find((p) => p === notice.action);
  if (!phase) return current;
  if (current && PHASES.indexOf(phase) < PHASES.indexOf(current.phase)) return current;
  const next: ScanProgress = { ...current, phase };
  const count = typeof notice.count === 'number' && notice.count >= 0 ? Math.round(notice.count) : undefined;
  if (phase === 'fetching' && Array.isArray(notice.providers)) next.providers = notice.providers;
  if (phase === 'found' && count !== undefined) next.found = count;
  if (phase === 'analysing' && count !== undefined) next.analysing = count;
  if (phase === 'done' && count !== undefined) next.ranked = count;
  return next;
}

/**
 * The line the overlay shows for the progress, e.g. 'Found 412 businesses — analysing 380...'; once known, the
 * found count stays in view until the results replace the overlay.
 */
export function progressLine(p: ScanProgress | null): string | null {
  if (!p) return null;
  switch (p.phase) {
    case 'fetching': {
      const names = (p.providers ?? []).map(providerLabel);
      return names.length > 0 ? `Fetching businesses from ${joinNames(names)}...` : 'Fetching businesses...';
    }
    case 'found':
      return p.found === undefined ? null : `Found ${businesses(p.found)}`;
    case 'analysing': {
      if (p.analysing === undefined) return null;
      return p.found === undefined
        ? `Analysing ${businesses(p.analysing)}...`
        : `Found ${businesses(p.found)} — analysing ${p.analysing}...`;
    }
    case 'done': {
      if (p.ranked === undefined) return null;
      const ranked = `${p.ranked} ${p.ranked === 1 ? 'prospect' : 'prospects'} ranked`;
      return p.found === undefined ? capitalised(ranked) : `Found ${businesses(p.found)} — ${ranked}`;
    }
  }
}

/**
 * The notice when some place sources failed (it says which source failed), or null when none
 * did: 'Google Places did not answer; showing results from the other sources.'
 */
export function failedSourcesNotice(sources: SourceReport[] | undefined, hasResults: boolean): string | null {
  const failed = (sources ?? []).filter((s) => !s.ok).map((s) => providerLabel(s.provider));
  if (failed.length === 0) return null;
  const who = capitalised(joinNames([...new Set(failed)]));
  return hasResults
    ? `${who} did not answer; showing results from the other sources.`
    : `${who} did not answer, so this scan found nothing. Please try again in a moment.`;
}

/** A random (version 4) UUID for a scan; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newScanId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
