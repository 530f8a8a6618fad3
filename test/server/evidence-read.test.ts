// The website evidence read of a scan: started for the businesses found, before de-duplication, and
// attached to the kept ones; a kept business that took a website over from its duplicate is read on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Business } from '../../src/core/types.js';
import { businessCacheKey } from '../../src/core/types.js';
import type { WebsiteEvidence } from '../../src/core/websites/signals.js';
import { RULES_VERSION } from '../../src/core/websites/rules.js';
import { writeEvidence } from '../../src/server/websites/repository.js';
import { readEvidence, siteOf } from '../../src/server/websites/service.js';
import { createTestContext, type TestContext } from '../helpers/app.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({});
});
afterAll(() => t.close());

const business = (id: string, website?: string): Business => ({
  id,
  placeId: id,
  name: `Business ${id}`,
  address: `${id.length} Main Street, Springfield`,
  lat: 40,
  lng: -75,
  types: ['store'],
  category: 'Store',
  source: 'local',
  reviews: 0,
  openNow: true,
  ...(website ? { website } : {}),
});

const evidence = (url: string): WebsiteEvidence => ({
  status: 'checked',
  reason: null,
  url,
  checkedAt: new Date().toISOString(),
  signals: [],
  facts: { reviewCount: 120 },
  rules: RULES_VERSION,
});

async function store(b: Business) {
  const site = siteOf(b)!;
  await writeEvidence(t.db.kysely, businessCacheKey(b), site, evidence(site), b);
}

describe('the evidence read of a scan', () => {
  it('attaches the evidence of the kept businesses, and reads on its own a website a merge gave one', async () => {
    const plain = business('ev-plain', 'https://plain.example.com');
    const merged = business('ev-merged', 'https://merged.example.com');
    const moved = business('ev-moved', 'https://new.example.com');
    const none = business('ev-none', 'https://none.example.com');
    await store(plain);
    await store(merged);
    await store({ ...moved, website: 'https://old.example.com' });
    // Found: `merged` without its website (its duplicate had it), `moved` with the website it now has.
    const found = [plain, { ...merged, website: undefined }, moved, none];
    const kept = await readEvidence(t.db, found).attach([plain, merged, moved, none]);
    const facts = Object.fromEntries(kept.map((b) => [b.id, b.websiteEvidence?.facts.reviewCount ?? null]));
    // The evidence stored for another website than the business has now is not its evidence.
    expect(facts).toEqual({ 'ev-plain': 120, 'ev-merged': 120, 'ev-moved': null, 'ev-none': null });
    expect(kept.find((b) => b.id === 'ev-merged')!.websiteEvidence!.url).toBe(siteOf(merged));
  });

  it('fails its attach, not the caller, when the read fails', async () => {
    const failing = readEvidence(
      {
        ...t.db,
        kysely: new Proxy(t.db.kysely, {
          get: (target, key) =>
            key === 'selectFrom'
              ? () => {
                  throw new Error('read failed');
                }
              : Reflect.get(target, key),
        }),
      },
      [business('ev-x', 'https://x.example.com')],
    );
    await expect(failing.attach([business('ev-x', 'https://x.example.com')])).rejects.toThrow('read failed');
  });
});
