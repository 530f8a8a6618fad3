// The Saved tab: the user's saved prospects, each with its note, Remove and the card's actions.
import { Stack, Text } from '@mantine/core';
import { stableId } from '../../format';
import { ProspectCard } from '../../prospects/ProspectCard';
import { useSaved } from '../prospects';
import { useMainScreen } from '../screen';
import { PlanRoute } from '../route/PlanRoute';

export function SavedPanel() {
  const { cards, me, location } = useMainScreen();
  const saved = useSaved().data ?? [];
  return (
    <Stack gap="sm">
      {saved.length === 0 && <Text c="dimmed">No saved prospects yet.</Text>}
      {saved.length > 0 && (
        <PlanRoute
          stops={saved.map((s) => ({ id: s.prospectId, name: s.prospect.name }))}
          fallbackStart={{ lat: location.settings.lat, lng: location.settings.lng }}
        />
      )}
      {saved.map((s) => (
        <ProspectCard
          key={s.prospectId}
          prospect={s.prospect}
          savedNote={s.note}
          variant="saved"
          advertiser={cards.advertiserById.get(stableId(s.prospect))}
          pipeline={cards.pipelineById.get(stableId(s.prospect))}
          meId={me.id}
          isAdmin={cards.admin}
          actions={cards.savedActions}
          strategyAvailable={cards.strategyAvailable}
        />
      ))}
    </Stack>
  );
}
