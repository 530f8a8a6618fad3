import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { PRECISION_NOTES, type GeocodePrecision } from '../../../core/addresses';

export function LocationControls(props: {
  label: string;
  /** How exactly a typed address was found (null: a point from the map or GPS). */
  precision: GeocodePrecision | null;
  locating: boolean;
  onGps: () => void;
  onAddress: (address: string) => Promise<boolean>;
}) {
  const [address, setAddress] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      if (await props.onAddress(address)) setAddress('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="xs">
        <Title order={2} size="h5">
          Location
        </Title>
        <Text size="sm" data-testid="location-label" aria-live="polite">
          <Text span c="dimmed" size="sm">
            Current location:{' '}
          </Text>
          {props.label}
        </Text>
        {props.precision && (
          <Text
            size="xs"
            data-testid="location-precision"
            // Dark enough for small text on white (contrast 6.4 and 6.3).
            c={props.precision === 'street' || props.precision === 'city' ? '#a34000' : '#0b6e4f'}
          >
            {PRECISION_NOTES[props.precision]}
          </Text>
        )}
        <Button variant="light" onClick={props.onGps} loading={props.locating}>
          Use GPS
        </Button>
        <form onSubmit={(e) => void submit(e)}>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label="Address"
              placeholder="Street, city or ZIP"
              value={address}
              onChange={(e) => setAddress(e.currentTarget.value)}
              autoComplete="street-address"
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={busy}>
              Set Address
            </Button>
          </Group>
        </form>
      </Stack>
    </Paper>
  );
}
