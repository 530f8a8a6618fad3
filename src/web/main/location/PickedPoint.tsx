import { Button, Group, Text } from '@mantine/core';

/** A point clicked on the map, offered as the new centre. */
export function PickedPoint({
  picked,
  onSet,
}: {
  picked: { lat: number; lng: number };
  onSet: (lat: number, lng: number) => void;
}) {
  return (
    <Group gap="xs" data-testid="picked-point">
      <Text size="sm">
        Clicked at {picked.lat.toFixed(5)}, {picked.lng.toFixed(5)}
      </Text>
      <Button size="compact-xs" variant="light" onClick={() => onSet(picked.lat, picked.lng)}>
        Set as center
      </Button>
    </Group>
  );
}
