import { Button, Group } from '@mantine/core';
import type { Prospect } from '../../../core/types';
import type { Advertiser } from '../../api';
import type { Busy } from './feedback';
import type { CardActions } from './types';
import { removeAdvertiserFailed } from '../../texts';

/**
 * The card's last row: mark as current advertiser (admins also unmark), block (admins), remove (Saved tab).
 * Each button is there only when its action was given.
 */
export function ManageButtons({
  prospect: p,
  advertiser,
  isAdmin,
  actions,
  busy: { busy, run },
}: {
  prospect: Prospect;
  advertiser: Advertiser | undefined;
  isAdmin: boolean;
  actions: CardActions;
  busy: Busy;
}) {
  return (
    <Group gap={6} wrap="wrap">
      {!advertiser && (
        <Button
          size="xs"
          variant="subtle"
          color="grape"
          loading={busy === 'mark'}
          onClick={() => void run('mark', () => actions.onMark(p))}
        >
          Mark as current advertiser
        </Button>
      )}
      {advertiser && isAdmin && actions.onUnmark && (
        <Button
          size="xs"
          variant="subtle"
          color="grape"
          loading={busy === 'unmark'}
          onClick={() =>
            void run('unmark', async () => {
              try {
                await actions.onUnmark!(p);
              } catch (error) {
                throw new Error(
                  removeAdvertiserFailed(error instanceof Error ? error.message : String(error)),
                );
              }
            })
          }
        >
          Unmark current advertiser
        </Button>
      )}
      {isAdmin && actions.onBlock && (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          loading={busy === 'block'}
          onClick={() => void run('block', () => actions.onBlock!(p))}
        >
          Block
        </Button>
      )}
      {actions.onRemove && (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          loading={busy === 'remove'}
          onClick={() => void run('remove', () => actions.onRemove!(p))}
        >
          Remove
        </Button>
      )}
    </Group>
  );
}
