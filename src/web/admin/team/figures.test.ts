import { describe, expect, it } from 'vitest';
import { percentTicks } from './figures';

describe('percentTicks', () => {
  const series = [{ key: 'meetingRate' }, { key: 'winRate' }];

  it('runs a rate axis from 0 to 100 % when one business was won', () => {
    expect(percentTicks([{ meetingRate: 1, winRate: 1 }], series)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it('stays at 100 % with no data or only zeros', () => {
    expect(percentTicks([], series)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(percentTicks([{ meetingRate: 0, winRate: null }], series)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it('reaches just past the highest rate when one passes 100 %', () => {
    expect(percentTicks([{ perCall: 1.3 }, { perCall: 0.2 }], [{ key: 'perCall' }])).toEqual([
      0, 0.375, 0.75, 1.125, 1.5,
    ]);
  });
});
