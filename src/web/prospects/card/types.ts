import type { PipelineEntry } from '../../../core/api';
import type { Prospect } from '../../../core/types';
import type { FollowUpInput } from '../../api';

/** Which list the card is on: a scan's prospects, or the Saved tab. */
export type CardVariant = 'prospects' | 'saved';

export interface CardActions {
  /** Log an outcome, with a follow-up when one was set; resolves when stored (the draft is cleared then). */
  onLog: (prospect: Prospect, outcome: string, note: string, followUp?: FollowUpInput) => Promise<void>;
  onStrategy: (prospect: Prospect) => void;
  onSetCategory?: (prospect: Prospect, category: string) => Promise<void>;
  onMark: (prospect: Prospect) => Promise<void>;
  onUnmark?: (prospect: Prospect) => Promise<void>;
  onBlock?: (prospect: Prospect) => Promise<void>;
  onRemove?: (prospect: Prospect) => Promise<void>;
  /** The team pipeline: claim or move the business; admins reassign or release it. */
  onStage?: (prospect: Prospect, stage: PipelineEntry['stage']) => Promise<void>;
  onReassign?: (prospect: Prospect, userId: string) => Promise<void>;
  onRelease?: (prospect: Prospect) => Promise<void>;
}
