// Create or edit a territory: its name, its reps, and its area, drawn on the map or given as ZIP codes. The server
// checks the area (valid, not crossing itself, not too large) and its 400 message shows here as it comes.
import {
  Button,
  Grid,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Component, lazy, Suspense, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../../api';
import { useDialogs } from '../../dialogs';
import { DEFAULT_SETTINGS } from '../../defaults';
import { useConfig, useMe } from '../../session';
import { TERRITORIES_KEY, type Territory, type TerritoryArea } from '../../main/territories/territories';
import { ADMIN_KEYS, adminApi } from '../api';
import { ErrorAlert, messageOf } from '../common';
import { territoryAdminApi, type TerritoryInput } from './api';
import type { DrawControls, DrawState } from './DrawMap';

const DrawMap = lazy(() => import('./DrawMap'));

type How = 'draw' | 'zips';

/** Five digits each; typed or pasted, separated by commas, spaces or new lines. */
const ZIP_SPLIT = [',', ' ', ';', '\n'];

class MapBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('The drawing map failed to load', error);
  }
  override render() {
    return this.state.failed ? (
      <div className="map-placeholder territory-map" role="status">
        The map could not be loaded. Type ZIP codes instead.
      </div>
    ) : (
      this.props.children
    );
  }
}

function drawHint(state: DrawState, area: TerritoryArea | null): string {
  if (state.drawing) {
    return state.points < 3
      ? `Click the map to place the corners (${state.points} placed; 3 at least).`
      : `${state.points} corners placed. Finish, a double-click or the first corner closes the outline.`;
  }
  if (state.editing)
    return 'Drag a corner to move it; drag a middle point to add one. Click Done when finished.';
  if (!area) return 'Click Draw outline, then click the map at each corner of the territory.';
  const parts = area.type === 'Polygon' ? 1 : area.coordinates.length;
  return parts === 1 ? 'Outline drawn.' : `${parts} outlines drawn.`;
}

/** The drawing half of the form: a place to go to, the drawing buttons, what to do next, and the map. */
function DrawPanel(props: {
  initial: TerritoryArea | null;
  others: readonly Territory[];
  area: TerritoryArea | null;
  onArea: (area: TerritoryArea | null) => void;
  drawState: DrawState;
  onDrawState: (state: DrawState) => void;
}) {
  const me = useMe();
  const config = useConfig();
  const { notify } = useDialogs();
  const [place, setPlace] = useState('');
  const [finding, setFinding] = useState(false);
  const controls = useRef<DrawControls>(null);
  const { area, drawState } = props;
  const findPlace = async () => {
    if (!place.trim()) return;
    setFinding(true);
    try {
      const found = await api.geocode(place.trim());
      controls.current?.moveTo(found.lat, found.lng);
    } catch (error) {
      notify(messageOf(error), 'error');
    } finally {
      setFinding(false);
    }
  };

  const center = me.searchSettings ?? DEFAULT_SETTINGS;
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="wrap" align="flex-end">
        <TextInput
          label="Go to"
          placeholder="City, ZIP or address"
          value={place}
          onChange={(e) => setPlace(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void findPlace();
            }
          }}
          style={{ flex: '1 1 180px' }}
        />
        <Button variant="default" onClick={() => void findPlace()} loading={finding}>
          Go
        </Button>
      </Group>
      <Group gap="xs" wrap="wrap">
        <Button
          size="xs"
          onClick={() => controls.current?.draw()}
          disabled={drawState.drawing}
          data-testid="territory-draw"
        >
          {area ? 'Draw another outline' : 'Draw outline'}
        </Button>
        <Button
          size="xs"
          variant="light"
          onClick={() => controls.current?.addCenter()}
          disabled={!drawState.drawing}
          data-testid="territory-add-center"
        >
          Add corner at the centre
        </Button>
        <Button
          size="xs"
          variant="light"
          onClick={() => controls.current?.finish()}
          disabled={!drawState.drawing || drawState.points < 3}
          data-testid="territory-finish"
        >
          Finish
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={() => controls.current?.toggleEdit()}
          disabled={!area}
          aria-pressed={drawState.editing}
        >
          {drawState.editing ? 'Done' : 'Edit points'}
        </Button>
        <Button
          size="xs"
          variant="default"
          color="red"
          onClick={() => controls.current?.clear()}
          disabled={!area && !drawState.drawing}
        >
          Clear
        </Button>
      </Group>
      <Text
        size="sm"
        role="status"
        aria-live="polite"
        data-testid="territory-draw-hint"
        // Two lines kept for it, so the map does not move under the pointer when the text grows while drawing.
        style={{ minHeight: '3.1em' }}
      >
        {drawHint(drawState, area)}
      </Text>
      {/* While drawing, a crosshair marks the map's centre: where Add corner at the centre places one. */}
      <div className={drawState.drawing ? 'territory-map-wrap drawing' : 'territory-map-wrap'}>
        <MapBoundary>
          <Suspense
            fallback={
              <div className="map-placeholder territory-map" role="status">
                Loading the map...
              </div>
            }
          >
            <DrawMap
              initial={props.initial}
              others={props.others}
              center={{ lat: center.lat, lng: center.lng }}
              tileUrl={config.data?.map.tileUrl ?? ''}
              tileAttribution={config.data?.map.tileAttribution ?? ''}
              dataAttribution={config.data?.map.dataAttribution ?? ''}
              onChange={props.onArea}
              onState={props.onDrawState}
              controls={controls}
            />
          </Suspense>
        </MapBoundary>
      </div>
    </Stack>
  );
}

export function TerritoryForm({
  territory,
  others,
  onDone,
}: {
  /** The territory to edit, or null for a new one. */
  territory: Territory | null;
  others: readonly Territory[];
  onDone: (saved: Territory | null) => void;
}) {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const users = useQuery({ queryKey: ADMIN_KEYS.users, queryFn: adminApi.users });
  const [name, setName] = useState(territory?.name ?? '');
  const [repIds, setRepIds] = useState<string[]>(territory?.reps.map((r) => r.id) ?? []);
  const [how, setHow] = useState<How>(territory && territory.zips.length > 0 ? 'zips' : 'draw');
  const [area, setArea] = useState<TerritoryArea | null>(
    territory && territory.zips.length === 0 ? territory.area : null,
  );
  const [zips, setZips] = useState<string[]>(territory?.zips ?? []);
  const [drawState, setDrawState] = useState<DrawState>({ drawing: false, editing: false, points: 0 });
  const [problem, setProblem] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (body: TerritoryInput) =>
      territory ? territoryAdminApi.update(territory.id, body) : territoryAdminApi.create(body),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: TERRITORIES_KEY });
      notify(`Territory "${saved.name}" saved.`, 'success');
      onDone(saved);
    },
  });

  // Every user may hold a territory; suspended ones are left out of new choices but kept when already assigned.
  const repChoices = (users.data ?? [])
    .filter((u) => !u.suspended || repIds.includes(u.id))
    .map((u) => ({ value: u.id, label: u.name ? `${u.name} (${u.email})` : u.email }));
  // Reps of the territory the user list does not hold (yet): still shown by the name the territory gives.
  for (const r of territory?.reps ?? []) {
    if (!repChoices.some((c) => c.value === r.id)) repChoices.push({ value: r.id, label: r.name });
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.reset();
    if (!name.trim()) return setProblem('Give the territory a name.');
    if (how === 'draw' && drawState.drawing) return setProblem('Finish the outline first.');
    if (how === 'draw' && !area) return setProblem('Draw the outline on the map first.');
    if (how === 'zips' && zips.length === 0) return setProblem('Type at least one ZIP code.');
    setProblem(null);
    save.mutate({
      name: name.trim(),
      repIds,
      ...(how === 'draw' && area ? { area } : { zips }),
    });
  };

  const error = problem ?? (save.isError ? messageOf(save.error) : null);
  return (
    <Paper withBorder p="sm" radius="md" data-testid="territory-form">
      <form onSubmit={submit} noValidate>
        {/* On a wide screen the map sits beside the fields; on a phone, under them. */}
        <Grid gap="md">
          <Grid.Col span={{ base: 12, lg: how === 'draw' ? 4 : 12 }}>
            <Stack gap="sm">
              <Title order={4} size="h5">
                {territory ? `Edit ${territory.name}` : 'New Territory'}
              </Title>
              <TextInput
                label="Name"
                required
                maxLength={100}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                data-testid="territory-name"
              />
              <MultiSelect
                label="Reps"
                description="Who works this territory; a rep may hold several."
                placeholder={repIds.length === 0 ? 'Pick reps' : undefined}
                data={repChoices}
                value={repIds}
                onChange={setRepIds}
                searchable
                clearable
                nothingFoundMessage="No user by that name"
                comboboxProps={{ zIndex: 1000 }}
                data-testid="territory-reps"
              />
              <div>
                <Text size="sm" fw={500} id="territory-how">
                  Area
                </Text>
                <SegmentedControl
                  aria-labelledby="territory-how"
                  value={how}
                  onChange={(v) => setHow(v)}
                  data={[
                    { value: 'draw', label: 'Draw on the map' },
                    { value: 'zips', label: 'ZIP codes' },
                  ]}
                  mt={4}
                />
              </div>
              {how === 'zips' && (
                <TagsInput
                  label="ZIP codes"
                  description="Five digits each. Type or paste them, separated by commas or spaces."
                  value={zips}
                  onChange={(v) => setZips([...new Set(v.map((z) => z.trim()).filter(Boolean))])}
                  splitChars={ZIP_SPLIT}
                  acceptValueOnBlur
                  clearable
                  maxTags={200}
                  data-testid="territory-zips"
                />
              )}
              {error && <ErrorAlert message={error} />}
              <Group gap="xs">
                <Button type="submit" loading={save.isPending} data-testid="territory-save">
                  Save Territory
                </Button>
                <Button variant="default" onClick={() => onDone(null)}>
                  Cancel
                </Button>
              </Group>
            </Stack>
          </Grid.Col>
          {how === 'draw' && (
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <DrawPanel
                initial={territory && territory.zips.length === 0 ? territory.area : null}
                others={others}
                area={area}
                onArea={setArea}
                drawState={drawState}
                onDrawState={setDrawState}
              />
            </Grid.Col>
          )}
        </Grid>
      </form>
    </Paper>
  );
}
