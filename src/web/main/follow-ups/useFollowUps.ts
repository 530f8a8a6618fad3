// The signed-in rep's open follow-ups (issue 18), shared by the Today tab's label and its panel.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';
import { countDue } from '../../../core/follow-ups';
import { browserToday } from './draft';

export const useFollowUps = () => useQuery({ queryKey: ['followUps'], queryFn: api.followUps });

/** The Today tab's count: overdue and due today, on this browser's clock. */
export function useDueCount(): number {
  return countDue(useFollowUps().data ?? [], browserToday());
}
