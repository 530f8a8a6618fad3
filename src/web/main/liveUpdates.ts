import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { updateProspects } from './prospects';
import { stableId } from '../format';

interface Notice {
  type: 'advertisers' | 'blocklist';
  action: string;
  businessId?: string;
}

/**
 * Live updates of the shared lists (issue 4 item 11): the server's event stream says what changed, and the
 * matching queries are refreshed. A blocked business leaves the current results at once.
 */
export function useLiveUpdates(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events');
    const parse = (e: MessageEvent<string>): Notice | null => {
      try {
        return JSON.parse(e.data) as Notice;
      } catch {
        return null;
      }
    };
    const onAdvertisers = () => void queryClient.invalidateQueries({ queryKey: ['advertisers'] });
    const onBlocklist = (e: MessageEvent<string>) => {
      const notice = parse(e);
      if (notice?.action === 'blocked' && notice.businessId) {
        const id = notice.businessId;
        updateProspects(queryClient, (list) => list.filter((p) => stableId(p) !== id));
      }
      void queryClient.invalidateQueries({ queryKey: ['blocklist'] });
    };
    // A (re)connected stream may have missed notices while it was down: refresh once on every open.
    let opens = 0;
    source.onopen = () => {
      if (opens++ > 0) onAdvertisers();
    };
    source.addEventListener('advertisers', onAdvertisers);
    source.addEventListener('blocklist', onBlocklist);
    return () => source.close();
  }, [enabled, queryClient]);
}
