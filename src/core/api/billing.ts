// The billing import and lapsed advertisers: an admin uploads the billing system's export (text/csv), sees what
// matched, then imports it; the standing of each advertiser (current, lapsed, declining) follows from its months.
import { z } from 'zod';
import { endpoint } from './endpoint';
import { advertiserImportBody } from './lists';

const month = z.string().max(7);

export const billingEvidenceSchema = z.enum(['name', 'phone', 'address', 'website']);

/** POST /api/admin/billing?preview=true reads and matches without storing. */
export const billingImportQuery = z.object({
  preview: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export const billingReportSchema = z.object({
  /** True when nothing was stored (a preview). */
  preview: z.boolean(),
  matched: z.array(
    z.object({
      advertiser: z.string(),
      /** The file's lines of this advertiser (1 is the header). */
      lines: z.array(z.number().int()),
      businessId: z.string(),
      businessName: z.string(),
      /** What agreed between the file and the business. */
      matchedBy: z.array(billingEvidenceSchema),
    }),
  ),
  /** Advertisers no business matched, with their lines, to correct and upload again. */
  unmatched: z.array(
    z.object({ advertiser: z.string(), lines: z.array(z.number().int()), reason: z.string() }),
  ),
  /** The months the file covers ('YYYY-MM'): an import replaces the stored billing of these months. */
  months: z.object({ first: month, last: month, count: z.number().int() }),
  /** Businesses of each standing once the file is imported (declining ones are current advertisers too). */
  counts: z.object({ current: z.number().int(), lapsed: z.number().int(), declining: z.number().int() }),
});
export type BillingReport = z.infer<typeof billingReportSchema>;

export const lapsedAdvertiserSchema = z.object({
  businessId: z.string(),
  name: z.string(),
  address: z.string(),
  /** The last month billed, 'YYYY-MM'. */
  lastMonth: month,
  /** Billed in the 12 months before the current window, in dollars; absent when amounts are not shared. */
  lastYearTotal: z.number().optional(),
});
export type LapsedAdvertiser = z.infer<typeof lapsedAdvertiserSchema>;

export const billingSettingsSchema = z.object({
  /** Reps see billing amounts (admins always do). */
  shareAmounts: z.boolean(),
});
export type BillingSettings = z.infer<typeof billingSettingsSchema>;

export const billingEndpoints = {
  'POST /api/admin/billing': endpoint({
    access: 'admin',
    tags: ['billing'],
    summary:
      'Import a billing export (CSV: advertiser, any of address/phone/website, month, amount; text/csv or JSON ' +
      '{csv}); ?preview=true matches without storing. Replaces the stored billing of the months the file covers',
    query: billingImportQuery,
    body: advertiserImportBody,
    answers: { 200: billingReportSchema },
  }),
  'GET /api/advertisers/lapsed': endpoint({
    access: 'user',
    tags: ['billing'],
    summary:
      'Lapsed advertisers (billed in the year before the current window, not since), latest first: all for ' +
      'admins, a rep those of their territories; amounts only for admins unless shared',
    answers: {
      200: z.object({ lapsed: z.array(lapsedAdvertiserSchema), amountsShown: z.boolean() }),
    },
  }),
  'GET /api/admin/billing/settings': endpoint({
    access: 'admin',
    tags: ['billing'],
    summary: 'Billing settings: whether reps see billing amounts',
    answers: { 200: z.object({ settings: billingSettingsSchema }) },
  }),
  'PATCH /api/admin/billing/settings': endpoint({
    access: 'admin',
    tags: ['billing'],
    summary: 'Share billing amounts with reps, or stop (audited)',
    body: billingSettingsSchema.partial().strict(),
    answers: { 200: z.object({ settings: billingSettingsSchema }) },
  }),
};
