// What the main screen's feature modules share: the user, the location settings and the features' hooks.
// MainScreen provides it; the tabs registered in extensions.ts (and their counts) read it with useMainScreen().
import { createContext, useContext } from 'react';
import type { Me } from '../api';
import type { LocationFeature } from './location/useLocation';
import type { QuickSearchFeature } from './quick-search/useQuickSearch';
import type { ScanFeature } from './scan/useScan';
import type { CardFeature } from './working/useCardActions';

export interface MainScreenState {
  me: Me;
  admin: boolean;
  location: LocationFeature;
  scan: ScanFeature;
  quickSearch: QuickSearchFeature;
  cards: CardFeature;
}

export const MainScreenContext = createContext<MainScreenState | null>(null);

export function useMainScreen(): MainScreenState {
  const state = useContext(MainScreenContext);
  if (!state) throw new Error('useMainScreen() outside the main screen');
  return state;
}
