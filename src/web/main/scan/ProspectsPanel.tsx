// The Prospects tab: notices, the cards of the loaded results (compact on a phone, each opening to the full
// card), 'Load Next N Prospects'.
import { useDeferredValue, useState } from 'react';
import { Alert, Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { isAdvertising } from '../../../core/websites/kinds';
import type { Prospect } from '../../../core/types';
import { MAX_LOADED } from '../../defaults';
import { stableId } from '../../format';
import { ProspectCard } from '../../prospects/ProspectCard';
import { CompactCard } from '../../prospects/CompactCard';
import { CardViewControl, useCardView } from '../../prospects/cardView';
import { useProgressiveList } from '../../prospects/stableActions';
import {
  DEMO_BEFORE_IMPORT,
  DEMO_RESULTS,
  loadLimitNote,
  NO_BUSINESSES_FOUND,
  NO_LOCAL_DATA,
  NO_PROSPECTS_YET,
} from '../../texts';
import { useConfig } from '../../session';
import { EMPTY_LIST, useCallLogs, useSaved } from '../prospects';
import { useMainScreen } from '../screen';
import { useRevealFirstCard } from '../quick-search/useQuickSearch';
import { PlanRoute } from '../route/PlanRoute';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function ProspectsPanel() {
  const { scan, cards, quickSearch, location, me } = useMainScreen();
  const { list } = scan;
  // The cards follow the list a moment later, in an interruptible render, so a list of many cards arriving
  // never holds the page for long; the map and counts use the list itself.
  const prospects = list.data?.prospects ?? EMPTY_LIST.prospects;
  const cardProspects = useProgressiveList(useDeferredValue(prospects));
  const loaded = prospects.length;
  const loadable = list.data?.loadable ?? 0;
  const total = list.data?.total ?? 0;
  const limit = Math.min(MAX_LOADED, loadable);
  const listRef = useRevealFirstCard(quickSearch.reveal, quickSearch.revealPendingRef);
  // Business data imported since these (restored) demo results were made: a new scan finds real ones.
  const imported = (useConfig().data?.map.dataAttribution ?? '') !== '';
  const marks = useCardMarks();
  const filters = useListFilters(prospects, marks.contacted);
  const view = useCardView();
  const opened = useOpened();
  const shownCards = cardProspects.filter(filters.keep);
  // The cards keep their numbers in the whole list (the map's markers).
  const cardNumber = new Map(cardProspects.map((p, i) => [p.id, i + 1]));
  // Select mode: a checkbox on each card picks the stops of a route.
  const [selecting, setSelecting] = useState(false);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const pickedStops = prospects.filter((p) => picked.has(p.id)).map((p) => ({ id: p.id, name: p.name }));
  const togglePick = (id: string, on: boolean) =>
    setPicked((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <Stack gap="sm" ref={listRef} className="prospect-list">
      {list.isError && (
        <Alert color="red" role="alert">
          {messageOf(list.error)}
        </Alert>
      )}
      {scan.sourcesNotice && (
        <Alert
          color="yellow"
          variant="light"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => scan.setSourcesNotice(null)}
          data-testid="sources-notice"
        >
          {scan.sourcesNotice}
        </Alert>
      )}
      {list.data?.demo && loaded > 0 && (
        <Alert color="yellow" variant="light" data-testid="demo-notice">
          {imported ? DEMO_BEFORE_IMPORT : DEMO_RESULTS}
        </Alert>
      )}
      {loaded === 0 &&
        !list.isPending &&
        (list.data?.searched && list.data.noLocalData ? (
          <Alert color="yellow" variant="light" data-testid="empty-list">
            {NO_LOCAL_DATA}
          </Alert>
        ) : (
          <Text c="dimmed" data-testid="empty-list">
            {list.data?.searched ? NO_BUSINESSES_FOUND : NO_PROSPECTS_YET}
          </Text>
        ))}
      {loaded > 0 && filters.controls}
      {loaded > 0 && view.phone && <CardViewControl view={view} />}
      {loaded > 0 && (
        <Group gap="xs" className="route-select-bar" data-testid="route-select-bar">
          <Button
            variant={selecting ? 'filled' : 'default'}
            onClick={() => {
              setSelecting((on) => !on);
              setPicked(new Set());
            }}
            aria-pressed={selecting}
            data-testid="select-for-route"
          >
            {selecting ? 'Done selecting' : 'Select for route'}
          </Button>
          {selecting && (
            <PlanRoute
              stops={pickedStops}
              fallbackStart={{ lat: location.settings.lat, lng: location.settings.lng }}
            />
          )}
        </Group>
      )}
      {shownCards.map((p, i) => {
        const number = cardNumber.get(p.id) ?? i + 1;
        const id = stableId(p);
        const card =
          view.compact && !opened.ids.has(p.id) ? (
            <CompactCard
              key={p.id}
              prospect={p}
              number={number}
              saved={marks.saved.has(p.id)}
              pipeline={cards.pipelineById.get(id)}
              advertiser={cards.advertiserById.get(id)}
              lastNote={marks.lastNote.get(p.id)}
              onShowOnMap={cards.onShowOnMap}
              onOpen={opened.open}
            />
          ) : (
            <ProspectCard
              key={p.id}
              prospect={p}
              number={number}
              variant="prospects"
              advertiser={cards.advertiserById.get(stableId(p))}
              pipeline={cards.pipelineById.get(stableId(p))}
              meId={me.id}
              isAdmin={cards.admin}
              actions={cards.prospectActions}
              onShowOnMap={cards.onShowOnMap}
              strategyAvailable={cards.strategyAvailable}
              onClose={view.compact ? () => opened.close(p.id) : undefined}
            />
          );
        return selecting ? (
          <div key={p.id} className="route-pick">
            <Checkbox
              label={`Add ${p.name} to the route`}
              checked={picked.has(p.id)}
              onChange={(e) => togglePick(p.id, e.currentTarget.checked)}
              data-testid="route-pick"
            />
            {card}
          </div>
        ) : (
          card
        );
      })}
      {loaded > 0 && loaded < limit && (
        <Stack gap={4} align="center">
          <Button variant="light" onClick={() => void scan.loadMore()} loading={scan.loadingMore}>
            Load Next {Math.min(location.settings.count, limit - loaded)} Prospects
          </Button>
          <Text size="sm" c="dimmed" data-testid="showing">
            Showing {loaded} of {total}
          </Text>
        </Stack>
      )}
      {loaded > 0 && loaded >= limit && total > loaded && (
        <Text size="sm" c="dimmed" ta="center" data-testid="showing">
          {loadLimitNote(loaded, total, MAX_LOADED)}
        </Text>
      )}
    </Stack>
  );
}

/** What the compact cards show of the rep's own lists: saved, contacted (in the Log), the latest note. */
function useCardMarks() {
  const callLogs = useCallLogs().data ?? [];
  const saved = useSaved().data ?? [];
  const lastNote = new Map<string, string>();
  // The Log is newest first: the first note met is the latest.
  for (const e of callLogs) if (e.note && !lastNote.has(e.prospectId)) lastNote.set(e.prospectId, e.note);
  return {
    contacted: new Set(callLogs.map((e) => e.prospectId)),
    saved: new Set(saved.map((s) => s.prospectId)),
    lastNote,
  };
}

/** The compact cards opened to their full card (on a phone); each stays open until closed. */
function useOpened() {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const change = (id: string, on: boolean) =>
    setIds((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return { ids, open: (id: string) => change(id, true), close: (id: string) => change(id, false) };
}

const runsAds = (p: Prospect) => isAdvertising(p.signals);
/** A lapsed or declining advertiser of the imported billing. */
const winBack = (p: Prospect) => p.billing?.status === 'lapsed' || p.billing?.status === 'declining';
const hasPhone = (p: Prospect) => Boolean(p.phone?.trim());

/**
 * The list's filters, together: "Runs online ads" (the website carries an ad platform's tag; not the marked
 * current advertisers), "Has a phone", "Not contacted yet" (no entry in this rep's Log) and "Lapsed or
 * declining" (by the imported billing). A filter nothing passes is disabled rather than emptying the list.
 */
function useListFilters(prospects: readonly Prospect[], contacted: ReadonlySet<string>) {
  const [adsOnly, setAdsOnly] = useState(false);
  const [phoneOnly, setPhoneOnly] = useState(false);
  const [newOnly, setNewOnly] = useState(false);
  const [winBackOnly, setWinBackOnly] = useState(false);
  const fresh = (p: Prospect) => !contacted.has(p.id);
  const adsCount = prospects.filter(runsAds).length;
  const phoneCount = prospects.filter(hasPhone).length;
  const freshCount = prospects.filter(fresh).length;
  const winBackCount = prospects.filter(winBack).length;
  const keep = (p: Prospect) =>
    (!winBackOnly || winBackCount === 0 || winBack(p)) &&
    (!adsOnly || adsCount === 0 || runsAds(p)) &&
    (!phoneOnly || phoneCount === 0 || hasPhone(p)) &&
    (!newOnly || freshCount === 0 || fresh(p));
  const controls = (
    <Group gap="md" data-testid="list-filters">
      <Checkbox
        label={`Runs online ads (${adsCount})`}
        checked={adsOnly && adsCount > 0}
        disabled={adsCount === 0}
        onChange={(e) => setAdsOnly(e.currentTarget.checked)}
        data-testid="advertising-filter"
      />
      <Checkbox
        label={`Has a phone (${phoneCount})`}
        checked={phoneOnly && phoneCount > 0}
        disabled={phoneCount === 0}
        onChange={(e) => setPhoneOnly(e.currentTarget.checked)}
        data-testid="phone-filter"
      />
      <Checkbox
        label={`Not contacted yet (${freshCount})`}
        checked={newOnly && freshCount > 0}
        disabled={freshCount === 0}
        onChange={(e) => setNewOnly(e.currentTarget.checked)}
        data-testid="fresh-filter"
      />
      <Checkbox
        label={`Lapsed or declining (${winBackCount})`}
        checked={winBackOnly && winBackCount > 0}
        disabled={winBackCount === 0}
        onChange={(e) => setWinBackOnly(e.currentTarget.checked)}
        data-testid="lapsed-filter"
      />
    </Group>
  );
  return { keep, controls };
}
