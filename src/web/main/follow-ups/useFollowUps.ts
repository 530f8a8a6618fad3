// The signed-in rep's open follow-ups, shared by the Today tab's label and its panel.
import { api } from '../../api';
import { useOutbox } from '../../offline/outbox';
import { overlayFollowUps } from '../../offline/overlay';
import { countDue } from '../../../core/follow-ups';
import { browserToday } from './draft';
import { usePagedList } from '../paged';

/** The loaded pages, with the follow-ups of calls still waiting in the outbox, and their "Load more". */
export function useFollowUps() {
  const { query, ...paging } = usePagedList('followUps', api.followUpPage);
  const { items } = useOutbox();
  return { ...query, ...paging, data: overlayFollowUps(query.data, items) };
}

/**
 * The Today tab's count: overdue and due today, on this browser's clock. The list comes earliest first, a page at a
 * time: when every loaded one is due and the server holds more, more may be due ("200+").
 */
export function useDueCount(): number | string {
  const followUps = useFollowUps();
  const loaded = followUps.data ?? [];
  const due = countDue(loaded, browserToday());
  return followUps.hasMore && due === loaded.length ? `${due}+` : due;
}
