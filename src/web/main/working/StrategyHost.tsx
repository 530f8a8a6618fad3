import { Suspense } from 'react';
import type { Prospect } from '../../../core/types';
import { strategyModal } from '../../extensions';

/** The strategy modal registered in extensions.ts, for the card whose Strategy button was pressed. */
export function StrategyHost({ prospect, onClose }: { prospect: Prospect | null; onClose: () => void }) {
  const StrategyModal = strategyModal.component;
  if (!StrategyModal || !prospect) return null;
  // The modal may be a React.lazy component: its code then loads on the first Strategy click.
  return (
    <Suspense fallback={null}>
      <StrategyModal prospect={prospect} onClose={onClose} />
    </Suspense>
  );
}
