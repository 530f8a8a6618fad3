// The main screen lays out its feature modules (each a folder with its hook and components): location/,
// quick-search/, scan/ (scan and paging), working/ (a card's actions and the strategy modal), saved/, log/,
// account/. Tabs come from extensions.ts: the screen's own (tabs.tsx), then the admin tabs. An admin page (Team,
// Admin Panel) has its own address and takes the place of the map and the lists; the scan, the location and the
// open tab live here, above the pages, so going to a page and back loses nothing.
import { memo, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation as usePath } from 'wouter';
import { Badge, Container, Grid, Loader, Stack, Tabs } from '@mantine/core';
import type { Prospect } from '../../core/types';
import { isAdminUser } from '../api';
import { useDialogs } from '../dialogs';
import { RESULTS_CLEARED } from '../texts';
import { adminPages, adminTabs, mainTabs, type ScreenTab } from '../extensions';
import { useConfig, useMe } from '../session';
import { InstallPrompt } from '../pwa/InstallPrompt';
import { useStableHandlers } from '../prospects/stableActions';
import { useAccount } from './account/useAccount';
import { Header } from './Header';
import { HelpDialog } from './HelpDialog';
import { LocationControls } from './location/LocationControls';
import { PickedPoint } from './location/PickedPoint';
import { useLocation } from './location/useLocation';
import { MapArea } from './MapArea';
import { QuickSearch } from './quick-search/QuickSearch';
import { useQuickSearch } from './quick-search/useQuickSearch';
import { ScanControls } from './scan/ScanControls';
import { useScan } from './scan/useScan';
import { ScanOverlay } from './ScanOverlay';
import { MainScreenContext, type MainScreenState } from './screen';
import { StrategyHost } from './working/StrategyHost';
import { useCardActions } from './working/useCardActions';
import { EMPTY_LIST } from './prospects';
import { useTerritories } from './territories/territories';
import './tabs';
import { OfflineStatus, useOfflineSession } from '../offline/OfflineStatus';

const MemoHeader = memo(Header);
const MemoLocationControls = memo(LocationControls);
const MemoQuickSearch = memo(QuickSearch);
const MemoScanControls = memo(ScanControls);

const isPhone = () => window.matchMedia('(max-width: 62em)').matches;

export function MainScreen() {
  const me = useMe();
  const admin = isAdminUser(me);
  // This rep's outbox and cached lists on the device.
  useOfflineSession(me.id);
  const config = useConfig();
  // ?tab=today opens a main tab directly (the calendar feed and the morning digest link to Today).
  const [tab, setTab] = useState<string>(() => {
    const asked = new URLSearchParams(window.location.search).get('tab');
    return asked && mainTabs.some((t) => t.value === asked) ? asked : 'prospects';
  });
  const [focus, setFocus] = useState<{ id: string; nonce: number } | null>(null);
  const mapWrap = useRef<HTMLDivElement>(null);
  /** On a phone the map sits above the list: bring it into view when it is the thing to look at. */
  const showMap = useCallback(() => {
    if (isPhone()) mapWrap.current?.scrollIntoView({ block: 'start' });
  }, []);

  const [path, navigate] = usePath();
  const { notify } = useDialogs();
  const account = useAccount(me);
  const location = useLocation(me);
  const { settings } = location;
  // The user's territories: their outlines on the map, and "Scan a territory" in the scan settings.
  const territories = useTerritories();
  const scan = useScan(settings, { results: () => setTab('prospects'), started: showMap }, territories);
  const quickSearch = useQuickSearch(settings, () => {
    scan.setSourcesNotice(null);
    setTab('prospects');
  });
  const cards = useCardActions(admin, (target: Prospect) => {
    setFocus({ id: target.id, nonce: Date.now() });
    showMap();
  });
  const state: MainScreenState = { me, admin, location, scan, quickSearch, cards };

  // Stable handlers for the memoized header and controls: they render again only when what they show
  // changes, not on every answer that reaches this screen.
  const stable = useStableHandlers({
    onNewSearch: () => {
      const { cleared, undo } = scan.clear();
      location.clearPicked();
      setTab('prospects');
      navigate('/');
      if (cleared) notify(RESULTS_CLEARED, 'info', { label: 'Undo', onClick: undo });
    },
    onHelp: account.openHelp,
    onLogout: () => void account.logout(),
    onGps: location.locate,
    onAddress: location.setAddress,
    onFind: quickSearch.find,
    onScan: scan.start,
  });

  const tabs = [
    ...mainTabs.filter((t) => !t.visible || t.visible(me)),
    ...adminTabs.filter((t) => (t.visible ? t.visible(me) : admin)),
  ];
  const pages = admin ? adminPages : [];
  const page = pages.find((p) => path === p.path || path.startsWith(`${p.path}/`));
  useEffect(() => {
    document.title = page ? `${page.label} · Prospect Finder` : 'Prospect Finder';
  }, [page]);

  return (
    <MainScreenContext.Provider value={state}>
      <div className="app">
        <MemoHeader
          me={me}
          onNewSearch={stable.onNewSearch}
          onHelp={stable.onHelp}
          onLogout={stable.onLogout}
          loggingOut={account.loggingOut}
          pages={pages}
          path={path}
        />
        <Container size="xl" px={{ base: 'xs', sm: 'md' }} py="md">
          <OfflineStatus />
          <Switch>
            {pages.map((p) => (
              <Route key={p.path} path={p.path} nest>
                <Lazy>{p.render()}</Lazy>
              </Route>
            ))}
            <Route path="/">
              <Grid gap="md" mt="xs">
                <Grid.Col span={{ base: 12, md: 4 }}>
                  <Stack gap="sm" className="side-controls">
                    <MemoLocationControls
                      label={settings.label}
                      precision={location.precision}
                      locating={location.locating}
                      onGps={stable.onGps}
                      onAddress={stable.onAddress}
                    />
                    <MemoQuickSearch busy={quickSearch.busy} onFind={stable.onFind} />
                    <MemoScanControls
                      settings={settings}
                      onChange={location.patchSettings}
                      scanning={scan.scanning}
                      onScan={stable.onScan}
                      scanned={scan.scanned}
                      territories={territories}
                      territory={scan.territory}
                      onTerritory={scan.setTerritoryId}
                    />
                  </Stack>
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 8 }}>
                  <Stack gap="sm">
                    <div className="map-wrap" ref={mapWrap}>
                      <MapArea
                        center={{ lat: settings.lat, lng: settings.lng }}
                        radiusMiles={settings.radiusMiles}
                        prospects={scan.list.data?.prospects ?? EMPTY_LIST.prospects}
                        tileUrl={config.data?.map.tileUrl ?? ''}
                        tileAttribution={config.data?.map.tileAttribution ?? ''}
                        dataAttribution={config.data?.map.dataAttribution ?? ''}
                        onPick={location.onMapPick}
                        onCenter={location.onMapCenter}
                        focus={focus}
                        pipeline={cards.pipelineById}
                        meId={me.id}
                        territories={territories}
                        scanTerritory={scan.territory}
                      />
                      {scan.scanning && <ScanOverlay progress={scan.progressLine} />}
                    </div>
                    {location.picked && <PickedPoint picked={location.picked} onSet={location.moveCenter} />}
                    <ScreenTabs tabs={tabs} tab={tab} onTab={setTab} />
                  </Stack>
                </Grid.Col>
              </Grid>
            </Route>
            {/* An address that is no page of this user's (an admin page for a rep, a mistyped one). */}
            <Route>
              <Redirect to="/" replace />
            </Route>
          </Switch>
        </Container>
        <HelpDialog opened={account.helpOpen} onClose={account.closeHelp} />
        <InstallPrompt
          dismissed={me.installPromptDismissed}
          blocked={account.helpOpen}
          onDontAskAgain={account.dontAskToInstall}
        />
        <StrategyHost prospect={cards.strategyFor} onClose={cards.closeStrategy} />
      </div>
    </MainScreenContext.Provider>
  );
}

/** The lists under the map; on a phone they stay at the top of the screen while a list scrolls. */
function ScreenTabs({ tabs, tab, onTab }: { tabs: ScreenTab[]; tab: string; onTab: (tab: string) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  return (
    <Tabs
      value={tab}
      onChange={(v) => {
        onTab(v ?? 'prospects');
        // From far down a list (the tabs stuck at the top), the new tab opens at its start.
        const top = ref.current?.getBoundingClientRect().top ?? 0;
        if (top < 0) ref.current?.scrollIntoView({ block: 'start' });
      }}
      keepMounted={false}
      className="screen-tabs"
      ref={ref}
    >
      <Tabs.List>
        {tabs.map((t) => (
          <TabLabel key={t.value} tab={t} />
        ))}
      </Tabs.List>
      {tabs.map((t) => (
        <Tabs.Panel key={t.value} value={t.value} pt="sm">
          <Lazy>{t.render()}</Lazy>
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/** A tab or page may load its code lazily. */
function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading" />}>{children}</Suspense>;
}

function TabLabel({ tab }: { tab: ScreenTab }) {
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
