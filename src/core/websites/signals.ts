// What a website check found (docs/SCORING.md, "Website evidence"): the signal shape the API carries
// (`signals: [{ kind, label, url, seenAt }]` on every prospect) and the evidence record kept per business.
// The one exported place of these schemas; the API shapes import them from here.
import { z } from 'zod';
import { SIGNAL_KIND_LIST } from './kinds';

export * from './kinds';

/** One signal as the API and the card carry it. */
export const websiteSignalSchema = z.object({
  kind: z.enum(SIGNAL_KIND_LIST),
  /** The chip text ("Runs Google Ads", "Call tracking", "Website unreachable", "Rated 4.7 (120 reviews)"). */
  label: z.string().max(120),
  /** The page it was seen on. */
  url: z.string().max(2000),
  /** ISO time it was seen. */
  seenAt: z.string().max(40),
});
export type WebsiteSignal = z.infer<typeof websiteSignalSchema>;

/** Facts read from the site's schema.org JSON-LD, used by the score where the place source has none. */
export const websiteFactsSchema = z.object({
  rating: z.number().min(0).max(5).optional(),
  reviewCount: z.number().int().min(0).optional(),
  locations: z.number().int().min(1).optional(),
  socialProfiles: z.number().int().min(0).optional(),
});
export type WebsiteFacts = z.infer<typeof websiteFactsSchema>;

/**
 * The outcome of a check of one business's website:
 * - `checked`: pages were read; `signals` say what was found;
 * - `unreachable`: the site answered with an error or refused the connection (a dead site: a signal);
 * - `failed`: could not check (no network, the name did not resolve, a refused address, robots.txt
 *   disallows, a hostile page): `reason` says why; no signal and no effect on the score.
 */
export const websiteEvidenceSchema = z.object({
  status: z.enum(['checked', 'unreachable', 'failed']),
  reason: z.string().max(300).nullable(),
  /** The site as checked (the business's website, normalised). */
  url: z.string().max(2000),
  checkedAt: z.string().max(40),
  signals: z.array(websiteSignalSchema).max(60),
  facts: websiteFactsSchema,
  /** The rule set the signals were found with (RULES_VERSION): other versions are not fresh. */
  rules: z.string().max(20),
});
export type WebsiteEvidence = z.infer<typeof websiteEvidenceSchema>;
