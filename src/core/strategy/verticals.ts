// Which strategy playbook a business gets: the verticals of SPEC.md §9's channel-propensity table, told apart
// from the business's place types, category label and name. The scoring model has its own, finer classifier;
// when a prospect carries its vertical (the score breakdown's `vertical`), that one is used (see classifyVertical).

/** The rows of SPEC.md §9's propensity table, one playbook each. */
export const PLAYBOOK_VERTICALS = [
  'auto_dealer',
  'legal',
  'home_services',
  'health',
  'furniture',
  'insurance',
  'fitness',
  'restaurant',
  'bar',
  'hotel',
  'qsr',
  'real_estate',
  'other',
] as const;
export type PlaybookVertical = (typeof PLAYBOOK_VERTICALS)[number];

/** Channel propensities of SPEC.md §9 (CTV / online video / display / SEM). */
export interface ChannelPropensity {
  ctv: number;
  olv: number;
  display: number;
  sem: number;
}

export const CHANNEL_PROPENSITY: Readonly<Record<PlaybookVertical, ChannelPropensity>> = {
  auto_dealer: { ctv: 0.95, olv: 0.9, display: 0.85, sem: 0.9 },
  legal: { ctv: 0.9, olv: 0.85, display: 0.9, sem: 0.95 },
  home_services: { ctv: 0.9, olv: 0.85, display: 0.8, sem: 0.9 },
  health: { ctv: 0.85, olv: 0.8, display: 0.75, sem: 0.95 },
  furniture: { ctv: 0.85, olv: 0.8, display: 0.85, sem: 0.75 },
  insurance: { ctv: 0.75, olv: 0.7, display: 0.7, sem: 0.8 },
  fitness: { ctv: 0.7, olv: 0.75, display: 0.7, sem: 0.7 },
  restaurant: { ctv: 0.45, olv: 0.5, display: 0.55, sem: 0.45 },
  bar: { ctv: 0.3, olv: 0.35, display: 0.4, sem: 0.35 },
  hotel: { ctv: 0.2, olv: 0.25, display: 0.35, sem: 0.3 },
  qsr: { ctv: 0.1, olv: 0.15, display: 0.2, sem: 0.15 },
  real_estate: { ctv: 0.65, olv: 0.6, display: 0.75, sem: 0.7 },
  other: { ctv: 0.35, olv: 0.3, display: 0.35, sem: 0.4 },
};

/**
 * The trade within a vertical, for wording ("plumbing" vs "roofing", "orthodontic" vs "dental"). Same playbook,
 * same propensities.
 */
export type Trade = 'hvac' | 'plumbing' | 'roofing' | 'dental' | 'orthodontics' | 'medical' | null;

export interface VerticalMatch {
  vertical: PlaybookVertical;
  trade: Trade;
}

export interface VerticalInput {
  name: string;
  category: string;
  types?: readonly string[];
  /** A vertical already decided elsewhere (the scoring model's breakdown), e.g. 'dental' or 'auto_repair'. */
  vertical?: string;
}

/** Fine-grained names (ours and the scoring model's) to a playbook and trade. Unlisted names are unknown. */
const FINE: Readonly<Record<string, VerticalMatch>> = {
  auto_dealer: { vertical: 'auto_dealer', trade: null },
  legal: { vertical: 'legal', trade: null },
  hvac: { vertical: 'home_services', trade: 'hvac' },
  plumbing: { vertical: 'home_services', trade: 'plumbing' },
  roofing: { vertical: 'home_services', trade: 'roofing' },
  home_services: { vertical: 'home_services', trade: null },
  dental: { vertical: 'health', trade: 'dental' },
  orthodontics: { vertical: 'health', trade: 'orthodontics' },
  medical: { vertical: 'health', trade: 'medical' },
  health: { vertical: 'health', trade: null },
  furniture: { vertical: 'furniture', trade: null },
  insurance: { vertical: 'insurance', trade: null },
  fitness: { vertical: 'fitness', trade: null },
  restaurant: { vertical: 'restaurant', trade: null },
  bar: { vertical: 'bar', trade: null },
  hotel: { vertical: 'hotel', trade: null },
  qsr: { vertical: 'qsr', trade: null },
  real_estate: { vertical: 'real_estate', trade: null },
  other: { vertical: 'other', trade: null },
  auto_repair: { vertical: 'other', trade: null },
  gas_station: { vertical: 'other', trade: null },
  government: { vertical: 'other', trade: null },
  nonprofit: { vertical: 'other', trade: null },
  low_propensity: { vertical: 'other', trade: null },
};

/** Place types to fine verticals. A type mapped to 'other' still settles the question (a car wash is no dealer). */
const TYPE_FINE: Readonly<Record<string, string>> = {
  car_dealer: 'auto_dealer',
  lawyer: 'legal',
  hvac_contractor: 'hvac',
  plumber: 'plumbing',
  roofing_contractor: 'roofing',
  dentist: 'dental',
  dental_clinic: 'dental',
  orthodontist: 'orthodontics',
  doctor: 'medical',
  hospital: 'medical',
  physiotherapist: 'medical',
  chiropractor: 'medical',
  medical_clinic: 'medical',
  furniture_store: 'furniture',
  insurance_agency: 'insurance',
  gym: 'fitness',
  fitness_center: 'fitness',
  restaurant: 'restaurant',
  bar: 'bar',
  pub: 'bar',
  night_club: 'bar',
  brewery: 'bar',
  lodging: 'hotel',
  hotel: 'hotel',
  motel: 'hotel',
  fast_food_restaurant: 'qsr',
  meal_takeaway: 'qsr',
  fast_food: 'qsr',
  cafe: 'qsr',
  coffee_shop: 'qsr',
  real_estate_agency: 'real_estate',
  car_repair: 'other',
  car_wash: 'other',
  auto_parts_store: 'other',
  gas_station: 'other',
  electrician: 'other',
  general_contractor: 'other',
  painter: 'other',
  landscaper: 'other',
  veterinary_care: 'other',
  pharmacy: 'other',
};

/** The order a business with several types is resolved in (a hotel with a bar is a hotel). */
const PRIORITY: readonly string[] = [
  'auto_dealer',
  'legal',
  'orthodontics',
  'dental',
  'medical',
  'hvac',
  'plumbing',
  'roofing',
  'furniture',
  'insurance',
  'real_estate',
  'fitness',
  'hotel',
  'restaurant',
  'bar',
  'qsr',
  'other',
];

/** Category labels and names: keyword patterns in priority order. */
const TEXT_RULES: ReadonlyArray<{ pattern: RegExp; fine: string }> = [
  { pattern: /\b(veterinar|animal hospital|pet)/i, fine: 'other' },
  { pattern: /\borthodont/i, fine: 'orthodontics' },
  { pattern: /\b(dental|dentist|dentistry|dds|dmd)\b/i, fine: 'dental' },
  { pattern: /\b(auto dealer|car dealer|dealership|auto sales|motors)\b/i, fine: 'auto_dealer' },
  { pattern: /\b(legal|law (firm|office|offices|group)|attorneys?|lawyers?|injury|esq)\b/i, fine: 'legal' },
  { pattern: /\b(hvac|heating|air conditioning|cooling|furnace)\b/i, fine: 'hvac' },
  { pattern: /\b(plumbing|plumbers?|rooter|drain)\b/i, fine: 'plumbing' },
  { pattern: /\b(roofing|roofers?)\b/i, fine: 'roofing' },
  { pattern: /\b(medical|clinic|physician|doctor|chiropract|physical therapy|urgent care|hospital|dermatolog|pediatric|optometr)/i, fine: 'medical' },
  { pattern: /\b(furniture|mattress)\b/i, fine: 'furniture' },
  { pattern: /\binsurance\b/i, fine: 'insurance' },
  { pattern: /\b(realty|real estate|realtors?|properties)\b/i, fine: 'real_estate' },
  { pattern: /\b(fitness|gym|crossfit|yoga|pilates)\b/i, fine: 'fitness' },
  { pattern: /\b(hotel|inn|motel|suites|lodging)\b/i, fine: 'hotel' },
  { pattern: /\b(fast food|quick service|burger|pizza|taqueria|cafe|coffee|donut|sandwich)\b/i, fine: 'qsr' },
  { pattern: /\b(bar|pub|brewery|brewing|taproom|tavern|saloon|nightclub|wine bar)\b/i, fine: 'bar' },
  { pattern: /\b(restaurant|bistro|grill|steakhouse|trattoria|kitchen|diner|eatery)\b/i, fine: 'restaurant' },
]; // prettier-ignore

function fromText(text: string): string | undefined {
  return TEXT_RULES.find((r) => r.pattern.test(text))?.fine;
}

/**
 * The playbook vertical of a business: a vertical given by the caller when known, else its place types (highest
 * priority wins), else its category label, else its name. A dentist whose name or label says orthodontics is
 * orthodontics.
 */
export function classifyVertical(input: VerticalInput): VerticalMatch {
  let fine: string | undefined;
  if (input.vertical && FINE[input.vertical]) fine = input.vertical;
  if (!fine && input.types && input.types.length > 0) {
    const found = new Set(input.types.map((t) => TYPE_FINE[t]).filter((v): v is string => v !== undefined));
    fine = PRIORITY.find((v) => found.has(v));
  }
  if (!fine) fine = fromText(input.category) ?? fromText(input.name) ?? 'other';
  if ((fine === 'dental' || fine === 'medical') && /\borthodont/i.test(`${input.name} ${input.category}`)) {
    fine = 'orthodontics';
  }
  return FINE[fine] ?? { vertical: 'other', trade: null };
}
