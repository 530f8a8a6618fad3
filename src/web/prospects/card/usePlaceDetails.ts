import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Prospect } from '../../../core/types';
import { api, type PlaceDetails } from '../../api';

/**
 * A business's details (phone, website), fetched on demand (Call, Website) into the query cache, which is kept
 * on the device: details the rep opened online are there offline too. A failed fetch is remembered here only
 * (tried again on reload). `details` is null until fetched, `{}` once the fetch failed.
 */
export function usePlaceDetails(p: Prospect) {
  const queryClient = useQueryClient();
  const detailsId = p.placeId || p.id;
  const detailsKey = ['placeDetails', detailsId] as const;
  const cachedDetails = useQuery({
    queryKey: detailsKey,
    queryFn: () => api.placeDetails(detailsId),
    enabled: false,
    staleTime: Infinity,
  }).data;
  const [failedDetails, setFailedDetails] = useState(false);
  const details: PlaceDetails | null = cachedDetails ?? (failedDetails ? {} : null);
  const canFetchDetails = Boolean(detailsId) && details === null;

  const fetchDetails = async (): Promise<PlaceDetails | null> => {
    try {
      return await queryClient.fetchQuery({
        queryKey: detailsKey,
        queryFn: () => api.placeDetails(detailsId),
        staleTime: Infinity,
      });
    } catch (error) {
      console.warn('place details failed', error);
      setFailedDetails(true);
      return null;
    }
  };

  return { details, canFetchDetails, fetchDetails };
}
