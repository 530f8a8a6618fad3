// Detection of the website signals in fetched pages. Pure: the HTML, its address and the time of the check
// come in; signals, JSON-LD facts and the links worth following come out. HTML is read with htmlparser2 (a
// maintained, forgiving streaming parser: broken markup never throws).
import { Parser } from 'htmlparser2';
import {
  DETECTION_RULES,
  FOLLOW_LINK_PATTERN,
  MAX_EXTRA_PAGES,
  PARKED_PATTERNS,
  PARKING_HOSTS,
  RULES_VERSION,
  STALE_COPYRIGHT_YEARS,
} from './rules';
import {
  SIGNAL_KINDS,
  type SignalKind,
  type WebsiteEvidence,
  type WebsiteFacts,
  type WebsiteSignal,
} from './signals';

/** What one page says. */
export interface PageFindings {
  kinds: SignalKind[];
  facts: WebsiteFacts;
  /** Same-site links to contact, locations, about or booking pages (absolute, without fragment). */
  follow: string[];
  /** The page has a mobile viewport meta tag. */
  viewport: boolean;
  /** The latest copyright year in its text, if any. */
  copyrightYear: number | null;
  parked: boolean;
}

interface Collected {
  code: string[];
  links: string[];
  text: string[];
  jsonLd: string[];
  hrefs: string[];
  viewport: boolean;
}

/** Cap on the text kept from one page for matching (a 2 MB page of text is matched on its first part). */
const MAX_TEXT = 400_000;

function collect(html: string): Collected {
  const c: Collected = { code: [], links: [], text: [], jsonLd: [], hrefs: [], viewport: false };
  let inScript: 'code' | 'jsonld' | null = null;
  let inStyle = false;
  let anchorText: string[] | null = null;
  let anchorHref = '';
  let scriptBuf = '';
  let textSize = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const src = attrs.src ?? '';
        if (name === 'script') {
          const type = (attrs.type ?? '').toLowerCase();
          inScript = type === 'application/ld+json' ? 'jsonld' : 'code';
          scriptBuf = '';
          if (src) c.code.push(src);
        } else if (name === 'style') inStyle = true;
        else if (name === 'iframe' || name === 'img' || name === 'embed' || name === 'source') {
          if (src) c.code.push(src);
        } else if (name === 'video') c.code.push('<video>');
        else if (name === 'link' && attrs.href) c.code.push(attrs.href);
        else if (name === 'meta') {
          if ((attrs.name ?? '').toLowerCase() === 'viewport' && /width\s*=/i.test(attrs.content ?? ''))
            c.viewport = true;
        } else if (name === 'a') {
          anchorHref = attrs.href ?? '';
          anchorText = [];
          if (anchorHref) c.hrefs.push(anchorHref);
        } else if (name === 'form' && attrs.action) c.links.push(attrs.action);
        else if (name === 'button' || name === 'input') {
          const v = attrs.value ?? attrs['aria-label'] ?? '';
          if (v) c.links.push(v);
        }
      },
      ontext(text) {
        if (inScript) {
          if (scriptBuf.length < MAX_TEXT) scriptBuf += text;
          return;
        }
        if (inStyle) return;
        if (anchorText) anchorText.push(text);
        if (textSize < MAX_TEXT) {
          c.text.push(text);
          textSize += text.length;
        }
      },
      onclosetag(name) {
        if (name === 'script' && inScript) {
          (inScript === 'jsonld' ? c.jsonLd : c.code).push(scriptBuf);
          inScript = null;
          scriptBuf = '';
        } else if (name === 'style') inStyle = false;
        else if (name === 'a' && anchorText) {
          c.links.push(`${anchorHref} ${anchorText.join(' ')}`);
          anchorText = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return c;
}

const LOCAL_BUSINESS_TYPES =
  /^(LocalBusiness|Organization|Corporation|Store|AutoDealer|AutomotiveBusiness|Dentist|MedicalBusiness|MedicalClinic|Physician|LegalService|Attorney|HVACBusiness|Plumber|RoofingContractor|HomeAndConstructionBusiness|Electrician|GeneralContractor|HousePainter|Locksmith|MovingCompany|ProfessionalService|HealthAndBeautyBusiness|DaySpa|HairSalon|BeautySalon|ExerciseGym|HealthClub|SportsActivityLocation|FurnitureStore|HomeGoodsStore|InsuranceAgency|FinancialService|AccountingService|Restaurant|FoodEstablishment|VeterinaryCare|EntertainmentBusiness|RealEstateAgent|LodgingBusiness|Hotel|EducationalOrganization|School|CollegeOrUniversity)$/;

const asArray = (x: unknown): unknown[] => (Array.isArray(x) ? x : x === undefined || x === null ? [] : [x]);
const num = (x: unknown): number | undefined => {
  const n = typeof x === 'number' ? x : typeof x === 'string' ? Number.parseFloat(x) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** The nodes of a JSON-LD document (top level, arrays and @graph). */
function jsonLdNodes(doc: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const visit = (x: unknown, depth: number) => {
    if (depth > 4 || out.length > 200) return;
    for (const item of asArray(x)) {
      if (typeof item !== 'object' || item === null) continue;
      const node = item as Record<string, unknown>;
      out.push(node);
      if (node['@graph']) visit(node['@graph'], depth + 1);
    }
  };
  visit(doc, 0);
  return out;
}

const isBusiness = (node: Record<string, unknown>): boolean =>
  asArray(node['@type']).some((t) => typeof t === 'string' && LOCAL_BUSINESS_TYPES.test(t));

/** Rating, review count, social profiles and locations from the page's schema.org JSON-LD. */
export function jsonLdFacts(blocks: readonly string[]): WebsiteFacts {
  const facts: WebsiteFacts = {};
  const profiles = new Set<string>();
  const addresses = new Set<string>();
  for (const block of blocks) {
    let doc: unknown;
    try {
      doc = JSON.parse(block) as unknown;
    } catch {
      continue;
    }
    for (const node of jsonLdNodes(doc)) {
      if (!isBusiness(node)) continue;
      const rating = node.aggregateRating as Record<string, unknown> | undefined;
      if (rating && typeof rating === 'object') {
        const value = num(rating.ratingValue);
        const best = num(rating.bestRating) ?? 5;
        const count = num(rating.reviewCount) ?? num(rating.ratingCount);
        if (value !== undefined && best > 0 && facts.rating === undefined) {
          const five = Math.round((value / best) * 5 * 10) / 10;
          if (five >= 0 && five <= 5) facts.rating = five;
          if (count !== undefined && count >= 0) facts.reviewCount = Math.floor(count);
        }
      }
      for (const s of asArray(node.sameAs))
        if (typeof s === 'string' && /^https?:\/\//i.test(s)) profiles.add(s);
      for (const loc of [
        ...asArray(node.location),
        ...asArray(node.subOrganization),
        ...asArray(node.department),
      ]) {
        if (typeof loc !== 'object' || loc === null) continue;
        const address = (loc as Record<string, unknown>).address;
        const key =
          typeof address === 'string'
            ? address
            : address && typeof address === 'object'
              ? JSON.stringify(address)
              : JSON.stringify(loc);
        addresses.add(key.toLowerCase());
      }
      const own = node.address;
      if (own && !node.location) addresses.add(JSON.stringify(own).toLowerCase());
    }
  }
  if (profiles.size > 0) facts.socialProfiles = profiles.size;
  if (addresses.size > 1) facts.locations = Math.min(addresses.size, 500);
  return facts;
}

/** What one page's HTML says (signals, facts, links to follow), read at `url`, for a check made at `now`. */
export function detectPage(html: string, url: string, now: Date): PageFindings {
  const c = collect(html);
  const code = c.code.join('\n');
  const links = c.links.join('\n');
  const text = c.text.join(' ').replace(/\s+/g, ' ');
  const kinds = new Set<SignalKind>();
  for (const rule of DETECTION_RULES) {
    if (kinds.has(rule.kind)) continue;
    const hay = rule.where === 'code' ? code : rule.where === 'links' ? links : text;
    if (rule.patterns.some((p) => p.test(hay))) kinds.add(rule.kind);
  }
  let copyrightYear: number | null = null;
  for (const m of text.matchAll(/(?:©|&copy;|\(c\)|copyright)\s*(?:\d{4}\s*[-–]\s*)?(\d{4})/gi)) {
    const y = Number(m[1]);
    if (y >= 1990 && y <= now.getUTCFullYear() + 1 && (copyrightYear === null || y > copyrightYear))
      copyrightYear = y;
  }
  const visible = text.trim();
  const parked =
    PARKING_HOSTS.test(code) ||
    PARKED_PATTERNS.some((p) => p.test(visible.slice(0, 5000))) ||
    // Nothing a visitor could read: a script-only shell is not parked, so it needs scripts to be absent.
    (visible.length < 20 && c.code.length === 0);
  const follow: string[] = [];
  let base: URL | null = null;
  try {
    base = new URL(url);
  } catch {
    base = null;
  }
  if (base) {
    for (const href of c.hrefs) {
      if (follow.length >= MAX_EXTRA_PAGES) break;
      let target: URL;
      try {
        target = new URL(href, base);
      } catch {
        continue;
      }
      if (target.host !== base.host || !/^https?:$/.test(target.protocol)) continue;
      target.hash = '';
      if (target.href === base.href || follow.includes(target.href)) continue;
      if (FOLLOW_LINK_PATTERN.test(target.pathname)) follow.push(target.href);
    }
  }
  return {
    kinds: [...kinds],
    facts: jsonLdFacts(c.jsonLd),
    follow,
    viewport: c.viewport,
    copyrightYear,
    parked,
  };
}

/** A page read by the check. */
export interface FetchedPage {
  url: string;
  html: string;
}

function signal(kind: SignalKind, url: string, seenAt: string, label?: string): WebsiteSignal {
  return { kind, label: label ?? SIGNAL_KINDS[kind].label, url, seenAt };
}

/**
 * The evidence of a site whose pages were read (the home page first): each signal once, with the first page it
 * was seen on; facts merged (the first rating found, the largest number of locations); health from the home
 * page (HTTPS of the address it ended on, viewport, copyright year, parked).
 */
export function evidenceFromPages(site: string, pages: readonly FetchedPage[], now: Date): WebsiteEvidence {
  const seenAt = now.toISOString();
  const signals: WebsiteSignal[] = [];
  const seen = new Set<SignalKind>();
  const add = (kind: SignalKind, url: string, label?: string) => {
    if (seen.has(kind)) return;
    seen.add(kind);
    signals.push(signal(kind, url, seenAt, label));
  };
  const facts: WebsiteFacts = {};
  let home: PageFindings | null = null;
  for (const page of pages) {
    const f = detectPage(page.html, page.url, now);
    home ??= f;
    for (const k of f.kinds) add(k, page.url);
    if (facts.rating === undefined && f.facts.rating !== undefined) {
      facts.rating = f.facts.rating;
      if (f.facts.reviewCount !== undefined) facts.reviewCount = f.facts.reviewCount;
    }
    if ((f.facts.locations ?? 0) > (facts.locations ?? 0)) facts.locations = f.facts.locations;
    if ((f.facts.socialProfiles ?? 0) > (facts.socialProfiles ?? 0))
      facts.socialProfiles = f.facts.socialProfiles;
  }
  const first = pages[0];
  if (first && home) {
    if (facts.rating !== undefined) {
      const where =
        pages.find((p) => detectPage(p.html, p.url, now).facts.rating !== undefined)?.url ?? first.url;
      add(
        'site_rating',
        where,
        `Rated ${facts.rating.toFixed(1)}${facts.reviewCount !== undefined ? ` (${facts.reviewCount} reviews)` : ''}`,
      );
    }
    if ((facts.socialProfiles ?? 0) > 0) add('social_profiles', first.url);
    if ((facts.locations ?? 0) > 1) add('several_locations', first.url, `${facts.locations} locations`);
    if (!first.url.startsWith('https:')) add('no_https', first.url);
    if (!home.viewport && !home.parked) add('not_mobile_friendly', first.url);
    if (home.copyrightYear !== null && now.getUTCFullYear() - home.copyrightYear >= STALE_COPYRIGHT_YEARS)
      add('stale_copyright', first.url, `Site looks out of date (© ${home.copyrightYear})`);
    if (home.parked) add('parked', first.url);
  }
  return {
    status: 'checked',
    reason: null,
    url: site,
    checkedAt: seenAt,
    signals,
    facts,
    rules: RULES_VERSION,
  };
}

/** The evidence of a site that could not be read: a dead site (`unreachable`, a signal) or not checked. */
export function evidenceOfFailure(
  site: string,
  status: 'unreachable' | 'failed',
  reason: string,
  now: Date,
): WebsiteEvidence {
  const seenAt = now.toISOString();
  return {
    status,
    reason,
    url: site,
    checkedAt: seenAt,
    signals: status === 'unreachable' ? [signal('unreachable', site, seenAt)] : [],
    facts: {},
    rules: RULES_VERSION,
  };
}

/** How long evidence stays fresh: a read or dead site 7 days (the analysis cache's), a failed check one hour. */
export const EVIDENCE_FRESH_MS = {
  checked: 7 * 86_400_000,
  unreachable: 7 * 86_400_000,
  failed: 3_600_000,
} as const;

export function isEvidenceFresh(
  e: Pick<WebsiteEvidence, 'status' | 'checkedAt' | 'rules'>,
  now: number,
): boolean {
  const at = Date.parse(e.checkedAt);
  return e.rules === RULES_VERSION && Number.isFinite(at) && now - at < EVIDENCE_FRESH_MS[e.status];
}
