import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import type { Territory, TerritoryArea } from '../../src/core/api/territories.js';
import { openStream } from '../helpers/sse.js';

let t: TestContext;
let admin: TestUser;
let rep: TestUser;
let otherRep: TestUser;
let stream: Awaited<ReturnType<typeof openStream>>;
beforeAll(async () => {
  t = await createTestContext({ TERRITORY_MAX_SQUARE_MILES: '50' });
  admin = await t.newUser('admin', { name: 'Ada Admin' });
  rep = await t.newUser('user', { name: 'Rita Rep' });
  otherRep = await t.newUser('user', { name: 'Otto Other' });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  stream = await openStream(baseUrl, rep);
});
afterAll(async () => {
  await stream.close();
  await t.close();
});

const rect = (minLng: number, minLat: number, maxLng: number, maxLat: number): TerritoryArea => ({
  type: 'Polygon',
  coordinates: [
    [
      [minLng, minLat],
      [maxLng, minLat],
      [maxLng, maxLat],
      [minLng, maxLat],
      [minLng, minLat],
    ],
  ],
});
const unionSquare = rect(-122.41, 37.786, -122.405, 37.79);

const create = (body: Record<string, unknown>, as: TestUser = admin) =>
  t.request({ method: 'POST', url: '/api/territories', payload: body, as });
const list = async (as: TestUser) =>
  (await t.request({ method: 'GET', url: '/api/territories', as })).json<{ territories: Territory[] }>()
    .territories;
const errorOf = (res: { json<T>(): T }) => res.json<{ error: string }>().error;

describe('territories', () => {
  it('an admin creates a drawn territory with reps; it is audited and announced', async () => {
    const res = await create({ name: 'Union Square', area: unionSquare, repIds: [rep.id] });
    expect(res.statusCode).toBe(201);
    const territory = res.json<{ territory: Territory }>().territory;
    expect(territory).toMatchObject({
      name: 'Union Square',
      area: unionSquare,
      zips: [],
      reps: [{ id: rep.id, name: 'Rita Rep' }],
    });
    expect(territory.areaSquareMiles).toBeGreaterThan(0.07);
    expect(territory.areaSquareMiles).toBeLessThan(0.08);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'territory.create')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: admin.id,
      target_id: territory.id,
      target_label: 'Union Square',
    });
    const notice = await stream.next((e) => e.event === 'territories', 5000);
    expect(notice.data).toMatchObject({
      action: 'created',
      item: { id: territory.id },
    });
  });

  it('names are unique whatever their case (409)', async () => {
    const res = await create({
      name: '  union SQUARE ',
      area: rect(-122.42, 37.77, -122.41, 37.78),
      repIds: [],
    });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toBe('A territory with this name already exists.');
  });

  it('refuses a bad outline with a clear 400', async () => {
    const cases: [unknown, RegExp][] = [
      [
        {
          type: 'Polygon',
          coordinates: [
            [
              [-122.41, 37.78],
              [-122.4, 37.79],
              [-122.4, 37.78],
              [-122.41, 37.79],
              [-122.41, 37.78],
            ],
          ],
        },
        /^The territory's outline crosses itself\.$/,
      ],
      [
        {
          type: 'Polygon',
          coordinates: [
            [
              [-122.41, 37.78],
              [-122.4, 37.78],
              [-122.4, 37.79],
              [-122.41, 37.79],
            ],
          ],
        },
        /^The territory's outline must end where it starts\.$/,
      ],
      [rect(-122.6, 37.6, -122.3, 37.9), /^The territory covers \d+ square miles; the most is 50\.$/],
      [
        {
          type: 'LineString',
          coordinates: [
            [-122.41, 37.78],
            [-122.4, 37.79],
          ],
        },
        /area/,
      ],
      [{ type: 'Point', coordinates: [-122.41, 37.78] }, /area/],
      [{ type: 'Polygon', coordinates: 'nope' }, /area/],
    ];
    for (const [area, message] of cases) {
      const res = await create({ name: `Bad ${String(Math.random())}`, area, repIds: [] });
      expect(res.statusCode, JSON.stringify(area)).toBe(400);
      expect(errorOf(res)).toMatch(message);
    }
    const neither = await create({ name: 'Nothing', repIds: [] });
    expect(neither.statusCode).toBe(400);
  });

  it('an unknown rep id is a 404 naming it', async () => {
    const res = await create({
      name: 'Nob Hill',
      area: rect(-122.42, 37.79, -122.41, 37.795),
      repIds: ['ghost'],
    });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toBe('No user with id ghost.');
  });

  it('admins see every territory, a rep only their own; reps cannot write', async () => {
    const soma = await create({
      name: 'SoMa',
      area: rect(-122.41, 37.77, -122.39, 37.785),
      repIds: [otherRep.id],
    });
    expect(soma.statusCode).toBe(201);
    expect((await list(admin)).map((x) => x.name)).toEqual(['SoMa', 'Union Square']);
    expect((await list(rep)).map((x) => x.name)).toEqual(['Union Square']);
    expect((await list(otherRep)).map((x) => x.name)).toEqual(['SoMa']);
    const id = soma.json<{ territory: Territory }>().territory.id;
    expect((await create({ name: 'Mine', area: unionSquare, repIds: [] }, rep)).statusCode).toBe(403);
    const put = await t.request({
      method: 'PUT',
      url: `/api/territories/${id}`,
      payload: { name: 'Mine', area: unionSquare, repIds: [] },
      as: rep,
    });
    expect(put.statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/territories/${id}`, as: rep })).statusCode).toBe(
      403,
    );
  });

  it('an admin renames, redraws and reassigns; a clash with another name is a 409', async () => {
    const id = (await list(admin)).find((x) => x.name === 'SoMa')!.id;
    const area = rect(-122.41, 37.77, -122.395, 37.785);
    const put = (payload: Record<string, unknown>) =>
      t.request({ method: 'PUT', url: `/api/territories/${id}`, payload, as: admin });
    const res = await put({ name: 'South of Market', area, repIds: [rep.id, otherRep.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ territory: Territory }>().territory).toMatchObject({
      id,
      name: 'South of Market',
      area,
      reps: [
        { id: otherRep.id, name: 'Otto Other' },
        { id: rep.id, name: 'Rita Rep' },
      ],
    });
    expect((await list(rep)).map((x) => x.name)).toEqual(['South of Market', 'Union Square']);
    const clash = await put({ name: 'UNION square', area, repIds: [] });
    expect(clash.statusCode).toBe(409);
    // Its own name in another case is no clash.
    expect((await put({ name: 'SOUTH OF MARKET', area, repIds: [rep.id] })).statusCode).toBe(200);
    const missing = await t.request({
      method: 'PUT',
      url: '/api/territories/nope',
      payload: { name: 'X', area, repIds: [] },
      as: admin,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('an admin deletes a territory (audited); a second delete is a 404', async () => {
    const id = (await list(admin)).find((x) => x.name === 'SOUTH OF MARKET')!.id;
    const res = await t.request({ method: 'DELETE', url: `/api/territories/${id}`, as: admin });
    expect(res.statusCode).toBe(204);
    expect((await list(admin)).map((x) => x.name)).toEqual(['Union Square']);
    expect((await list(otherRep)).map((x) => x.name)).toEqual([]);
    const again = await t.request({ method: 'DELETE', url: `/api/territories/${id}`, as: admin });
    expect(again.statusCode).toBe(404);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('target_label')
      .where('action', '=', 'territory.delete')
      .execute();
    expect(audit).toEqual([{ target_label: 'SOUTH OF MARKET' }]);
    const notice = await stream.next((e) => e.event === 'territories' && e.data.action === 'deleted', 5000);
    // The id only: every user gets the notice, and a territory's name is for its reps and the admins.
    expect(notice.data.item).toEqual({ id });
  });

  it('a ZIP territory: the hull of its imported addresses, else a circle around its centre; unknown ZIPs named', async () => {
    // Five imported addresses of 94108 span a block around Union Square.
    const corners = [
      [37.787, -122.409],
      [37.787, -122.404],
      [37.791, -122.404],
      [37.791, -122.409],
      [37.789, -122.406],
    ];
    await t.db.kysely
      .insertInto('addresses')
      .values(
        corners.map(([lat, lng], i) => ({
          id: `test:${i}`,
          number: String(100 + i),
          number_key: String(100 + i),
          number_value: 100 + i,
          street: 'Test St',
          street_key: 'test st',
          city: 'San Francisco',
          city_key: 'san francisco',
          state: 'CA',
          postcode: i === 0 ? '94108-1234' : '94108',
          lat: lat!,
          lng: lng!,
        })),
      )
      .execute();
    const res = await create({ name: 'Downtown ZIP', zips: ['94108'], repIds: [rep.id] });
    expect(res.statusCode).toBe(201);
    const zipTerritory = res.json<{ territory: Territory }>().territory;
    expect(zipTerritory.zips).toEqual(['94108']);
    expect(zipTerritory.area.type).toBe('Polygon');
    // The hull: 0.005° x 0.004°, as the Union Square rectangle.
    expect(zipTerritory.areaSquareMiles).toBeGreaterThan(0.07);
    expect(zipTerritory.areaSquareMiles).toBeLessThan(0.08);

    // 35203 (Birmingham, AL) has no imported address: a circle of about a mile around the gazetteer's centre.
    const circle = await create({ name: 'Birmingham ZIP', zips: ['35203'], repIds: [] });
    expect(circle.statusCode).toBe(201);
    const miles = circle.json<{ territory: Territory }>().territory.areaSquareMiles;
    expect(miles).toBeGreaterThan(3);
    expect(miles).toBeLessThan(3.3);

    const unknown = await create({ name: 'Nowhere', zips: ['35203', '00000'], repIds: [] });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown)).toMatch(/^ZIP code 00000 is not known/);
    const both = await create({ name: 'Both', zips: ['94108'], area: unionSquare, repIds: [] });
    expect(both.statusCode).toBe(400);
  });
});
