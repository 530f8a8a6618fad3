import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Prospect } from '../../../core/types';
import { useDialogs } from '../../dialogs';
import { hasRealCategory } from '../../format';
import { NEEDS_CONNECTION } from '../../offline/texts';
import { useOnline } from '../../offline/useOnline';
import { SET_CATEGORY_FIRST } from '../../texts';
import type { Busy } from './feedback';
import type { CardActions } from './types';

/** Strategy (it needs a real category), and Set category while the business has none. */
export function StrategyButtons({
  prospect: p,
  actions,
  strategyAvailable,
  busy: { busy, run },
}: {
  prospect: Prospect;
  actions: CardActions;
  strategyAvailable: boolean;
  busy: Busy;
}) {
  const { notify, prompt } = useDialogs();
  // A new strategy needs the server's AI: offline only a kept one (in the device's cache) opens.
  const online = useOnline();
  const queryClient = useQueryClient();
  const strategyOffline = !online && queryClient.getQueryData(['strategy', p.id, 0]) === undefined;

  const setCategory = async () => {
    const value = await prompt('Set category', 'Category');
    const category = value?.trim();
    if (!category || !actions.onSetCategory) return; // a blank category is ignored
    await run('category', () => actions.onSetCategory!(p, category));
  };

  return (
    <>
      {strategyAvailable && (
        <Button
          size="xs"
          variant="light"
          color="violet"
          onClick={() =>
            hasRealCategory(p.category) ? actions.onStrategy(p) : notify(SET_CATEGORY_FIRST, 'error')
          }
          disabled={strategyOffline}
          title={strategyOffline ? NEEDS_CONNECTION : undefined}
          aria-label={
            strategyOffline ? `Strategy for ${p.name}: ${NEEDS_CONNECTION}` : `Strategy for ${p.name}`
          }
        >
          Strategy
        </Button>
      )}
      {!hasRealCategory(p.category) && actions.onSetCategory && (
        <Button size="xs" variant="default" loading={busy === 'category'} onClick={() => void setCategory()}>
          Set category
        </Button>
      )}
    </>
  );
}
