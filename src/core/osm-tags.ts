// OpenStreetMap tags to the place types of the nine category groups and to scoring verticals. Kept as data:
// one table per purpose, keyed by tag key then tag value. https://wiki.openstreetmap.org/wiki/Map_features
import { fallbackLabel, labelForPlaceType, type PlaceType } from './categories';
import {
  HISTORICAL_NAME,
  INJURY_WORDS,
  OVERTURE_CATEGORY_VERTICALS,
  pickVertical,
  refineVerticalByName,
  type Vertical,
} from './verticals';

/** The keys that make a named OSM element a business (the README's definition of a POI). */
export const OSM_BUSINESS_KEYS = ['shop', 'amenity', 'office', 'craft', 'healthcare'] as const;

/** Further keys read for a few business values (hotels, gyms, bowling alleys, museums...). */
export const OSM_EXTRA_KEYS = ['leisure', 'tourism'] as const;

/** Keys in the order they are read: the most specific first. */
export const OSM_KEYS_IN_ORDER = [
  'healthcare',
  'amenity',
  'shop',
  'office',
  'craft',
  'leisure',
  'tourism',
] as const;
export type OsmKey = (typeof OSM_KEYS_IN_ORDER)[number];

type Table<V> = Readonly<Record<OsmKey, Readonly<Record<string, V>>>>;

/** OSM tag -> place types of the category groups. */
export const OSM_PLACE_TYPES: Table<readonly PlaceType[]> = {
  healthcare: {
    dentist: ['dentist'],
    doctor: ['doctor'],
    clinic: ['doctor'],
    centre: ['doctor'],
    hospital: ['hospital'],
    physiotherapist: ['physiotherapist'],
    pharmacy: ['pharmacy'],
  },
  amenity: {
    dentist: ['dentist'],
    doctors: ['doctor'],
    clinic: ['doctor'],
    hospital: ['hospital'],
    veterinary: ['veterinary_care'],
    pharmacy: ['pharmacy'],
    cinema: ['movie_theater'],
    arts_centre: ['art_gallery'],
    school: ['school'],
    college: ['college'],
    university: ['university'],
    car_wash: ['car_wash'],
    fuel: ['gas_station'],
    bank: ['bank'],
    atm: ['atm'],
    bureau_de_change: ['bank'],
    gym: ['gym'],
    spa: ['spa'],
  },
  shop: {
    beauty: ['beauty_salon'],
    nails: ['beauty_salon'],
    hairdresser: ['hair_care'],
    barber: ['hair_care'],
    massage: ['massage_therapist'],
    art: ['art_gallery'],
    car: ['car_dealer'],
    car_repair: ['car_repair'],
    tyres: ['car_repair'],
    car_parts: ['auto_parts_store'],
    chemist: ['pharmacy'],
    furniture: ['furniture_store'],
    bed: ['furniture_store'],
  },
  office: {
    lawyer: ['lawyer'],
    notary: ['lawyer'],
    insurance: ['insurance_agency'],
    accountant: ['accounting'],
    tax_advisor: ['accounting'],
    financial: ['accounting'],
    financial_advisor: ['accounting'],
    moving_company: ['moving_company'],
    contractor: ['general_contractor'],
    construction_company: ['general_contractor'],
  },
  craft: {
    plumber: ['plumber'],
    electrician: ['electrician'],
    builder: ['general_contractor'],
    carpenter: ['general_contractor'],
    hvac: ['general_contractor'],
    roofer: ['roofing_contractor'],
    cleaning: ['cleaning_service'],
    gardener: ['landscaper'],
    landscaper: ['landscaper'],
    painter: ['painter'],
    floorer: ['general_contractor'],
    tiler: ['general_contractor'],
    plasterer: ['general_contractor'],
    glaziery: ['general_contractor'],
    window_construction: ['general_contractor'],
    insulation: ['general_contractor'],
    stonemason: ['general_contractor'],
    car_repair: ['car_repair'],
  },
  leisure: {
    fitness_centre: ['gym'],
    bowling_alley: ['bowling_alley'],
    amusement_arcade: ['amusement_park'],
  },
  tourism: {
    museum: ['museum'],
    gallery: ['art_gallery'],
    theme_park: ['amusement_park'],
  },
};

/** OSM tag -> scoring vertical, for every business kind the scoring model tells apart (not only the 9 groups). */
export const OSM_VERTICALS: Table<Vertical> = {
  healthcare: {
    dentist: 'dental',
    doctor: 'medical',
    clinic: 'medical',
    centre: 'medical',
    hospital: 'hospital',
    physiotherapist: 'medical',
    optometrist: 'medical',
    audiologist: 'medical',
    podiatrist: 'medical',
    psychotherapist: 'therapy',
    counselling: 'therapy',
    alternative: 'wellness',
    pharmacy: 'pharmacy',
  },
  amenity: {
    dentist: 'dental',
    doctors: 'medical',
    clinic: 'medical',
    hospital: 'hospital',
    restaurant: 'restaurant',
    fast_food: 'qsr',
    food_court: 'qsr',
    cafe: 'qsr',
    ice_cream: 'qsr',
    bar: 'bar',
    pub: 'bar',
    biergarten: 'bar',
    nightclub: 'bar',
    fuel: 'gas_station',
    gym: 'fitness',
    veterinary: 'veterinary',
    pharmacy: 'pharmacy',
    spa: 'wellness',
    school: 'education',
    college: 'education',
    university: 'education',
    language_school: 'education',
    music_school: 'education',
    driving_school: 'education',
    kindergarten: 'education',
    cinema: 'entertainment',
    theatre: 'entertainment',
    arts_centre: 'entertainment',
    bank: 'finance',
    bureau_de_change: 'finance',
    car_wash: 'auto_repair',
    townhall: 'government',
    courthouse: 'government',
    police: 'government',
    fire_station: 'government',
    post_office: 'government',
    library: 'government',
    prison: 'government',
    ranger_station: 'government',
    place_of_worship: 'nonprofit',
    social_facility: 'nonprofit',
    community_centre: 'nonprofit',
    social_centre: 'nonprofit',
    atm: 'low_propensity',
    parking: 'low_propensity',
    parking_entrance: 'low_propensity',
    bicycle_parking: 'low_propensity',
    bicycle_rental: 'low_propensity',
    car_sharing: 'low_propensity',
    charging_station: 'low_propensity',
    vending_machine: 'low_propensity',
    post_box: 'low_propensity',
    taxi: 'low_propensity',
    ferry_terminal: 'low_propensity',
    bus_station: 'low_propensity',
    toilets: 'low_propensity',
    telephone: 'low_propensity',
    drinking_water: 'low_propensity',
    fountain: 'low_propensity',
    bench: 'low_propensity',
    shelter: 'low_propensity',
    recycling: 'low_propensity',
    waste_basket: 'low_propensity',
    waste_disposal: 'low_propensity',
    parcel_locker: 'low_propensity',
    stripclub: 'restricted',
    brothel: 'restricted',
  },
  shop: {
    car: 'auto_dealer',
    car_repair: 'auto_repair',
    tyres: 'auto_repair',
    furniture: 'furniture',
    bed: 'furniture',
    kitchen: 'furniture',
    interior_decoration: 'furniture',
    charity: 'nonprofit',
    chemist: 'pharmacy',
    beauty: 'beauty',
    nails: 'beauty',
    hairdresser: 'beauty',
    barber: 'beauty',
    massage: 'wellness',
    art: 'entertainment',
    car_parts: 'auto_repair',
    hvac: 'hvac',
    cannabis: 'restricted',
    weapons: 'restricted',
    erotic: 'restricted',
    sex: 'restricted',
  },
  office: {
    lawyer: 'legal',
    insurance: 'insurance',
    estate_agent: 'real_estate',
    property_management: 'real_estate',
    government: 'government',
    diplomatic: 'government',
    ngo: 'nonprofit',
    association: 'nonprofit',
    charity: 'nonprofit',
    foundation: 'nonprofit',
    religion: 'nonprofit',
    political_party: 'nonprofit',
    moving_company: 'home_services',
    contractor: 'home_services',
    construction_company: 'home_services',
    accountant: 'finance',
    tax_advisor: 'finance',
    financial_advisor: 'finance',
    // A financial company's office (investment firms, venture capital, fintech) sells to investors and companies;
    // banks, credit unions, advisers and tax preparers are tagged otherwise.
    financial: 'business_services',
    company: 'business_services',
    it: 'business_services',
    consulting: 'business_services',
    advertising_agency: 'business_services',
    coworking: 'business_services',
    venture_capital: 'business_services',
  },
  craft: {
    plumber: 'plumbing',
    hvac: 'hvac',
    roofer: 'roofing',
    electrician: 'home_services',
    builder: 'home_services',
    carpenter: 'home_services',
    painter: 'home_services',
    gardener: 'home_services',
    landscaper: 'home_services',
    cleaning: 'home_services',
    floorer: 'home_services',
    tiler: 'home_services',
    plasterer: 'home_services',
    glaziery: 'home_services',
    window_construction: 'home_services',
    insulation: 'home_services',
    stonemason: 'home_services',
    locksmith: 'home_services',
    brewery: 'bar',
    winery: 'bar',
    distillery: 'bar',
    car_repair: 'auto_repair',
    gunsmith: 'restricted',
  },
  leisure: {
    fitness_centre: 'fitness',
    sports_centre: 'fitness',
    spa: 'wellness',
    bowling_alley: 'entertainment',
    amusement_arcade: 'entertainment',
  },
  tourism: {
    museum: 'entertainment',
    gallery: 'entertainment',
    theme_park: 'entertainment',
    hotel: 'hotel',
    motel: 'hotel',
    hostel: 'hotel',
    guest_house: 'hotel',
    apartment: 'hotel',
  },
};

/** Friendly labels for common OSM values outside the category groups' place types. */
export const OSM_LABELS: Readonly<Record<string, string>> = {
  fast_food: 'Fast Food',
  estate_agent: 'Real Estate',
  nightclub: 'Night Club',
  pub: 'Pub',
  fitness_centre: 'Fitness',
  sports_centre: 'Sports Center',
  hvac: 'HVAC',
  clothes: 'Clothing',
  doityourself: 'Hardware',
  optician: 'Optician',
  ngo: 'Non-Profit',
  it: 'IT Services',
  company: 'Company',
};

/**
 * The values of a leisure/tourism key that make a named element a business (the ones the tables above know):
 * what {@link isOsmBusiness} accepts, for queries that must find the same elements (Overpass).
 */
export function osmExtraBusinessValues(key: (typeof OSM_EXTRA_KEYS)[number]): string[] {
  return [...new Set([...Object.keys(OSM_PLACE_TYPES[key]), ...Object.keys(OSM_VERTICALS[key])])].sort();
}

/** Tag values that carry no information ('shop=yes'). */
const VAGUE_VALUES: ReadonlySet<string> = new Set(['yes', 'no', 'other', 'vacant', 'disused']);

const value = (tags: Readonly<Record<string, string>>, key: OsmKey): string | undefined => {
  const v = tags[key]?.trim().toLowerCase();
  return v && !VAGUE_VALUES.has(v) ? v : undefined;
};

/**
 * True when the tags describe a named business: a name and one of shop, amenity, office, craft or healthcare
 * (the README's POI), or a leisure/tourism value the tables above know (hotels, gyms, museums, ...).
 */
export function isOsmBusiness(tags: Readonly<Record<string, string>>): boolean {
  if (!tags.name?.trim() || HISTORICAL_NAME.test(tags.name)) return false;
  if (OSM_BUSINESS_KEYS.some((k) => tags[k] !== undefined && tags[k] !== 'no')) return true;
  return OSM_EXTRA_KEYS.some((k) => {
    const v = value(tags, k);
    return v !== undefined && (OSM_PLACE_TYPES[k][v] !== undefined || OSM_VERTICALS[k][v] !== undefined);
  });
}

/** The category groups' place types of an OSM element, each once, most specific key first. */
export function osmPlaceTypes(tags: Readonly<Record<string, string>>): PlaceType[] {
  const out: PlaceType[] = [];
  for (const k of OSM_KEYS_IN_ORDER) {
    const v = value(tags, k);
    if (!v) continue;
    for (const t of OSM_PLACE_TYPES[k][v] ?? []) if (!out.includes(t)) out.push(t);
  }
  return out;
}

/**
 * The types to store on a Business from OSM: its category groups' place types, else the raw value of its
 * first business key ('restaurant', 'clothes'), so the category label and the maps-style type vertical table
 * still work.
 */
export function osmBusinessTypes(tags: Readonly<Record<string, string>>): string[] {
  const types: string[] = osmPlaceTypes(tags);
  if (types.length > 0) return types;
  for (const k of OSM_KEYS_IN_ORDER) {
    const v = value(tags, k);
    if (v) return [v];
  }
  return [];
}

/**
 * The scoring vertical of an OSM element: the tables above, refined by its name (the `name` tag, else `name`);
 * 'other' when unknown. Public and non-profit operators and historical places are the scorer's `classify`.
 */
export function osmVertical(tags: Readonly<Record<string, string>>, name?: string): Vertical {
  const found = new Set<Vertical>();
  for (const k of OSM_KEYS_IN_ORDER) {
    const v = value(tags, k);
    if (!v) continue;
    const vertical = OSM_VERTICALS[k][v];
    if (vertical) found.add(vertical);
  }
  // An orthodontist is tagged healthcare=dentist + healthcare:speciality=orthodontics.
  const speciality = tags['healthcare:speciality'] ?? '';
  if (/\borthodontics\b/.test(speciality)) found.add('orthodontics');
  // A place of Overture carries its category: the kind of law a firm practises, a restricted category.
  const overture = OVERTURE_CATEGORY_VERTICALS[tags['overture:category'] ?? ''];
  if (overture) found.add(overture);
  let vertical = refineVerticalByName(pickVertical(found), tags.name ?? name ?? '');
  // A law office whose own description says it takes injury cases is an injury practice.
  if (vertical === 'legal' && INJURY_WORDS.test(tags.description ?? '')) vertical = 'injury_law';
  return vertical;
}

/** Overture categories of a business that sells to companies. */
const B2B_CATEGORY =
  /(^|;)(business_to_business\w*|b2b_\w+|industrial_\w+|manufacturer|wholesaler|wholesale_store|corporate_office|energy_equipment_and_solution|business_manufacturing_and_supply)(;|$)/;
/** The verticals such a category takes over: only those a company's office could be mistaken for. */
const SELLS_TO_COMPANIES_OVER: ReadonlySet<Vertical> = new Set<Vertical>([
  'home_services',
  'other',
  'finance',
]);

/** The rules above, for fingerprints of what a stored reading was made under. */
export const COMPANY_SELLER_RULES = [String(B2B_CATEGORY), [...SELLS_TO_COMPANIES_OVER]] as const;

/**
 * A business the other categories Overture lists for it say sells to companies (a manufacturer's or a
 * wholesaler's office, industrial equipment) is not a household's contractor or office, whatever its main category.
 */
export function sellsToCompanies(tags: Readonly<Record<string, string>>, vertical: Vertical): boolean {
  return SELLS_TO_COMPANIES_OVER.has(vertical) && B2B_CATEGORY.test(tags['overture:alternate'] ?? '');
}

/** `operator:type` values of public bodies and of non-profits (https://wiki.openstreetmap.org/wiki/Key:operator:type). */
const PUBLIC_OPERATOR_TYPES: ReadonlySet<string> = new Set(['public', 'government', 'military']);
const NONPROFIT_OPERATOR_TYPES: ReadonlySet<string> = new Set([
  'religious',
  'ngo',
  'charitable',
  'community',
  'non_profit',
  'nonprofit',
]);
const PUBLIC_OPERATOR_NAME =
  /^(city|county|state|town|village) (and county )?of\b|\b(department of|veterans affairs|public health|school district|unified school|health services agency)\b/i;

/** A public or non-profit operator from the element's own tags (`operator:type`, `operator`), or null. */
export function institutionFromTags(
  tags: Readonly<Record<string, string>>,
): 'government' | 'nonprofit' | null {
  const type = tags['operator:type']?.trim().toLowerCase();
  if (type && PUBLIC_OPERATOR_TYPES.has(type)) return 'government';
  if (type && NONPROFIT_OPERATOR_TYPES.has(type)) return 'nonprofit';
  const operator = tags.operator?.trim();
  if (operator && PUBLIC_OPERATOR_NAME.test(operator)) return 'government';
  return null;
}

/** The friendly category of an OSM element: its first place type's label, else its tag value's label. */
export function osmCategoryLabel(tags: Readonly<Record<string, string>>): string {
  const [first] = osmPlaceTypes(tags);
  if (first) return labelForPlaceType(first);
  for (const k of OSM_KEYS_IN_ORDER) {
    const v = value(tags, k);
    if (v) return OSM_LABELS[v] ?? fallbackLabel(v);
  }
  return 'Business';
}
