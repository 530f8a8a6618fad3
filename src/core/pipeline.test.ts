import { describe, expect, it } from 'vitest';
import {
  ALLOWED_MOVES,
  CLAIM_NEEDS_STAGE,
  PIPELINE_STAGES,
  WON_NEEDS_PROPOSAL,
  callLogEffect,
  canMove,
  nextStages,
  decideStageChange,
  formatSince,
  isPipelineStage,
  isStale,
  pipelineLine,
  releaseCutoff,
  type PipelineState,
} from './pipeline';

const owned = (stage: PipelineState['stage'], ownerId = 'a', ownerName = 'Ann Rep'): PipelineState => ({
  ownerId,
  ownerName,
  stage,
});

describe('pipeline stages', () => {
  it('lists the stages in order', () => {
    expect(PIPELINE_STAGES).toEqual(['New', 'Contacted', 'Meeting set', 'Proposal', 'Won', 'Lost']);
    expect(isPipelineStage('Meeting set')).toBe(true);
    expect(isPipelineStage('meeting set')).toBe(false);
  });

  it('allows open stages to move anywhere, Won only to Lost or New, Lost back to Contacted', () => {
    expect(canMove('Contacted', 'Proposal')).toBe(true);
    expect(canMove('Proposal', 'Meeting set')).toBe(true);
    expect(canMove('Won', 'Contacted')).toBe(false);
    expect(canMove('Won', 'Lost')).toBe(true);
    expect(canMove('Lost', 'Contacted')).toBe(true);
    expect(canMove('Lost', 'Won')).toBe(false);
    for (const stage of PIPELINE_STAGES) expect(ALLOWED_MOVES[stage]).not.toContain(stage);
  });
});

describe('decideStageChange', () => {
  it('claims an unclaimed business with any stage but New, and but Won for a rep', () => {
    expect(decideStageChange(null, 'b', 'Meeting set')).toEqual({ ok: true, kind: 'claim' });
    const unclaimed: PipelineState = { ownerId: null, ownerName: null, stage: 'New' };
    expect(decideStageChange(unclaimed, 'b', 'Won')).toEqual({
      ok: false,
      status: 400,
      error: WON_NEEDS_PROPOSAL,
    });
    expect(decideStageChange(unclaimed, 'b', 'Won', true)).toEqual({ ok: true, kind: 'claim' });
    expect(decideStageChange(null, 'b', 'New')).toEqual({ ok: false, status: 400, error: CLAIM_NEEDS_STAGE });
  });

  it('lets a rep reach Won only from Proposal; an admin may jump', () => {
    for (const from of ['Contacted', 'Meeting set'] as const) {
      expect(decideStageChange(owned(from), 'a', 'Won')).toEqual({
        ok: false,
        status: 400,
        error: WON_NEEDS_PROPOSAL,
      });
      expect(decideStageChange(owned(from), 'a', 'Won', true)).toEqual({ ok: true, kind: 'move' });
    }
    expect(decideStageChange(owned('Proposal'), 'a', 'Won')).toEqual({ ok: true, kind: 'move' });
    expect(nextStages(null, false)).toEqual(['Contacted', 'Meeting set', 'Proposal', 'Lost']);
    expect(nextStages(null, true)).toEqual(['Contacted', 'Meeting set', 'Proposal', 'Won', 'Lost']);
    expect(nextStages('Meeting set', false)).toEqual(['New', 'Contacted', 'Proposal', 'Lost']);
    expect(nextStages('Proposal', false)).toContain('Won');
  });

  it("refuses another rep's business with a 409 naming the owner", () => {
    expect(decideStageChange(owned('Contacted'), 'b', 'Proposal')).toEqual({
      ok: false,
      status: 409,
      error: 'Ann Rep is working this business. Ask Ann Rep or an admin to reassign it.',
    });
  });

  it('lets the owner move along the allowed moves and release with New', () => {
    expect(decideStageChange(owned('Contacted'), 'a', 'Meeting set')).toEqual({ ok: true, kind: 'move' });
    expect(decideStageChange(owned('Proposal'), 'a', 'New')).toEqual({ ok: true, kind: 'release' });
    expect(decideStageChange(owned('Won'), 'a', 'Contacted')).toEqual({
      ok: false,
      status: 400,
      error: 'A business at Won cannot move to Contacted.',
    });
    expect(decideStageChange(owned('Proposal'), 'a', 'Proposal')).toEqual({
      ok: false,
      status: 400,
      error: 'This business is already at Proposal.',
    });
  });
});

describe('callLogEffect', () => {
  it('claims unclaimed, touches own, leaves another rep alone', () => {
    expect(callLogEffect(null, 'a')).toBe('claim');
    expect(callLogEffect({ ownerId: null, ownerName: null, stage: 'New' }, 'a')).toBe('claim');
    expect(callLogEffect(owned('Proposal'), 'a')).toBe('touch');
    expect(callLogEffect(owned('New'), 'a')).toBe('advance');
    expect(callLogEffect(owned('Proposal'), 'b')).toBe('none');
  });
});

describe('stale claims', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  it('cuts off exactly the given number of days before now', () => {
    expect(releaseCutoff(now, 30)).toBe('2026-10-26T12:00:00.000Z');
  });
  it('releases open and lost claims untouched for the days, never Won or unclaimed ones', () => {
    const old = '2026-10-26T11:59:59.999Z';
    const fresh = '2026-10-26T12:00:00.000Z';
    expect(isStale({ ownerId: 'a', stage: 'Meeting set', updatedAt: old }, now, 30)).toBe(true);
    expect(isStale({ ownerId: 'a', stage: 'Lost', updatedAt: old }, now, 30)).toBe(true);
    expect(isStale({ ownerId: 'a', stage: 'Meeting set', updatedAt: fresh }, now, 30)).toBe(false);
    expect(isStale({ ownerId: 'a', stage: 'Won', updatedAt: old }, now, 30)).toBe(false);
    expect(isStale({ ownerId: null, stage: 'New', updatedAt: old }, now, 30)).toBe(false);
  });
});

describe('pipelineLine', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  it('reads "<rep> · <stage> · since Nov 3"', () => {
    expect(
      pipelineLine(
        { ownerName: 'Ann Rep', stage: 'Meeting set', since: '2026-11-03T15:00:00.000Z' },
        now,
        'UTC',
      ),
    ).toBe('Ann Rep · Meeting set · since Nov 3');
  });
  it('uses the reader time zone and adds the year of another year', () => {
    expect(formatSince('2026-11-03T02:00:00.000Z', now, 'America/Chicago')).toBe('Nov 2');
    expect(formatSince('2025-12-30T12:00:00.000Z', now, 'UTC')).toBe('Dec 30, 2025');
  });
});
