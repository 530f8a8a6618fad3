// Business Data: which areas have imported businesses -- drawn on a map, listed beside it (under it on a phone)
// with their businesses, the date of their data and when they were imported -- and refreshing a region of the
// download mirror, starting a new one, or importing an Overture places file (OvertureImport.tsx), as background
// jobs whose progress shows here.
import { Badge, Button, Group, Paper, Progress, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Component, lazy, Suspense, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useDialogs } from '../dialogs';
import { formatDateTime } from '../format';
import { useConfig } from '../session';
import { ErrorAlert, Loading, messageOf } from './common';
import { AREA_KEYS, areasApi, type DataArea, type RegionRefresh } from './areasApi';
import { OvertureImport } from './OvertureImport';
import type { RefreshStarted } from '../../core/api';

const AreasMap = lazy(() => import('./AreasMap'));

const count = (n: number) => n.toLocaleString('en-US');
const size = (bytes: number) =>
  bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1e3)} KB`;
const dateOnly = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString();
};

/** The map's stand-in while Leaflet loads, and if it fails to (the list still says everything). */
function MapPlaceholder({ text }: { text: string }) {
  return (
    <div className="map-placeholder areas-map" role="status">
      {text}
    </div>
  );
}

class MapBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('The areas map failed to load', error);
  }
  override render() {
    return this.state.failed ? <MapPlaceholder text="The map could not be loaded." /> : this.props.children;
  }
}

/** One refresh's state in plain words, polled until it ends. */
function RefreshStatus({
  initial,
  onDone,
}: {
  initial: RegionRefresh;
  onDone: (final: RegionRefresh) => void;
}) {
  const job = useQuery({
    queryKey: AREA_KEYS.job(initial.jobId),
    queryFn: () => areasApi.job(initial.jobId),
    initialData: initial,
    refetchInterval: (q) => {
      const s = q.state.data?.status;
      return s === 'complete' || s === 'error' ? false : 1000;
    },
  });
  const r = job.data;
  const finished = r.status === 'complete' || r.status === 'error';
  useEffect(() => {
    if (finished) onDone(r);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when it ends
  }, [finished]);
  let line: string;
  let percent: number | null = null;
  if (r.status === 'pending') line = `${r.region}: waiting to start...`;
  else if (r.status === 'complete' && r.result) {
    line =
      `${r.region}: done. ${count(r.result.businesses)} businesses imported; ${count(r.result.total)} stored in all.` +
      (r.result.note ? ` ${r.result.note}` : '');
  } else if (r.status === 'error') line = `${r.region} failed: ${r.error ?? 'unknown error'}`;
  else if (r.progress?.stage === 'reading') {
    percent = r.progress.percent;
    line = `${r.region}: reading places (${r.progress.percent}%), ${count(r.progress.places)} kept so far...`;
  } else if (r.progress?.stage === 'merging') {
    line = `${r.region}: merging with the businesses already stored...`;
  } else if (r.progress?.stage === 'importing') {
    percent = r.progress.percent;
    line = `${r.region}: importing (pass ${r.progress.pass} of 2, ${r.progress.percent}%), ${count(r.progress.businesses)} businesses so far...`;
  } else if (r.progress?.stage === 'downloading') {
    const { bytes, total } = r.progress;
    percent = total > 0 ? Math.min(100, Math.floor((bytes / total) * 100)) : null;
    line =
      total > 0
        ? `${r.region}: downloading ${percent}% (${size(bytes)} of ${size(total)})...`
        : `${r.region}: downloading (${size(bytes)})...`;
  } else line = `${r.region}: starting...`;
  return (
    <Paper withBorder p="xs" radius="md" data-testid="area-refresh" data-status={r.status}>
      <Text
        size="sm"
        c={r.status === 'error' ? 'red.8' : undefined}
        role={finished ? 'status' : undefined}
        aria-live="polite"
      >
        {line}
      </Text>
      {!finished && (
        <Progress
          mt={6}
          size="sm"
          value={percent ?? 100}
          animated={percent === null}
          striped={percent === null}
          aria-label={`Progress of ${r.region}`}
        />
      )}
    </Paper>
  );
}

function AreaItem(props: {
  area: DataArea;
  busy: boolean;
  picked: boolean;
  onShow: () => void;
  onRefresh: (region: string) => void;
}) {
  const { area: a } = props;
  return (
    <Paper
      withBorder
      p="xs"
      radius="md"
      data-testid="area-item"
      style={props.picked ? { borderColor: '#e8590c' } : undefined}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Text fw={700} size="sm" style={{ wordBreak: 'break-word' }}>
          {a.name}
        </Text>
        <Badge variant="light" color="blue" style={{ flexShrink: 0 }}>
          {count(a.businesses)} businesses
        </Badge>
      </Group>
      <Text size="xs" c="dimmed" mt={2}>
        Data of {dateOnly(a.dataDate)}
        {a.dataDateFrom === 'extract' ? ' (the extract’s date)' : ' (the import’s date)'} · imported{' '}
        {formatDateTime(a.importedAt)}
      </Text>
      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
        From {a.source}
      </Text>
      {!a.bbox && (
        <Text size="xs" c="dimmed">
          No businesses to draw on the map.
        </Text>
      )}
      <Group gap="xs" mt={6}>
        {a.bbox && (
          <Button size="xs" variant="default" onClick={props.onShow}>
            Show on Map
          </Button>
        )}
        {a.region ? (
          <Button
            size="xs"
            variant="light"
            disabled={props.busy}
            onClick={() => props.onRefresh(a.region!)}
            aria-label={`Refresh ${a.name}`}
          >
            {props.busy ? 'Refreshing...' : 'Refresh'}
          </Button>
        ) : (
          <Text size="xs" c="dimmed">
            {a.key.startsWith('overture:')
              ? 'Imported from an Overture file: import it again below, or with npm run import:overture.'
              : 'Imported from a file: import it again with npm run import:osm.'}
          </Text>
        )}
      </Group>
    </Paper>
  );
}

/** Business Data: the areas with imported businesses, on a map and in a list, and region refreshes. */
export function AreasSection() {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const config = useConfig();
  const [refreshes, setRefreshes] = useState<RegionRefresh[]>([]);
  const [region, setRegion] = useState('');
  const [focus, setFocus] = useState<{ key: string; nonce: number } | null>(null);
  const list = useQuery({
    queryKey: AREA_KEYS.areas,
    queryFn: areasApi.list,
    // While a refresh runs (started here or by another admin), the list follows it.
    refetchInterval: (q) => ((q.state.data?.refreshes.length ?? 0) > 0 ? 2000 : false),
  });
  // Refreshes started elsewhere (another admin, a reload of this page) show here too, and stay once they end.
  const serverRefreshes = list.data?.refreshes;
  const [seenServer, setSeenServer] = useState(serverRefreshes);
  if (serverRefreshes !== seenServer) {
    setSeenServer(serverRefreshes);
    const known = new Set(refreshes.map((r) => r.jobId));
    const added = (serverRefreshes ?? []).filter((r) => !known.has(r.jobId));
    if (added.length > 0) setRefreshes([...refreshes, ...added]);
  }
  const follow = (started: RefreshStarted) =>
    setRefreshes((mine) => [
      ...mine.filter((r) => r.jobId !== started.jobId),
      {
        jobId: started.jobId,
        region: started.region,
        status: 'pending',
        progress: null,
        result: null,
        error: null,
        startedAt: new Date().toISOString(),
      },
    ]);
  const start = useMutation({
    mutationFn: areasApi.refresh,
    onSuccess: (started) => {
      setRegion('');
      follow(started);
    },
    onError: (error) => notify(messageOf(error), 'error'),
  });
  const running = new Set(
    refreshes
      .filter((r) => r.status === 'pending' || r.status === 'running')
      .map((r) => r.region.toLowerCase()),
  );
  const done = (final: RegionRefresh) => {
    setRefreshes((list) => list.map((r) => (r.jobId === final.jobId ? final : r)));
    void queryClient.invalidateQueries({ queryKey: AREA_KEYS.areas });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate(region);
  };
  const areas = list.data?.areas ?? [];
  const tiles = config.data?.map;
  return (
    <Stack gap="xs" data-testid="areas-section">
      {list.isPending && <Loading label="Loading the areas with data..." />}
      {list.isError && <ErrorAlert message={messageOf(list.error)} />}
      {list.data && (
        <Text size="sm" data-testid="areas-summary">
          {areas.length === 0
            ? 'No business data imported yet: scans use the other place sources. Download a region below.'
            : `${count(list.data.businesses)} businesses stored in ${areas.length} ${areas.length === 1 ? 'area' : 'areas'}.`}
        </Text>
      )}
      {list.data && areas.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          <div className="map-wrap areas-map-wrap">
            <MapBoundary>
              <Suspense fallback={<MapPlaceholder text="Loading map..." />}>
                <AreasMap
                  areas={areas}
                  tileUrl={tiles?.tileUrl ?? ''}
                  tileAttribution={tiles?.tileAttribution ?? ''}
                  dataAttribution={tiles?.dataAttribution ?? ''}
                  focus={focus}
                  onPick={(key) => setFocus({ key, nonce: Date.now() })}
                />
              </Suspense>
            </MapBoundary>
          </div>
          <Stack gap="xs" className="areas-list" role="list" aria-label="Areas with business data">
            {areas.map((a) => (
              <div role="listitem" key={a.key}>
                <AreaItem
                  area={a}
                  picked={focus?.key === a.key}
                  busy={(a.region !== null && running.has(a.region.toLowerCase())) || start.isPending}
                  onShow={() => setFocus({ key: a.key, nonce: Date.now() })}
                  onRefresh={(r) => start.mutate(r)}
                />
              </div>
            ))}
          </Stack>
        </SimpleGrid>
      )}
      {refreshes.map((r) => (
        <RefreshStatus key={r.jobId} initial={r} onDone={done} />
      ))}
      <form onSubmit={submit}>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label="Region"
            description="As for npm run import:osm -- --region: us/alabama, canada/ontario, europe/monaco"
            placeholder="us/alabama"
            value={region}
            onChange={(e) => setRegion(e.currentTarget.value)}
            maxLength={200}
            style={{ flex: '1 1 16rem' }}
          />
          <Button type="submit" loading={start.isPending} disabled={!region.trim()}>
            Download and Import
          </Button>
        </Group>
      </form>
      <OvertureImport onStarted={follow} />
    </Stack>
  );
}
