// Extension points of the main screen for features built in other slices (admin tabs, issue 5; strategy
// modal, issue 6). A feature registers itself here; MainScreen renders whatever is registered.
import type { ComponentType, ReactNode } from 'react';
import type { Prospect } from '../core/types';
import type { Me } from './api';

export interface AdminTab {
  /** Tabs value, unique. */
  value: string;
  label: string;
  /** Shown only to these users (admins by default). */
  visible?: (me: Me) => boolean;
  /** A count shown next to the label, when the tab has one. */
  useCount?: () => number | undefined;
  render: () => ReactNode;
}

/** Admin tabs, in the order they appear after Log (SPEC §2: All Prospects, Blocked, Current Advertisers, Admin Panel). */
export const adminTabs: AdminTab[] = [];

/** The appointment-strategy modal (SPEC §2), opened from a card's Strategy button. */
export interface StrategyModalProps {
  prospect: Prospect;
  onClose: () => void;
}
export const strategyModal: { component: ComponentType<StrategyModalProps> | null } = { component: null };
