// What the lists show while writes wait in the outbox. A queued call log, save or follow-up shows at
// once in the Log, Saved and Today tabs (its optimistic answer laid over the server's list, once: an id the
// list already holds is not added again); a queued removal hides the item. Refused writes show nothing.
import type { CallLog, CallLogAnswer, FollowUp, SavedItem } from '../../core/api';
import type { QueuedWrite } from './db';

const waiting = (items: QueuedWrite[]) => items.filter((w) => !w.refused);

export function overlayCallLogs(list: CallLog[] | undefined, items: QueuedWrite[]): CallLog[] | undefined {
  const queued = waiting(items)
    .filter((w) => w.kind === 'callLog')
    .map((w) => (w.optimistic as CallLogAnswer).callLog);
  if (queued.length === 0) return list;
  const have = new Set((list ?? []).map((e) => e.id));
  const extra = queued.filter((e) => !have.has(e.id)).reverse(); // newest first
  return [...extra, ...(list ?? [])];
}

export function overlaySaved(list: SavedItem[] | undefined, items: QueuedWrite[]): SavedItem[] | undefined {
  let out = list;
  for (const w of waiting(items)) {
    if (w.kind === 'save') {
      const item = (w.optimistic as { saved: SavedItem }).saved;
      if (!(out ?? []).some((s) => s.prospectId === item.prospectId)) out = [item, ...(out ?? [])];
    } else if (w.kind === 'unsave') {
      const { prospectId } = w.optimistic as { prospectId: string };
      out = out?.filter((s) => s.prospectId !== prospectId);
    }
  }
  return out;
}

export function overlayFollowUps(list: FollowUp[] | undefined, items: QueuedWrite[]): FollowUp[] | undefined {
  let out = list;
  for (const w of waiting(items)) {
    if (w.kind === 'callLog') {
      const made = (w.optimistic as CallLogAnswer).followUp;
      if (made && !(out ?? []).some((f) => f.id === made.id)) out = [...(out ?? []), made];
    } else if (w.kind === 'followUpDone' || w.kind === 'followUpReschedule') {
      const next = (w.optimistic as { followUp: FollowUp }).followUp;
      out = out?.flatMap((f) => (f.id !== next.id ? [f] : next.doneAt ? [] : [next]));
    }
  }
  return out;
}
