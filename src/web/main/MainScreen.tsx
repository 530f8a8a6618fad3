import { lazy, memo, Suspense, useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Container,
  Grid,
  Group,
  Loader,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Prospect } from '../../core/types';
import { isAdvertising } from '../../core/websites/kinds';
import {
  ADDRESS_EMPTY,
  ADDRESS_NOT_FOUND,
  CATEGORY_TOO_GENERIC,
  GENERIC_ERROR,
  NETWORK_ERROR,
  PLEASE_LOG_IN,
} from '../../core/messages';
import {
  api,
  ApiError,
  isAdminUser,
  type CallLog,
  type Me,
  type SavedItem,
  type SearchSettings,
} from '../api';
import { useDialogs } from '../dialogs';
import { GPS_MAX_AGE_MS, GPS_TIMEOUT_MS, initialSettings, MAX_LOADED } from '../defaults';
import { adminTabs, strategyModal } from '../extensions';
import { fullAddress, stableId } from '../format';
import { ME_KEY, useConfig, useMe, useSignOut } from '../session';
import {
  ALREADY_SAVED,
  GPS_FAILED,
  GPS_UNAVAILABLE,
  LOAD_MORE_FAILED,
  loadLimitNote,
  NO_BUSINESSES_FOUND,
  NO_LOCAL_DATA,
  NO_PROSPECTS_YET,
  OUTCOME_SAVE,
  QUICK_SEARCH_FAILED,
  SAVED_FOR_LATER,
  SCAN_FAILED,
} from '../texts';
import { InstallPrompt } from '../pwa/InstallPrompt';
import { ProspectCard, type CardActions } from '../prospects/ProspectCard';
import { useProgressiveList, useStableHandlers } from '../prospects/stableActions';
import { LocationControls, QuickSearch, ScanControls } from './Controls';
import { Header } from './Header';
import { HelpDialog } from './HelpDialog';
import { SCAN_MUTATION_KEY, scanSettled, useLiveUpdates } from './liveUpdates';
import { MapArea } from './MapArea';
import {
  EMPTY_LIST,
  setProspectList,
  updateProspects,
  useAdvertisers,
  useCallLogs,
  useProspectList,
  useSaved,
} from './prospects';
import { ScanOverlay } from './ScanOverlay';
import {
  failedSourcesNotice,
  newScanId,
  nextProgress,
  progressLine,
  type ScanNotice,
  type ScanProgress,
} from './scanProgress';

const MemoHeader = memo(Header);
const MemoLocationControls = memo(LocationControls);
const MemoQuickSearch = memo(QuickSearch);
const MemoScanControls = memo(ScanControls);

// The Log tab is its own chunk, loaded when opened (the Prospects tab is the first screen).
const LogTab = lazy(() => import('./LogTab').then((m) => ({ default: m.LogTab })));

const coordsLabel = (lat: number, lng: number) => `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The server's own words for a 4xx; the spec's generic alert for anything else. */
function userMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return PLEASE_LOG_IN;
    if (error.status === 0) return NETWORK_ERROR;
    if (error.status >= 400 && error.status < 500) return error.message;
  }
  return fallback;
}

export function MainScreen() {
  const me = useMe();
  const admin = isAdminUser(me);
  const queryClient = useQueryClient();
  const { notify, prompt } = useDialogs();
  const config = useConfig();
  const signOut = useSignOut();
  const [loggingOut, setLoggingOut] = useState(false);
  const [settings, setSettings] = useState<SearchSettings>(() => initialSettings(me.searchSettings));
  const [tab, setTab] = useState<string>('prospects');
  const [picked, setPicked] = useState<{ lat: number; lng: number } | null>(null);
  const [locating, setLocating] = useState(false);
  const [helpOpen, setHelpOpen] = useState(!me.hideInstructions);
  const [strategyFor, setStrategyFor] = useState<Prospect | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [focus, setFocus] = useState<{ id: string; nonce: number } | null>(null);
  /** The running scan's id (sent with it) and what its event stream said so far. */
  const scanId = useRef<string | null>(null);
  const [scanProgress, setScanProgress] = useState<ScanProgress | null>(null);
  /** Which place sources failed in the latest scan, while results came from the others. */
  const [sourcesNotice, setSourcesNotice] = useState<string | null>(null);
  const mapWrap = useRef<HTMLDivElement>(null);
  const prospectList = useRef<HTMLDivElement>(null);
  /** Set after a quick search: its first result is brought into view once the list shows it. */
  const [reveal, setReveal] = useState(0);
  useEffect(() => {
    if (reveal === 0) return;
    // On a phone the list is far below the controls: its first card comes to the top. On a desk it sits under
    // the map: scrolled only as far as needed, so the map stays in view where it can.
    const first = prospectList.current?.querySelector('[data-testid="prospect-card"]');
    const phone = window.matchMedia('(max-width: 62em)').matches;
    first?.scrollIntoView({ block: phone ? 'start' : 'nearest', behavior: 'auto' });
  }, [reveal]);
  /** On a phone the map sits above the list: bring it into view when it is the thing to look at. */
  const showMap = () => {
    if (window.matchMedia('(max-width: 62em)').matches) mapWrap.current?.scrollIntoView({ block: 'start' });
  };

  const list = useProspectList(settings.count);
  const saved = useSaved();
  const callLogs = useCallLogs();
  const advertisers = useAdvertisers();
  const onScanNotice = useCallback(
    (notice: ScanNotice) => setScanProgress((p) => nextProgress(p, notice, scanId.current)),
    [],
  );
  useLiveUpdates(true, onScanNotice);

  // The cards follow the list a moment later, in an interruptible render, so a list of many cards arriving
  // never holds the page for long (issue 14 item 13); the map and counts use the list itself.
  const prospects = list.data?.prospects ?? EMPTY_LIST.prospects;
  const deferredProspects = useDeferredValue(prospects);
  const cardProspects = useProgressiveList(deferredProspects);
  // The filter "Already advertising" (issue 17): only the cards whose website carries an ad platform's tag. The
  // cards keep their numbers in the whole list (the map's markers).
  const [advertisingOnly, setAdvertisingOnly] = useState(false);
  const advertisingCount = prospects.filter((p) => isAdvertising(p.signals)).length;
  const shownCards = advertisingOnly ? cardProspects.filter((p) => isAdvertising(p.signals)) : cardProspects;
  const cardNumber = new Map(cardProspects.map((p, i) => [p.id, i + 1]));
  const advertiserById = new Map((advertisers.data ?? []).map((a) => [a.businessId, a]));

  // Settings are saved per user (SPEC §3), a moment after the last change.
  const firstSettings = useRef(true);
  useEffect(() => {
    if (firstSettings.current) {
      firstSettings.current = false;
      return;
    }
    const timer = window.setTimeout(() => {
      api
        .updateMe({ searchSettings: settings })
        .catch((e: unknown) => console.warn('saving search settings failed', e));
    }, 800);
    return () => window.clearTimeout(timer);
  }, [settings]);

  const patchSettings = useCallback(
    (patch: Partial<SearchSettings>) => setSettings((s) => ({ ...s, ...patch })),
    [],
  );

  const updateProfile = useCallback(
    async (patch: Parameters<typeof api.updateMe>[0]) => {
      try {
        const user = await api.updateMe(patch);
        queryClient.setQueryData<Me | null>(ME_KEY, user);
      } catch (e) {
        console.warn('saving a preference failed', e);
      }
    },
    [queryClient],
  );

  /** Move the centre; the label is the given one or, failing that, the reverse-geocoded one. */
  const moveCenter = useCallback((lat: number, lng: number, label?: string) => {
    setSettings((s) => ({ ...s, lat, lng, label: label ?? coordsLabel(lat, lng) }));
    setPicked(null);
    if (label) return;
    api.reverseGeocode(lat, lng).then(
      (found) => {
        if (!found.label) return;
        setSettings((s) => (s.lat === lat && s.lng === lng ? { ...s, label: found.label } : s));
      },
      (e: unknown) => console.warn('reverse geocoding failed', e),
    );
  }, []);

  const onMapCenter = useCallback((lat: number, lng: number) => moveCenter(lat, lng), [moveCenter]);
  const onMapPick = useCallback((lat: number, lng: number) => setPicked({ lat, lng }), []);

  const useGps = () => {
    if (!('geolocation' in navigator)) {
      notify(GPS_UNAVAILABLE, 'error');
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setLocating(false);
        moveCenter(pos.coords.latitude, pos.coords.longitude);
      },
      (error) => {
        setLocating(false);
        console.warn('GPS failed', error);
        notify(GPS_FAILED, 'error');
      },
      { enableHighAccuracy: true, timeout: GPS_TIMEOUT_MS, maximumAge: GPS_MAX_AGE_MS },
    );
  };

  const setAddress = async (address: string): Promise<boolean> => {
    if (!address.trim()) {
      notify(ADDRESS_EMPTY, 'error');
      return false;
    }
    try {
      const found = await api.geocode(address.trim());
      moveCenter(found.lat, found.lng, found.label || address.trim());
      return true;
    } catch (error) {
      console.warn('geocoding failed', error);
      // Not found (or the lookup failed on the server): the spec's message; another refusal in the server's words.
      notify(
        error instanceof ApiError && error.status === 404
          ? ADDRESS_NOT_FOUND
          : userMessage(error, ADDRESS_NOT_FOUND),
        'error',
      );
      return false;
    }
  };

  const scan = useMutation({
    mutationKey: SCAN_MUTATION_KEY,
    mutationFn: (id: string) => api.scan({ ...settings, locationLabel: settings.label, scanId: id }),
    onSuccess: (result) => {
      setProspectList(queryClient, {
        prospects: result.prospects,
        total: result.total,
        loadable: Math.min(MAX_LOADED, result.total),
        demo: result.demo ?? false,
        searched: true,
        noLocalData: result.noLocalData === true,
      });
      setTab('prospects');
      const failed = (result.sources ?? []).filter((s) => !s.ok);
      if (failed.length > 0) console.warn('some place providers failed', failed);
      setSourcesNotice(failedSourcesNotice(result.sources, result.prospects.length > 0));
    },
    onError: (error) => {
      // SPEC §4: a click inside the cooldown is ignored (only logged).
      if (error instanceof ApiError && error.status === 429) {
        console.info('scan ignored: cooldown', error.body.retryAfterMs);
        return;
      }
      console.error('scan failed', error);
      notify(userMessage(error, SCAN_FAILED), 'error');
    },
    onSettled: () => {
      scanId.current = null;
      scanSettled(queryClient);
    },
  });

  const startScan = () => {
    if (scan.isPending) return;
    const id = newScanId();
    scanId.current = id;
    setScanProgress(null);
    setSourcesNotice(null);
    scan.mutate(id);
    showMap();
  };

  const quickSearch = useMutation({
    mutationFn: (input: { mode: 'business' | 'category'; text: string }) =>
      api.quickSearch({
        ...input,
        lat: settings.lat,
        lng: settings.lng,
        radiusMiles: settings.radiusMiles,
        count: settings.count,
        locationLabel: settings.label,
      }),
    onSuccess: (result) => {
      // The result becomes the latest search on the server, paged like a scan.
      setProspectList(queryClient, {
        prospects: result.prospects,
        total: result.total,
        loadable: Math.min(MAX_LOADED, result.total),
        demo: result.demo ?? false,
        searched: true,
      });
      setSourcesNotice(null);
      setTab('prospects');
      setReveal((n) => n + 1);
    },
    onError: (error, input) => {
      // Finding nothing (404) or a category too generic (400) is an answer, not a failure: no console error.
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
        console.info('quick search: no result', error.message);
      } else {
        console.error('quick search failed', error);
      }
      // SPEC §5: a category too generic to search prompts for a more specific one (only that refusal).
      if (
        input.mode === 'category' &&
        error instanceof ApiError &&
        error.status === 400 &&
        error.message === CATEGORY_TOO_GENERIC
      ) {
        void prompt(error.message, 'Category', 'Find').then((answer) => {
          const text = answer?.trim();
          if (text) quickSearch.mutate({ mode: 'category', text });
        });
        return;
      }
      notify(userMessage(error, QUICK_SEARCH_FAILED), 'error');
    },
  });

  const loadMore = async () => {
    const current = list.data ?? EMPTY_LIST;
    setLoadingMore(true);
    try {
      const page = await api.latestScan(current.prospects.length, settings.count);
      const seen = new Set(current.prospects.map((p) => p.id));
      setProspectList(queryClient, {
        prospects: [...current.prospects, ...page.prospects.filter((p) => !seen.has(p.id))],
        total: page.total,
        loadable: page.loadable ?? Math.min(MAX_LOADED, page.total),
        demo: current.demo ?? false,
        searched: true,
      });
    } catch (error) {
      console.error('loading more prospects failed', error);
      notify(LOAD_MORE_FAILED, 'error');
    } finally {
      setLoadingMore(false);
    }
  };

  const newSearch = () => {
    setProspectList(queryClient, EMPTY_LIST);
    setSourcesNotice(null);
    setPicked(null);
    setTab('prospects');
    api.clearLatestScan().catch((e: unknown) => console.warn('clearing the latest scan failed', e));
  };

  const logout = async () => {
    setLoggingOut(true);
    try {
      await signOut();
    } catch (e) {
      console.warn('sign-out failed', e);
      setLoggingOut(false);
      notify(e instanceof Error && e.message ? e.message : GENERIC_ERROR, 'error');
    }
  };

  const logOutcome = async (p: Prospect, outcome: string, note: string) => {
    if (outcome === OUTCOME_SAVE) {
      const { created } = await api.save(p, note);
      await queryClient.invalidateQueries({ queryKey: ['saved'] });
      notify(created ? SAVED_FOR_LATER : ALREADY_SAVED, created ? 'success' : 'info');
      return;
    }
    const entry = await api.addCallLog({
      prospectId: p.id,
      name: p.name,
      category: p.category,
      ...(p.phone ? { phone: p.phone } : {}),
      ...(p.website ? { website: p.website } : {}),
      address: fullAddress(p),
      outcome,
      ...(note.trim() ? { note: note.trim() } : {}),
      timestamp: new Date().toISOString(),
    });
    queryClient.setQueryData<CallLog[]>(['callLogs'], (old) => [
      entry,
      ...(old ?? []).filter((e) => e.id !== entry.id),
    ]);
  };

  const sharedActions: Omit<CardActions, 'onRemove' | 'onSetCategory' | 'onBlock'> = {
    onLog: logOutcome,
    onStrategy: (p) => setStrategyFor(p),
    onMark: async (p) => {
      await api.markAdvertiser(stableId(p), p.name);
      await queryClient.invalidateQueries({ queryKey: ['advertisers'] });
    },
    onUnmark: async (p) => {
      await api.unmarkAdvertiser(stableId(p));
      await queryClient.invalidateQueries({ queryKey: ['advertisers'] });
    },
  };

  const prospectActions: CardActions = {
    ...sharedActions,
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
    ...sharedActions,
    onSetCategory: async (p, category) => {
      const updated = await api.setSavedCategory(p.id, category);
      queryClient.setQueryData<SavedItem[]>(['saved'], (old) =>
        (old ?? []).map((s) =>
          s.prospectId === p.id ? { ...s, prospect: { ...s.prospect, ...updated } } : s,
        ),
      );
    },
    onRemove: async (p) => {
      await api.unsave(p.id);
      await queryClient.invalidateQueries({ queryKey: ['saved'] });
    },
  };

  // Stable handlers for the memoized cards (each call still reaches the newest ones).
  const stableProspectActions = useStableHandlers(prospectActions);
  const stableSavedActions = useStableHandlers(savedActions);
  const { onShowOnMap } = useStableHandlers({
    onShowOnMap: (target: Prospect) => {
      setFocus({ id: target.id, nonce: Date.now() });
      showMap();
    },
  });

  // Stable handlers for the memoized header and controls: they render again only when what they show
  // changes, not on every answer that reaches this screen (issue 14 item 13).
  const stable = useStableHandlers({
    onNewSearch: newSearch,
    onHelp: () => {
      setHelpOpen(true);
      if (me.hideInstructions) void updateProfile({ hideInstructions: false });
    },
    onLogout: () => void logout(),
    onGps: useGps,
    onAddress: setAddress,
    onFind: (mode: 'business' | 'category', text: string) => quickSearch.mutate({ mode, text }),
    onScan: startScan,
  });

  const loaded = prospects.length;
  const loadable = list.data?.loadable ?? 0;
  const total = list.data?.total ?? 0;
  const visibleAdminTabs = adminTabs.filter((t) => (t.visible ? t.visible(me) : admin));
  const StrategyModal = strategyModal.component;

  return (
    <div className="app">
      <MemoHeader
        me={me}
        onNewSearch={stable.onNewSearch}
        onHelp={stable.onHelp}
        onLogout={stable.onLogout}
        loggingOut={loggingOut}
      />
      <Container size="xl" px={{ base: 'xs', sm: 'md' }} py="md">
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="sm">
              <MemoLocationControls
                label={settings.label}
                locating={locating}
                onGps={stable.onGps}
                onAddress={stable.onAddress}
              />
              <MemoQuickSearch busy={quickSearch.isPending} onFind={stable.onFind} />
              <MemoScanControls
                settings={settings}
                onChange={patchSettings}
                scanning={scan.isPending}
                onScan={stable.onScan}
              />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="sm">
              <div className="map-wrap" ref={mapWrap}>
                <MapArea
                  center={{ lat: settings.lat, lng: settings.lng }}
                  radiusMiles={settings.radiusMiles}
                  prospects={prospects}
                  tileUrl={config.data?.map.tileUrl ?? ''}
                  tileAttribution={config.data?.map.tileAttribution ?? ''}
                  onPick={onMapPick}
                  onCenter={onMapCenter}
                  focus={focus}
                />
                {scan.isPending && <ScanOverlay progress={progressLine(scanProgress)} />}
              </div>
              {picked && (
                <Group gap="xs" data-testid="picked-point">
                  <Text size="sm">
                    Clicked at {picked.lat.toFixed(5)}, {picked.lng.toFixed(5)}
                  </Text>
                  <Button
                    size="compact-xs"
                    variant="light"
                    onClick={() => moveCenter(picked.lat, picked.lng)}
                  >
                    Set as center
                  </Button>
                </Group>
              )}
              <Tabs value={tab} onChange={(v) => setTab(v ?? 'prospects')} keepMounted={false}>
                <Tabs.List>
                  <Tabs.Tab value="prospects">
                    Prospects{' '}
                    <Badge size="sm" variant="light">
                      {loaded}
                    </Badge>
                  </Tabs.Tab>
                  <Tabs.Tab value="saved">
                    Saved{' '}
                    <Badge size="sm" variant="light">
                      {saved.data?.length ?? 0}
                    </Badge>
                  </Tabs.Tab>
                  <Tabs.Tab value="log">
                    Log{' '}
                    <Badge size="sm" variant="light">
                      {callLogs.data?.length ?? 0}
                    </Badge>
                  </Tabs.Tab>
                  {visibleAdminTabs.map((t) => (
                    <AdminTabLabel key={t.value} tab={t} />
                  ))}
                </Tabs.List>

                <Tabs.Panel value="prospects" pt="sm">
                  <Stack gap="sm" ref={prospectList} className="prospect-list">
                    {list.isError && (
                      <Alert color="red" role="alert">
                        {messageOf(list.error)}
                      </Alert>
                    )}
                    {sourcesNotice && (
                      <Alert
                        color="yellow"
                        variant="light"
                        withCloseButton
                        closeButtonLabel="Dismiss"
                        onClose={() => setSourcesNotice(null)}
                        data-testid="sources-notice"
                      >
                        {sourcesNotice}
                      </Alert>
                    )}
                    {list.data?.demo && loaded > 0 && (
                      <Alert color="yellow" variant="light" data-testid="demo-notice">
                        Demo businesses: no place data is configured on this server yet, so these results are
                        examples.
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
                    {loaded > 0 && (
                      <Checkbox
                        label={`Already advertising (${advertisingCount})`}
                        checked={advertisingOnly}
                        onChange={(e) => setAdvertisingOnly(e.currentTarget.checked)}
                        data-testid="advertising-filter"
                      />
                    )}
                    {advertisingOnly && advertisingCount === 0 && loaded > 0 && (
                      <Text c="dimmed" size="sm" data-testid="advertising-empty">
                        No business here shows advertising on its website yet. Websites are checked after a
                        scan; the list updates as they are.
                      </Text>
                    )}
                    {shownCards.map((p, i) => (
                      <ProspectCard
                        key={p.id}
                        prospect={p}
                        number={cardNumber.get(p.id) ?? i + 1}
                        variant="prospects"
                        advertiser={advertiserById.get(stableId(p))}
                        isAdmin={admin}
                        actions={stableProspectActions}
                        onShowOnMap={onShowOnMap}
                        strategyAvailable={StrategyModal !== null}
                      />
                    ))}
                    {loaded > 0 && loaded < Math.min(MAX_LOADED, loadable) && (
                      <Stack gap={4} align="center">
                        <Button variant="light" onClick={() => void loadMore()} loading={loadingMore}>
                          Load Next {Math.min(settings.count, Math.min(MAX_LOADED, loadable) - loaded)}{' '}
                          Prospects
                        </Button>
                        <Text size="sm" c="dimmed" data-testid="showing">
                          Showing {loaded} of {total}
                        </Text>
                      </Stack>
                    )}
                    {loaded > 0 && loaded >= Math.min(MAX_LOADED, loadable) && total > loaded && (
                      <Text size="sm" c="dimmed" ta="center" data-testid="showing">
                        {loadLimitNote(loaded, total, MAX_LOADED)}
                      </Text>
                    )}
                  </Stack>
                </Tabs.Panel>

                <Tabs.Panel value="saved" pt="sm">
                  <Stack gap="sm">
                    {(saved.data ?? []).length === 0 && <Text c="dimmed">No saved prospects yet.</Text>}
                    {(saved.data ?? []).map((s) => (
                      <ProspectCard
                        key={s.prospectId}
                        prospect={s.prospect}
                        savedNote={s.note}
                        variant="saved"
                        advertiser={advertiserById.get(stableId(s.prospect))}
                        isAdmin={admin}
                        actions={stableSavedActions}
                        strategyAvailable={StrategyModal !== null}
                      />
                    ))}
                  </Stack>
                </Tabs.Panel>

                <Tabs.Panel value="log" pt="sm">
                  <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading" />}>
                    <LogTab logs={callLogs.data ?? []} />
                  </Suspense>
                </Tabs.Panel>

                {visibleAdminTabs.map((t) => (
                  <Tabs.Panel key={t.value} value={t.value} pt="sm">
                    {/* A tab may load its code lazily. */}
                    <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading" />}>
                      {t.render()}
                    </Suspense>
                  </Tabs.Panel>
                ))}
              </Tabs>
            </Stack>
          </Grid.Col>
        </Grid>
      </Container>
      <HelpDialog
        opened={helpOpen}
        onClose={(dontShow) => {
          setHelpOpen(false);
          if (dontShow) void updateProfile({ hideInstructions: true });
        }}
      />
      <InstallPrompt
        dismissed={me.installPromptDismissed}
        blocked={helpOpen}
        onDontAskAgain={() => void updateProfile({ installPromptDismissed: true })}
      />
      {StrategyModal && strategyFor && (
        // The modal may be a React.lazy component: its code then loads on the first Strategy click.
        <Suspense fallback={null}>
          <StrategyModal prospect={strategyFor} onClose={() => setStrategyFor(null)} />
        </Suspense>
      )}
    </div>
  );
}

function AdminTabLabel({ tab }: { tab: (typeof adminTabs)[number] }) {
  const count = tab.useCount?.();
  return (
    <Tabs.Tab value={tab.value}>
      {tab.label}{' '}
      {count !== undefined && (
        <Badge size="sm" variant="light">
          {count}
        </Badge>
      )}
    </Tabs.Tab>
  );
}
