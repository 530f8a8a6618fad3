// Extension points of the main screen for features kept in their own folders (its own tabs, main/tabs.tsx; the
// admin tabs and pages, admin/register.tsx; the strategy modal, strategy/register.ts). A feature registers itself here;
// MainScreen renders whatever is registered. A tab's hooks (useCount, and those of what render() returns) may
// read the screen's shared state with useMainScreen() (main/screen.ts).
import type { ComponentType, ReactNode } from 'react';
import type { Prospect } from '../core/types';
import type { Me } from './api';

export interface ScreenTab {
  /** Tabs value, unique. */
  value: string;
  label: string;
  /** Shown only to these users (main tabs: everyone by default; admin tabs: admins by default). */
  visible?: (me: Me) => boolean;
  /** A count shown next to the label, when the tab has one ("200+" when more than those loaded). */
  useCount?: () => number | string | undefined;
  render: () => ReactNode;
}

export type AdminTab = ScreenTab;

/** The main screen's tabs, first (Prospects, Today, Saved, Log; registered by main/tabs.tsx). */
export const mainTabs: ScreenTab[] = [];

/** Admin tabs, in the order they appear after Log (registered by admin/register.tsx). */
export const adminTabs: AdminTab[] = [];

/**
 * A full-width page with its own address, in place of the map and the lists (the Team dashboard, the Admin
 * Panel). Its routes are nested under `path`: inside it, wouter's `useRoute('/reps/:id')` means
 * `/team/reps/:id`. Shown to admins and SuperAdmins; anyone else at its address gets the main screen.
 */
export interface AdminPage {
  /** The address, e.g. '/team'. */
  path: string;
  label: string;
  render: () => ReactNode;
}

/** Admin pages, linked from the header in this order (registered by admin/register.tsx). */
export const adminPages: AdminPage[] = [];

/** The appointment-strategy modal, opened from a card's Strategy button. */
export interface StrategyModalProps {
  prospect: Prospect;
  onClose: () => void;
}
export const strategyModal: { component: ComponentType<StrategyModalProps> | null } = { component: null };
