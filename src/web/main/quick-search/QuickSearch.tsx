import { useState } from 'react';
import { Button, Group, NativeSelect, Paper, Stack, TextInput, Title } from '@mantine/core';

export function QuickSearch(props: {
  busy: boolean;
  onFind: (mode: 'business' | 'category', text: string) => void;
}) {
  const [mode, setMode] = useState<'business' | 'category'>('business');
  const [text, setText] = useState('');
  return (
    <Paper withBorder p="sm" radius="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          // SPEC §5: empty text is ignored.
          if (text.trim()) props.onFind(mode, text.trim());
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
            <Button type="submit" loading={props.busy}>
              Find
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
