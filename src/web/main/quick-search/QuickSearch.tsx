import { useState } from 'react';
import { Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useOnline } from '../../offline/useOnline';
import { NEEDS_CONNECTION } from '../../offline/texts';

export function QuickSearch(props: {
  busy: boolean;
  onFind: (mode: 'business' | 'category', text: string) => void;
}) {
  const [mode, setMode] = useState<'business' | 'category'>('business');
  const [text, setText] = useState('');
  const online = useOnline();
  return (
    <Paper withBorder p="sm" radius="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          // Empty text is ignored.
          if (text.trim() && online) props.onFind(mode, text.trim());
        }}
      >
        <Stack gap="xs">
          <Title order={2} size="h5">
            Quick Search
          </Title>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <NativeSelect
              label="Search by"
              value={mode}
              onChange={(e) => setMode(e.currentTarget.value === 'category' ? 'category' : 'business')}
              data={[
                { value: 'business', label: 'Business' },
                { value: 'category', label: 'Category' },
              ]}
              w={120}
            />
            <TextInput
              label={mode === 'business' ? 'Name' : 'Category'}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button
              type="submit"
              loading={props.busy}
              disabled={!online}
              title={online ? undefined : NEEDS_CONNECTION}
            >
              Find
            </Button>
          </Group>
          {!online && (
            <Text size="sm" c="dimmed" data-testid="quick-search-offline">
              {NEEDS_CONNECTION}
            </Text>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
