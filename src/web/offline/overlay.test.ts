import { describe, expect, it } from 'vitest';
import type { CallLog, FollowUp, SavedItem } from '../../core/api';
import type { QueuedWrite } from './db';
import { overlayCallLogs, overlayFollowUps, overlaySaved } from './overlay';

const log = (id: string): CallLog => ({
  id,
  prospectId: `p-${id}`,
  name: `Business ${id}`,
  category: '',
  phone: '',
  website: '',
  address: '',
  outcome: 'Called',
  note: '',
  createdAt: '2026-11-25T08:00:00.000Z',
  verified: false,
});
const followUp = (id: string, over: Partial<FollowUp> = {}): FollowUp => ({
  id,
  prospectId: 'p',
  name: 'Business',
  category: '',
  address: '',
  phone: '',
  website: '',
  score: null,
  lat: null,
  lng: null,
  dueDate: '2026-11-26',
  dueTime: null,
  timeZone: 'UTC',
  nextStep: '',
  isMeeting: false,
  doneAt: null,
  createdAt: '2026-11-25T08:00:00.000Z',
  callLogId: null,
  ...over,
});
const saved = (prospectId: string) => ({ prospectId, savedAt: '2026-11-25T08:00:00.000Z' }) as SavedItem;
const write = (kind: QueuedWrite['kind'], optimistic: unknown, refused = false): QueuedWrite => ({
  id: 'k',
  userId: 'u',
  method: 'POST',
  path: '/x',
  kind,
  label: kind,
  queuedAt: '2026-11-25T08:00:00.000Z',
  optimistic,
  ...(refused ? { refused: { status: 400, reason: 'no', at: '2026-11-25T08:00:00.000Z' } } : {}),
});

describe('offline overlay', () => {
  it('puts waiting calls first, newest first, once, and never a refused one', () => {
    const items = [
      write('callLog', { callLog: log('q1') }),
      write('callLog', { callLog: log('q2') }),
      write('callLog', { callLog: log('q3') }, true),
    ];
    expect(overlayCallLogs([log('a'), log('q1')], items)?.map((e) => e.id)).toEqual(['q2', 'a', 'q1']);
    expect(overlayCallLogs(undefined, [])).toBeUndefined();
  });

  it('adds waiting saves and hides waiting removals', () => {
    const items = [write('save', { saved: saved('new') }), write('unsave', { prospectId: 'old' })];
    expect(overlaySaved([saved('old'), saved('kept')], items)?.map((s) => s.prospectId)).toEqual([
      'new',
      'kept',
    ]);
  });

  it("shows a waiting call's follow-up and applies waiting done / reschedule", () => {
    const items = [
      write('callLog', { callLog: log('c'), followUp: followUp('queued') }),
      write('followUpDone', { followUp: followUp('done', { doneAt: '2026-11-25T09:00:00.000Z' }) }),
      write('followUpReschedule', { followUp: followUp('moved', { dueDate: '2026-12-01' }) }),
    ];
    const out = overlayFollowUps([followUp('done'), followUp('moved'), followUp('other')], items);
    expect(out?.map((f) => [f.id, f.dueDate])).toEqual([
      ['moved', '2026-12-01'],
      ['other', '2026-11-26'],
      ['queued', '2026-11-26'],
    ]);
  });
});
