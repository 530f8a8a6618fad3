import { describe, expect, it } from 'vitest';
import { haversineMiles, MILES_PER_DEGREE } from './geo';
import {
  SPREAD_MIN_SPACING_MILES,
  SPREAD_SIMILAR_MARGIN_POINTS,
  spreadResults,
  type Spreadable,
} from './diversify';

interface Biz extends Spreadable {
  id: string;
}

const TOWER = { lat: 37.7879, lng: -122.4066 };
/** A point `miles` north and `eastMiles` east of the tower (69 miles per degree, longitude scaled by cos(lat)). */
const at = (northMiles: number, eastMiles = 0) => ({
  lat: TOWER.lat + northMiles / MILES_PER_DEGREE,
  lng: TOWER.lng + eastMiles / (MILES_PER_DEGREE * Math.cos((TOWER.lat * Math.PI) / 180)),
});
const biz = (id: string, points: number, place: { lat: number; lng: number }): Biz => ({
  id,
  score: points / 100,
  ...place,
});
const ids = (list: readonly Biz[]) => list.map((b) => b.id);
const byScore = (list: Biz[]) => [...list].sort((a, b) => b.score - a.score);

/** Ten similar offices in one tower (80 down to 71), five good prospects a mile or so apart (70 down to 66). */
const towerAndTown = (): Biz[] =>
  byScore([
    ...Array.from({ length: 10 }, (_, i) => biz(`tower-${i}`, 80 - i, at(0.0001 * i))),
    ...Array.from({ length: 5 }, (_, i) => biz(`town-${i}`, 70 - i, at(0.5 + 0.4 * i, 0.3 * i))),
  ]);

/** A small deterministic pseudo-random sequence (the tests must not depend on Math.random). */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const randomScan = (n: number, seed: number): Biz[] => {
  const rnd = lcg(seed);
  return byScore(
    Array.from({ length: n }, (_, i) =>
      // Scores on whole points, as the display score is; places within about a mile.
      biz(`b${i}`, 10 + Math.floor(rnd() * 80), at((rnd() - 0.5) * 2, (rnd() - 0.5) * 2)),
    ),
  );
};

describe('spreadResults constants', () => {
  it('uses a minimum spacing of 0.25 mile and a 10-point similar margin', () => {
    expect(SPREAD_MIN_SPACING_MILES).toBe(0.25);
    expect(SPREAD_SIMILAR_MARGIN_POINTS).toBe(10);
  });
});

describe('spreadResults', () => {
  it('is the identity when the option is off', () => {
    const list = towerAndTown();
    const out = spreadResults(list, { spreadOut: false });
    expect(out).toEqual(list);
    expect(out).not.toBe(list);
    const random = randomScan(200, 7);
    expect(spreadResults(random, { spreadOut: false, limit: 100 })).toEqual(random);
  });

  it('mixes good prospects elsewhere into a first page that was one tower', () => {
    const list = towerAndTown();
    expect(ids(list.slice(0, 10)).every((id) => id.startsWith('tower'))).toBe(true);
    const out = spreadResults(list, { spreadOut: true });
    const firstPage = ids(out.slice(0, 10));
    expect(firstPage.filter((id) => id.startsWith('town'))).toHaveLength(5);
    // The best business still leads, and each prospect elsewhere comes as soon as it is within 10 points of
    // the best one left: 70 and 69 right behind the 80, 68 after the 79, and so on.
    expect(firstPage).toEqual([
      'tower-0',
      'town-0',
      'town-1',
      'tower-1',
      'town-2',
      'tower-2',
      'town-3',
      'tower-3',
      'town-4',
      'tower-4',
    ]);
    // The offices that gave way keep their order.
    expect(ids(out.slice(10))).toEqual(['tower-5', 'tower-6', 'tower-7', 'tower-8', 'tower-9']);
  });

  it('never pushes a much better cluster down past the margin', () => {
    // Five offices at 90-86 in the tower, prospects elsewhere at 75 and below: all more than 10 points down.
    const list = byScore([
      ...Array.from({ length: 5 }, (_, i) => biz(`tower-${i}`, 90 - i, at(0.0001 * i))),
      ...Array.from({ length: 5 }, (_, i) => biz(`town-${i}`, 75 - i, at(1 + 0.4 * i))),
    ]);
    expect(ids(spreadResults(list, { spreadOut: true }))).toEqual(ids(list));
  });

  it('treats exactly 10 points below as similar and 11 as not', () => {
    const list = [biz('a', 60, at(0)), biz('b', 60, at(0.01)), biz('c', 50, at(1))];
    expect(ids(spreadResults(list, { spreadOut: true }))).toEqual(['a', 'c', 'b']);
    const wider = [biz('a', 61, at(0)), biz('b', 61, at(0.01)), biz('c', 50, at(1))];
    expect(ids(spreadResults(wider, { spreadOut: true }))).toEqual(['a', 'b', 'c']);
    // Float scores such as 0.57 - 0.47 must not read as "more than 10".
    const floats = [biz('a', 57, at(0)), biz('b', 57, at(0.01)), biz('c', 47, at(1))];
    expect(ids(spreadResults(floats, { spreadOut: true }))).toEqual(['a', 'c', 'b']);
  });

  it('measures the spacing by great-circle distance: 0.26 mile apart is far enough, 0.24 is not', () => {
    const list = [biz('a', 60, at(0)), biz('b', 59, at(0.24)), biz('c', 55, at(-0.26))];
    expect(haversineMiles(list[0]!, list[1]!)).toBeLessThan(0.25);
    expect(haversineMiles(list[0]!, list[2]!)).toBeGreaterThan(0.25);
    expect(ids(spreadResults(list, { spreadOut: true }))).toEqual(['a', 'c', 'b']);
  });

  it('checks every business already taken, not only the last one', () => {
    // b stands near a (taken first), d near c (taken second): both wait for e, near neither.
    const list = [
      biz('a', 80, at(0)),
      biz('b', 79, at(0.1)),
      biz('c', 78, at(2)),
      biz('d', 77, at(2.1)),
      biz('e', 76, at(-2)),
    ];
    expect(ids(spreadResults(list, { spreadOut: true }))).toEqual(['a', 'c', 'e', 'b', 'd']);
  });

  it('keeps the set, is deterministic and leaves its input alone', () => {
    for (const seed of [1, 2, 3]) {
      const list = randomScan(500, seed);
      const copy = list.map((b) => ({ ...b }));
      const once = spreadResults(list, { spreadOut: true, limit: 100 });
      const twice = spreadResults(list, { spreadOut: true, limit: 100 });
      expect(list).toEqual(copy);
      expect(ids(once)).toEqual(ids(twice));
      expect(once).toHaveLength(list.length);
      expect([...ids(once)].sort()).toEqual([...ids(list)].sort());
      expect(ids(once)).not.toEqual(ids(list));
    }
  });

  it('holds its rule at every place it decides', () => {
    const list = randomScan(300, 11);
    const limit = 100;
    const out = spreadResults(list, { spreadOut: true, limit });
    const remaining = [...list];
    for (let place = 0; place < limit; place++) {
      const chosen = out[place]!;
      const top = remaining[0]!;
      const spaced = (b: Biz) =>
        out.slice(0, place).every((t) => haversineMiles(t, b) >= SPREAD_MIN_SPACING_MILES);
      const similar = (b: Biz) => Math.round((top.score - b.score) * 100) <= SPREAD_SIMILAR_MARGIN_POINTS;
      const expected = remaining.find((b) => spaced(b) && similar(b)) ?? top;
      expect(chosen.id).toBe(expected.id);
      remaining.splice(remaining.indexOf(chosen), 1);
    }
    // Past the limit: the rest in their given order.
    expect(ids(out.slice(limit))).toEqual(ids(remaining));
  });

  it('only decides the first `limit` places; the others keep their order', () => {
    const list = towerAndTown();
    const out = spreadResults(list, { spreadOut: true, limit: 3 });
    expect(ids(out.slice(0, 3))).toEqual(['tower-0', 'town-0', 'town-1']);
    expect(ids(out.slice(3))).toEqual(ids(list.filter((b) => !ids(out.slice(0, 3)).includes(b.id))));
  });

  it('handles empty, single and unlocated lists', () => {
    expect(spreadResults([], { spreadOut: true })).toEqual([]);
    const one = [biz('a', 50, at(0))];
    expect(spreadResults(one, { spreadOut: true })).toEqual(one);
    // A business without a usable place is near nobody: it never gives way.
    const unlocated = [
      biz('a', 50, at(0)),
      biz('b', 49, at(0)),
      { id: 'x', score: 0.48, lat: NaN, lng: NaN },
    ];
    expect(ids(spreadResults(unlocated, { spreadOut: true }))).toEqual(['a', 'x', 'b']);
  });
});
