// Registers the appointment-strategy modal as the main screen's Strategy action. Its code
// loads on the first Strategy click (React.lazy; the main screen wraps it in Suspense).
import { lazy } from 'react';
import { strategyModal } from '../extensions';

strategyModal.component = lazy(() => import('./StrategyModal').then((m) => ({ default: m.StrategyModal })));
