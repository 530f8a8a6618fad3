// Importing Overture Maps places from the Business Data section: a .parquet file from this computer (uploaded with
// its progress shown) or one already on the server, by its path. The import itself runs as a job whose progress
// the section shows like a region refresh's.
import { Button, FileInput, Group, Progress, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useDialogs } from '../dialogs';
import { messageOf } from './common';
import { areasApi } from './areasApi';
import type { RefreshStarted } from '../../core/api';

export function OvertureImport({ onStarted }: { onStarted: (started: RefreshStarted) => void }) {
  const { notify } = useDialogs();
  const [file, setFile] = useState<File | null>(null);
  const [path, setPath] = useState('');
  const [sent, setSent] = useState<number | null>(null);
  const upload = useMutation({
    mutationFn: (f: File) => areasApi.overtureUpload(f, setSent),
    onSuccess: (started) => {
      setFile(null);
      onStarted(started);
    },
    onError: (error) => notify(messageOf(error), 'error'),
    onSettled: () => setSent(null),
  });
  const fromServer = useMutation({
    mutationFn: areasApi.overtureFile,
    onSuccess: (started) => {
      setPath('');
      onStarted(started);
    },
    onError: (error) => notify(messageOf(error), 'error'),
  });
  const submitUpload = (e: FormEvent) => {
    e.preventDefault();
    if (file) upload.mutate(file);
  };
  const submitPath = (e: FormEvent) => {
    e.preventDefault();
    fromServer.mutate(path);
  };
  return (
    <Stack gap="xs" mt="sm" data-testid="overture-import">
      <Text fw={600} size="sm">
        Overture Maps places
      </Text>
      <Text size="xs" c="dimmed">
        A places file of an Overture Maps release (GeoParquet, .parquet) adds phones and websites; its
        businesses are merged with the OpenStreetMap ones they describe.
      </Text>
      <form onSubmit={submitUpload}>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <FileInput
            label="File from this computer"
            placeholder="Choose a .parquet file"
            accept=".parquet"
            value={file}
            onChange={setFile}
            clearable
            // Mantine's placeholder grey is too faint to read on white (WCAG contrast).
            styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
            style={{ flex: '1 1 16rem' }}
          />
          <Button type="submit" loading={upload.isPending} disabled={!file}>
            Upload and Import
          </Button>
        </Group>
      </form>
      {sent !== null && (
        <div>
          <Text size="xs" role="status" aria-live="polite">
            Uploading {file?.name ?? 'the file'}: {Math.floor(sent * 100)}%
          </Text>
          <Progress size="sm" value={sent * 100} aria-label="Upload progress" />
        </div>
      )}
      <form onSubmit={submitPath}>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label="Or a file on the server"
            description="Its full path, for a file too large to upload"
            placeholder="/data/overture/places.parquet"
            value={path}
            onChange={(e) => setPath(e.currentTarget.value)}
            maxLength={1000}
            style={{ flex: '1 1 16rem' }}
          />
          <Button type="submit" variant="light" loading={fromServer.isPending} disabled={!path.trim()}>
            Import
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
