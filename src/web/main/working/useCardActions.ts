// Working a card (docs/PRODUCT.md, "Working the list"): log a call or visit, Save for Later, mark or unmark a
// current advertiser, block (admins), set a missing category, open the strategy, show it on the map. The
// handlers are stable (useStableHandlers), so the memoized cards do not render again on every answer.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Prospect } from '../../../core/types';
import {
  api,
  isQueued,
  type Advertiser,
  type CallLog,
  type FollowUp,
  type FollowUpInput,
  type SavedItem,
} from '../../api';
import { useDialogs } from '../../dialogs';
import { strategyModal } from '../../extensions';
import { fullAddress, stableId } from '../../format';
import { ALREADY_SAVED, OUTCOME_SAVE, OUTCOME_VISITED, SAVED_FOR_LATER } from '../../texts';
import { currentPosition } from '../route/position';
import { dueLabel } from '../../../core/follow-ups';
import { browserToday } from '../follow-ups/draft';
import { SAVED_ON_DEVICE } from '../../offline/texts';
import type { CardActions } from '../../prospects/ProspectCard';
import { useStableHandlers } from '../../prospects/stableActions';
import { updateProspects, useAdvertisers } from '../prospects';
import { usePipelineActions, usePipelineById } from '../pipeline/usePipeline';

export type CardFeature = ReturnType<typeof useCardActions>;

export function useCardActions(admin: boolean, showOnMap: (p: Prospect) => void) {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const [strategyFor, setStrategyFor] = useState<Prospect | null>(null);
  const advertisers = useAdvertisers();
  const advertiserById = new Map((advertisers.data ?? []).map((a) => [a.businessId, a]));
  const pipelineById = usePipelineById();
  const pipeline = usePipelineActions();

  const logOutcome = async (p: Prospect, outcome: string, note: string, followUp?: FollowUpInput) => {
    if (outcome === OUTCOME_SAVE) {
      const answer = await api.save(p, note);
      await queryClient.invalidateQueries({ queryKey: ['saved'] });
      if (isQueued(answer)) notify(SAVED_ON_DEVICE, 'info');
      else notify(answer.created ? SAVED_FOR_LATER : ALREADY_SAVED, answer.created ? 'success' : 'info');
      return;
    }
    // A visit sends where the phone is (at most ~4 s; none when it cannot tell): the server verifies it.
    const at = new Date().toISOString();
    const position = outcome === OUTCOME_VISITED ? await currentPosition() : null;
    const { callLog: entry, followUp: made } = await api.addCallLog({
      prospectId: p.id,
      name: p.name,
      category: p.category,
      ...(p.phone ? { phone: p.phone } : {}),
      ...(p.website ? { website: p.website } : {}),
      address: fullAddress(p),
      outcome,
      ...(note.trim() ? { note: note.trim() } : {}),
      timestamp: at,
      ...(position ? { position } : {}),
      ...(followUp ? { followUp } : {}),
    });
    if (outcome === OUTCOME_VISITED) void queryClient.invalidateQueries({ queryKey: ['visits'] });
    if (made) {
      queryClient.setQueryData<FollowUp[]>(['followUps'], (old) => (old ? [...old, made] : old));
      await queryClient.invalidateQueries({ queryKey: ['followUps'] });
      notify(`Follow-up set for ${dueLabel(made, browserToday())}.`, 'success');
    }
    queryClient.setQueryData<CallLog[]>(['callLogs'], (old) => [
      entry,
      ...(old ?? []).filter((e) => e.id !== entry.id),
    ]);
    pipeline.afterCallLog();
  };

  const shared: Omit<CardActions, 'onRemove' | 'onSetCategory' | 'onBlock'> = {
    onLog: logOutcome,
    onStrategy: (p) => setStrategyFor(p),
    onMark: async (p) => {
      const answer = await api.markAdvertiser(stableId(p), p.name);
      // Queued offline: shown as marked until it is sent.
      if (isQueued(answer)) {
        queryClient.setQueryData<Advertiser[]>(['advertisers'], (old) => [answer.advertiser, ...(old ?? [])]);
      }
      await queryClient.invalidateQueries({ queryKey: ['advertisers'] });
    },
    onUnmark: async (p) => {
      const id = stableId(p);
      const answer = await api.unmarkAdvertiser(id, p.name);
      if (isQueued(answer)) {
        queryClient.setQueryData<Advertiser[]>(['advertisers'], (old) =>
          old?.filter((a) => a.businessId !== id),
        );
      }
      await queryClient.invalidateQueries({ queryKey: ['advertisers'] });
    },
    onStage: pipeline.onStage,
    ...(admin && { onReassign: pipeline.onReassign, onRelease: pipeline.onRelease }),
  };

  const prospectActions: CardActions = {
    ...shared,
    onSetCategory: async (p, category) => {
      const updated = await api.setCategory(p.id, category);
      updateProspects(queryClient, (all) => all.map((x) => (x.id === p.id ? { ...x, ...updated } : x)));
    },
    ...(admin && {
      onBlock: async (p: Prospect) => {
        const id = stableId(p);
        await api.block(id, p.name);
        updateProspects(queryClient, (all) => all.filter((x) => stableId(x) !== id));
        notify(`${p.name} was blocked for everyone.`, 'success');
      },
    }),
  };

  const savedActions: CardActions = {
    ...shared,
    onSetCategory: async (p, category) => {
      const updated = await api.setSavedCategory(p.id, category);
      queryClient.setQueryData<SavedItem[]>(['saved'], (old) =>
        (old ?? []).map((s) =>
          s.prospectId === p.id ? { ...s, prospect: { ...s.prospect, ...updated } } : s,
        ),
      );
    },
    onRemove: async (p) => {
      await api.unsave(p.id, p.name);
      await queryClient.invalidateQueries({ queryKey: ['saved'] });
    },
  };

  const stableProspectActions = useStableHandlers(prospectActions);
  const stableSavedActions = useStableHandlers(savedActions);
  const { onShowOnMap } = useStableHandlers({ onShowOnMap: showOnMap });
  return {
    prospectActions: stableProspectActions,
    savedActions: stableSavedActions,
    onShowOnMap,
    advertiserById,
    pipelineById,
    admin,
    strategyAvailable: strategyModal.component !== null,
    strategyFor,
    closeStrategy: () => setStrategyFor(null),
  };
}
