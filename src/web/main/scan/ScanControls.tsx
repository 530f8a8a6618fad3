import { useState } from 'react';
import {
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Slider,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useCardView } from '../../prospects/cardView';
import { useOnline } from '../../offline/useOnline';
import { NEEDS_CONNECTION } from '../../offline/texts';
import { ALL_GROUPS, CATEGORY_GROUPS, type CategoryGroup } from '../../../core/categories';
import type { SearchSettings } from '../../api';
import { COUNT_MAX, COUNT_MIN, RADIUS_MAX, RADIUS_MIN, RADIUS_STEP } from '../../defaults';
import { SCANNING } from '../../texts';
import type { Territory } from '../territories/territories';

export function ScanControls(props: {
  settings: SearchSettings;
  onChange: (patch: Partial<SearchSettings>) => void;
  scanning: boolean;
  onScan: () => void;
  /** A scan of this visit put results on screen: on a phone the settings then fold into one line. */
  scanned: boolean;
  /** The user's territories: with any, the scan may cover a whole one instead of the circle. */
  territories: readonly Territory[];
  /** The territory the next scan covers, or null for the circle (the default). */
  territory: Territory | null;
  onTerritory: (id: string | null) => void;
}) {
  const { settings, territory } = props;
  const online = useOnline();
  const { compact } = useCardView();
  const [unfolded, setUnfolded] = useState(false);
  const folded = compact && props.scanned && !unfolded;
  const selected = new Set(settings.categories);
  const allSelected = ALL_GROUPS.every((g) => selected.has(g));
  const someSelected = !allSelected && ALL_GROUPS.some((g) => selected.has(g));
  const toggle = (group: CategoryGroup, on: boolean) => {
    const next = ALL_GROUPS.filter((g) => (g === group ? on : selected.has(g)));
    props.onChange({ categories: next });
  };
  const scanButton = (
    <Button
      size={folded ? 'xs' : 'md'}
      onClick={() => {
        setUnfolded(false);
        props.onScan();
      }}
      disabled={props.scanning || !online}
      title={online ? undefined : NEEDS_CONNECTION}
      data-testid="scan-button"
    >
      {props.scanning ? SCANNING : territory ? 'Scan Territory' : 'Scan Area'}
    </Button>
  );
  if (folded) {
    const groups = settings.categories.length;
    return (
      <Paper withBorder p="xs" radius="md" data-testid="scan-settings-folded">
        <Group gap="xs" wrap="nowrap" justify="space-between">
          <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }} data-testid="scan-settings-line">
            <strong>{territory ? territory.name : `${settings.radiusMiles.toFixed(1)} mi`}</strong> ·{' '}
            {settings.count} prospects ·{' '}
            {allSelected ? 'all categories' : groups === 1 ? '1 category' : `${groups} categories`}
          </Text>
          <Group gap={6} wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              onClick={() => setUnfolded(true)}
              aria-label="Change scan settings"
            >
              Change
            </Button>
            {scanButton}
          </Group>
        </Group>
      </Paper>
    );
  }
  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h5">
          Scan Settings
        </Title>
        {props.territories.length > 0 && (
          <TerritoryChoice
            territories={props.territories}
            territory={territory}
            onTerritory={props.onTerritory}
          />
        )}
        {!territory && (
          <div>
            <Text size="sm" id="radius-label">
              Radius: <strong>{settings.radiusMiles.toFixed(1)} miles</strong>
            </Text>
            <Slider
              min={RADIUS_MIN}
              max={RADIUS_MAX}
              step={RADIUS_STEP}
              value={settings.radiusMiles}
              onChange={(v) => props.onChange({ radiusMiles: Math.round(v * 10) / 10 })}
              label={(v) => `${v.toFixed(1)} mi`}
              thumbProps={{ 'aria-labelledby': 'radius-label' }}
              thumbSize={22}
              mt={4}
            />
          </div>
        )}
        <div>
          <Text size="sm" id="count-label">
            Prospects: <strong>{settings.count}</strong>
          </Text>
          <Slider
            min={COUNT_MIN}
            max={COUNT_MAX}
            step={1}
            value={settings.count}
            onChange={(v) => props.onChange({ count: v })}
            thumbProps={{ 'aria-labelledby': 'count-label' }}
            thumbSize={22}
            mt={4}
          />
        </div>
        <fieldset className="plain-fieldset">
          <legend>
            <Text size="sm" fw={500}>
              Categories
            </Text>
          </legend>
          <Checkbox
            label="Select all"
            checked={allSelected}
            indeterminate={someSelected}
            onChange={(e) => props.onChange({ categories: e.currentTarget.checked ? [...ALL_GROUPS] : [] })}
            mb={6}
            mt={4}
          />
          <SimpleGrid cols={2} spacing={6} verticalSpacing={6}>
            {ALL_GROUPS.map((group) => (
              <Checkbox
                key={group}
                label={CATEGORY_GROUPS[group].label}
                checked={selected.has(group)}
                onChange={(e) => toggle(group, e.currentTarget.checked)}
              />
            ))}
          </SimpleGrid>
        </fieldset>
        <Switch
          label="Spread results out"
          description="Among similar scores, skip businesses within 0.25 mile of a higher-ranked one"
          checked={settings.spreadOut === true}
          onChange={(e) => props.onChange({ spreadOut: e.currentTarget.checked })}
        />
        {scanButton}
        {!online && (
          <Text size="sm" c="dimmed" data-testid="scan-offline">
            {NEEDS_CONNECTION}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** "Scan a territory": off scans the circle around the location (the default); on, the chosen territory, whole. */
function TerritoryChoice(props: {
  territories: readonly Territory[];
  territory: Territory | null;
  onTerritory: (id: string | null) => void;
}) {
  const { territories, territory } = props;
  return (
    <Stack gap={6}>
      <Switch
        label="Scan a territory"
        description={
          territory ? 'Every business inside it is ranked' : 'Off: the circle around your location'
        }
        checked={territory !== null}
        onChange={(e) => props.onTerritory(e.currentTarget.checked ? (territories[0]?.id ?? null) : null)}
        data-testid="scan-territory-switch"
      />
      {territory && (
        <NativeSelect
          label="Territory"
          data={territories.map((t) => ({ value: t.id, label: t.name }))}
          value={territory.id}
          onChange={(e) => props.onTerritory(e.currentTarget.value)}
          data-testid="scan-territory"
        />
      )}
    </Stack>
  );
}
