// The signed-in rep's open follow-ups, shared by the Today tab's label and its panel.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';
import { useOutbox } from '../../offline/outbox';
import { overlayFollowUps } from '../../offline/overlay';
import { countDue } from '../../../core/follow-ups';
import { browserToday } from './draft';

/** With the follow-ups of calls still waiting in the outbox. */
export function useFollowUps() {
  const query = useQuery({ queryKey: ['followUps'], queryFn: api.followUps });
  const { items } = useOutbox();
  return { ...query, data: overlayFollowUps(query.data, items) };
}

/** The Today tab's count: overdue and due today, on this browser's clock. */
export function useDueCount(): number {
  return countDue(useFollowUps().data ?? [], browserToday());
}
