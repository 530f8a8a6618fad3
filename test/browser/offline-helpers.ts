// What the offline browser tests share: a saved business, the tabs and cards they read, the rep's
// persisted query cache, and waiting until the service worker controls the page.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { Prospect } from '../../src/core/types.js';

export const SLOW = { timeout: 20_000, interval: 200 } as const;

export const business = (id: string, name: string): Prospect => ({
  id,
  name,
  category: 'Bakery',
  address: '12 Oak Ave',
  city: 'Birmingham',
  state: 'AL',
  zip: '35203',
  phone: '+1 205-555-0142',
  website: 'https://bakery.example',
  lat: 33.52,
  lng: -86.81,
  openNow: true,
  reviews: 40,
  source: 'local',
  distance: 0.3,
  score: 0.74,
  types: ['bakery'],
});

export const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });
export const card = (page: Page, name: string) => page.getByTestId('prospect-card').filter({ hasText: name });

/** The app shell is served by the service worker: wait until it controls the page (precache done). */
export async function serviceWorkerReady(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // Installed during this page's life: the next load is the one it controls.
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), SLOW).toBe(true);
}

/** The rep's persisted query cache in their IndexedDB, as JSON ('' while there is none). */
export async function cachedState(page: Page, userId: string): Promise<string> {
  return page.evaluate(
    (id) =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open(`prospect-finder-offline-${id}`);
        open.onerror = () => resolve('');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('meta')) return resolve('');
          const get = db.transaction('meta').objectStore('meta').get('queryCache');
          get.onsuccess = () => {
            resolve(get.result ? JSON.stringify(get.result) : '');
            db.close();
          };
          get.onerror = () => resolve('');
        };
      }),
    userId,
  );
}
