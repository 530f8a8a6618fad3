// Category groups, place types and friendly labels (docs/PRODUCT.md, "Categories").
import { CATEGORY_CHARACTERS, CATEGORY_REQUIRED, CATEGORY_TOO_LONG } from './messages';

/** The nine category groups with their place types. */
export const CATEGORY_GROUPS = {
  legal: { label: 'Legal', types: ['lawyer'] },
  healthcare: {
    label: 'Healthcare',
    types: ['dentist', 'doctor', 'hospital', 'physiotherapist', 'veterinary_care', 'pharmacy'],
  },
  beauty: {
    label: 'Beauty/Wellness',
    types: ['beauty_salon', 'hair_care', 'spa', 'gym', 'massage_therapist'],
  },
  service: {
    label: 'Home Services',
    types: [
      'plumber',
      'electrician',
      'general_contractor',
      'roofing_contractor',
      'cleaning_service',
      'landscaper',
      'moving_company',
      'painter',
    ],
  },
  entertainment: {
    label: 'Entertainment',
    types: ['movie_theater', 'bowling_alley', 'museum', 'art_gallery', 'amusement_park'],
  },
  education: { label: 'Education', types: ['school', 'college', 'university'] },
  car: {
    label: 'Automotive',
    types: ['car_dealer', 'car_repair', 'car_wash', 'auto_parts_store', 'gas_station'],
  },
  finance: {
    label: 'Financial',
    types: ['bank', 'credit_union', 'atm', 'insurance_agency', 'accounting'],
  },
  furniture: { label: 'Furniture', types: ['furniture_store'] },
} as const satisfies Record<string, { label: string; types: readonly string[] }>;

export type CategoryGroup = keyof typeof CATEGORY_GROUPS;
export type PlaceType = (typeof CATEGORY_GROUPS)[CategoryGroup]['types'][number];

/** Every group key, in table order. */
export const ALL_GROUPS: readonly CategoryGroup[] = Object.keys(CATEGORY_GROUPS) as CategoryGroup[];

/** Every place type of every group, in table order, each once. */
export const ALL_PLACE_TYPES: readonly PlaceType[] = ALL_GROUPS.flatMap((g) => CATEGORY_GROUPS[g].types);

const GROUP_SET: ReadonlySet<string> = new Set(ALL_GROUPS);
const PLACE_TYPE_SET: ReadonlySet<string> = new Set(ALL_PLACE_TYPES);

export const isCategoryGroup = (value: string): value is CategoryGroup => GROUP_SET.has(value);
export const isPlaceType = (value: string): value is PlaceType => PLACE_TYPE_SET.has(value);

/**
 * The groups a scan asks for: unknown names are ignored, and none given (undefined, an empty list or only
 * unknown names) means all groups. Names are matched after trimming and lower-casing; duplicates collapse;
 * the result keeps table order.
 */
export function resolveGroups(input: readonly string[] | undefined): CategoryGroup[] {
  const wanted = new Set((input ?? []).map((s) => s.trim().toLowerCase()).filter(isCategoryGroup));
  if (wanted.size === 0) return [...ALL_GROUPS];
  return ALL_GROUPS.filter((g) => wanted.has(g));
}

/** The place types of the given groups, each once, in table order. */
export function placeTypesForGroups(groups: readonly CategoryGroup[]): PlaceType[] {
  const out: PlaceType[] = [];
  const seen = new Set<string>();
  for (const g of groups) {
    for (const t of CATEGORY_GROUPS[g].types) {
      if (!seen.has(t)) {
        seen.add(t);
        out.push(t);
      }
    }
  }
  return out;
}

/** The group a place type belongs to, or undefined for a type outside the nine groups. */
export function groupOfPlaceType(type: string): CategoryGroup | undefined {
  return ALL_GROUPS.find((g) => (CATEGORY_GROUPS[g].types as readonly string[]).includes(type));
}

/**
 * Friendly labels. Those of car_repair, dentist, lawyer and bank are fixed product words; the rest are the
 * labels a sales rep would expect. Types outside the table use {@link fallbackLabel}.
 */
export const PLACE_TYPE_LABELS: Readonly<Record<string, string>> = {
  lawyer: 'Legal Services',
  dentist: 'Dental',
  doctor: 'Medical',
  hospital: 'Hospital',
  physiotherapist: 'Physical Therapy',
  veterinary_care: 'Veterinary',
  pharmacy: 'Pharmacy',
  beauty_salon: 'Beauty Salon',
  hair_care: 'Hair Salon',
  spa: 'Spa',
  gym: 'Fitness',
  massage_therapist: 'Massage',
  plumber: 'Plumbing',
  electrician: 'Electrical',
  general_contractor: 'General Contractor',
  roofing_contractor: 'Roofing',
  cleaning_service: 'Cleaning Service',
  landscaper: 'Landscaping',
  moving_company: 'Moving Company',
  painter: 'Painting',
  movie_theater: 'Movie Theater',
  bowling_alley: 'Bowling Alley',
  museum: 'Museum',
  art_gallery: 'Art Gallery',
  amusement_park: 'Amusement Park',
  school: 'School',
  college: 'College',
  university: 'University',
  car_dealer: 'Auto Dealer',
  car_repair: 'Auto Repair',
  car_wash: 'Car Wash',
  auto_parts_store: 'Auto Parts',
  gas_station: 'Gas Station',
  bank: 'Financial',
  credit_union: 'Credit Union',
  atm: 'ATM',
  insurance_agency: 'Insurance',
  accounting: 'Accounting',
  furniture_store: 'Furniture',
};

/** The fallback label: underscores become spaces, each word capitalised ('pet_store' -> 'Pet Store'). */
export function fallbackLabel(type: string): string {
  return type
    .split('_')
    .filter((w) => w.length > 0)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** The friendly label of one place type. */
export function labelForPlaceType(type: string): string {
  return PLACE_TYPE_LABELS[type] ?? fallbackLabel(type);
}

/** Generic types that say nothing about the business; skipped when a better type exists. */
const GENERIC_TYPES: ReadonlySet<string> = new Set([
  'establishment',
  'point_of_interest',
  'store',
  'premise',
]);

/**
 * The friendly category of a business from its place types: the first type of the nine groups if any, else the
 * first non-generic type, else 'Business' (the label that counts as "category missing").
 */
export function categoryLabel(types: readonly string[]): string {
  const known = types.find(isPlaceType);
  if (known) return labelForPlaceType(known);
  const specific = types.find((t) => !GENERIC_TYPES.has(t));
  return specific ? labelForPlaceType(specific) : 'Business';
}

/** A category that is neither missing nor 'Business' (then 'Set category' is not offered). */
export const hasRealCategory = (category: string | null | undefined): boolean => {
  const c = category?.trim() ?? '';
  return c !== '' && c.toLowerCase() !== 'business';
};

/** The longest category a person may type (the longest built-in label is under 30 characters). */
export const CATEGORY_MAX_LENGTH = 60;

/**
 * A category typed by a person: letters (any script), digits, spaces and & ' ’ - , . / ( ) +, starting with
 * a letter or digit. No markup, quotes, braces, line breaks or control characters: the text is shown in
 * the team's lists, exported and written into AI prompts.
 */
const CATEGORY_TEXT = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} &'’\-,./()+]*$/u;

/** The category as stored (trimmed, runs of spaces made one), or why it is refused (a line break or tab too). */
export function checkCategoryText(
  input: string,
): { ok: true; category: string } | { ok: false; reason: 'empty' | 'too-long' | 'characters' } {
  const category = input.trim().replace(/ {2,}/g, ' ');
  if (category === '') return { ok: false, reason: 'empty' };
  if (category.length > CATEGORY_MAX_LENGTH) return { ok: false, reason: 'too-long' };
  if (!CATEGORY_TEXT.test(category)) return { ok: false, reason: 'characters' };
  return { ok: true, category };
}

/** The user's words for each refusal of checkCategoryText. */
export const CATEGORY_TEXT_MESSAGES = {
  empty: CATEGORY_REQUIRED,
  'too-long': CATEGORY_TOO_LONG,
  characters: CATEGORY_CHARACTERS,
} as const;
