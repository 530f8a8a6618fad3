// Registers the appointment-strategy modal (SPEC §2, issue 6) as the main screen's Strategy action.
import { strategyModal } from '../extensions';
import { StrategyModal } from './StrategyModal';

strategyModal.component = StrategyModal;
