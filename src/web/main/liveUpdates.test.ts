import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Prospect } from '../../core/types';
import { api } from '../api';
import { refreshProspects, SCAN_MUTATION_KEY, scanSettled } from './liveUpdates';
import { PROSPECTS_KEY, setProspectList, type ProspectList } from './prospects';

vi.mock('../api', () => ({ api: { latestScan: vi.fn() } }));
const latestScan = vi.mocked(api.latestScan);

const prospect = (id: string, reasoning: string) => ({ id, name: id, reasoning }) as unknown as Prospect;
const list = (...prospects: Prospect[]): ProspectList => ({
  prospects,
  total: prospects.length,
  loadable: prospects.length,
});

describe('refreshing the results on a notice', () => {
  beforeEach(() => latestScan.mockReset());

  it('reloads the loaded results from the server', async () => {
    const client = new QueryClient();
    setProspectList(client, list(prospect('a', 'scored')));
    latestScan.mockResolvedValue({ prospects: [prospect('a', 'written')], total: 1, loadable: 1 } as never);
    await refreshProspects(client);
    expect(latestScan).toHaveBeenCalledWith(0, 1);
    expect(client.getQueryData<ProspectList>(PROSPECTS_KEY)?.prospects[0]).toMatchObject({
      reasoning: 'written',
    });
  });

  it('waits for a scan under way, whose answer may predate the notice, then reloads', async () => {
    const client = new QueryClient();
    let answer!: () => void;
    const scan = new MutationObserver(client, {
      mutationKey: SCAN_MUTATION_KEY,
      mutationFn: () => new Promise<void>((r) => (answer = r)),
    });
    const running = scan.mutate();
    await refreshProspects(client);
    expect(latestScan).not.toHaveBeenCalled();

    // The scan's own answer lands on screen, then the deferred refresh runs.
    answer();
    await running;
    setProspectList(client, list(prospect('b', 'scored')));
    latestScan.mockResolvedValue({ prospects: [prospect('b', 'written')], total: 1, loadable: 1 } as never);
    scanSettled(client);
    await vi.waitFor(() =>
      expect(client.getQueryData<ProspectList>(PROSPECTS_KEY)?.prospects[0]).toMatchObject({
        reasoning: 'written',
      }),
    );
    // Once only: a later scan without a notice does not reload.
    latestScan.mockClear();
    scanSettled(client);
    expect(latestScan).not.toHaveBeenCalled();
  });

  it('leaves an empty screen alone', async () => {
    const client = new QueryClient();
    await refreshProspects(client);
    expect(latestScan).not.toHaveBeenCalled();
  });
});
