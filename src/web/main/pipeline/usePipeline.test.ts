import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { PipelineEntry } from '../../api';
import { PIPELINE_KEY, applyPipelineEntry, entryFromNotice } from './usePipeline';

vi.mock('../../api', () => ({ api: {} }));

const entry = (businessId: string, over: Partial<PipelineEntry> = {}): PipelineEntry => ({
  businessId,
  label: businessId,
  ownerId: 'u1',
  ownerName: 'Ann Rep',
  stage: 'Meeting set',
  since: '2026-11-03T15:00:00.000Z',
  updatedAt: '2026-11-03T15:00:00.000Z',
  ...over,
});

describe('the pipeline list on a live notice', () => {
  it('adds, replaces and (released) removes the one entry', () => {
    const client = new QueryClient();
    client.setQueryData(PIPELINE_KEY, [entry('a'), entry('b')]);
    applyPipelineEntry(client, entry('c'));
    applyPipelineEntry(client, entry('a', { stage: 'Proposal' }));
    applyPipelineEntry(client, entry('b', { ownerId: null, ownerName: null, stage: 'New' }));
    expect(client.getQueryData<PipelineEntry[]>(PIPELINE_KEY)?.map((e) => [e.businessId, e.stage])).toEqual([
      ['c', 'Meeting set'],
      ['a', 'Proposal'],
    ]);
  });

  it('leaves a list that was never loaded alone', () => {
    const client = new QueryClient();
    applyPipelineEntry(client, entry('a'));
    expect(client.getQueryData(PIPELINE_KEY)).toBeUndefined();
  });

  it('takes only a notice item shaped like an entry', () => {
    expect(entryFromNotice(entry('a'))).toEqual(entry('a'));
    expect(entryFromNotice({ businessId: 'a' })).toBeNull();
    expect(entryFromNotice({ ...entry('a'), ownerId: 3 })).toBeNull();
    expect(entryFromNotice(undefined)).toBeNull();
  });
});
