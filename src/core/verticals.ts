// Verticals: the business kinds the scoring model tells apart (its channel-propensity rows, review
// benchmarks and prefilter rules), and how a business's place types and name map onto them. Data, not code.

export const VERTICALS = [
  'auto_dealer',
  'auto_repair',
  'injury_law',
  'legal',
  'legal_corporate',
  'business_services',
  'hvac',
  'plumbing',
  'roofing',
  'home_services',
  'dental',
  'orthodontics',
  'medical',
  'hospital',
  'therapy',
  'veterinary',
  'furniture',
  'insurance',
  'finance',
  'education',
  'fitness',
  'wellness',
  'beauty',
  'entertainment',
  'pharmacy',
  'restaurant',
  'bar',
  'hotel',
  'qsr',
  'real_estate',
  'gas_station',
  'government',
  'nonprofit',
  'restricted',
  'low_propensity',
  'other',
] as const;

export type Vertical = (typeof VERTICALS)[number];

/** Human names of the verticals, for reasoning texts and docs. */
export const VERTICAL_LABELS: Readonly<Record<Vertical, string>> = {
  auto_dealer: 'Auto Dealer',
  auto_repair: 'Auto Repair',
  injury_law: 'Injury Law',
  legal: 'Legal',
  legal_corporate: 'Business Law Firm',
  business_services: 'Business Services',
  hvac: 'HVAC',
  plumbing: 'Plumbing',
  roofing: 'Roofing',
  home_services: 'Home Services',
  dental: 'Dental',
  orthodontics: 'Orthodontics',
  medical: 'Medical',
  hospital: 'Hospital',
  therapy: 'Counselling & Therapy',
  veterinary: 'Veterinary',
  furniture: 'Furniture',
  insurance: 'Insurance',
  finance: 'Financial Services',
  education: 'Private Education',
  fitness: 'Fitness',
  wellness: 'Spa & Massage',
  beauty: 'Hair & Beauty',
  entertainment: 'Entertainment',
  pharmacy: 'Pharmacy',
  restaurant: 'Full-Service Restaurant',
  bar: 'Bar/Brewery',
  hotel: 'Hotel',
  qsr: 'Quick-Service Restaurant',
  real_estate: 'Real Estate',
  gas_station: 'Gas Station',
  government: 'Government',
  nonprofit: 'Non-Profit',
  restricted: 'Restricted Category',
  low_propensity: 'Low-Propensity Category',
  other: 'Other',
};

/**
 * When a business has several types, the vertical that comes first here wins (a dealer with a service bay is a
 * dealer; a hotel with a restaurant is a hotel).
 */
export const VERTICAL_PRIORITY: readonly Vertical[] = [
  'restricted',
  'auto_dealer',
  'injury_law',
  'legal',
  'legal_corporate',
  'orthodontics',
  'dental',
  'hospital',
  // A counsellor's or therapist's practice is one, though Overture also files it as a doctor's.
  'therapy',
  'medical',
  'hvac',
  'plumbing',
  'roofing',
  'home_services',
  'veterinary',
  'furniture',
  // An office of a financial company is one whatever else its types say ('accounting' of office=financial).
  'business_services',
  'insurance',
  'finance',
  'real_estate',
  'education',
  'fitness',
  'wellness',
  'beauty',
  'pharmacy',
  'hotel',
  'restaurant',
  'bar',
  'qsr',
  'entertainment',
  'auto_repair',
  'gas_station',
  'government',
  'nonprofit',
  'low_propensity',
  'other',
];

/**
 * Place types (those of the nine category groups plus the maps service's usual ones) to verticals. Types not
 * listed are 'other'. Every group place type is placed on purpose (docs/SCORING.md, "The components", lists
 * the kinds each propensity row holds).
 */
export const TYPE_VERTICALS: Readonly<Record<string, Vertical>> = {
  car_dealer: 'auto_dealer',
  car_repair: 'auto_repair',
  lawyer: 'legal',
  plumber: 'plumbing',
  roofing_contractor: 'roofing',
  hvac_contractor: 'hvac',
  electrician: 'home_services',
  general_contractor: 'home_services',
  painter: 'home_services',
  landscaper: 'home_services',
  moving_company: 'home_services',
  cleaning_service: 'home_services',
  locksmith: 'home_services',
  pest_control: 'home_services',
  dentist: 'dental',
  dental_clinic: 'dental',
  orthodontist: 'orthodontics',
  doctor: 'medical',
  psychotherapist: 'therapy',
  hospital: 'hospital',
  physiotherapist: 'medical',
  veterinary_care: 'veterinary',
  pharmacy: 'pharmacy',
  drugstore: 'pharmacy',
  spa: 'wellness',
  massage_therapist: 'wellness',
  beauty_salon: 'beauty',
  hair_care: 'beauty',
  hair_salon: 'beauty',
  nail_salon: 'beauty',
  barber_shop: 'beauty',
  school: 'education',
  college: 'education',
  university: 'education',
  movie_theater: 'entertainment',
  bowling_alley: 'entertainment',
  museum: 'entertainment',
  art_gallery: 'entertainment',
  amusement_park: 'entertainment',
  bank: 'finance',
  credit_union: 'finance',
  accounting: 'finance',
  car_wash: 'auto_repair',
  auto_parts_store: 'auto_repair',
  chiropractor: 'medical',
  medical_clinic: 'medical',
  medical_lab: 'medical',
  furniture_store: 'furniture',
  home_goods_store: 'furniture',
  insurance_agency: 'insurance',
  gym: 'fitness',
  fitness_center: 'fitness',
  restaurant: 'restaurant',
  bar: 'bar',
  night_club: 'bar',
  pub: 'bar',
  brewery: 'bar',
  winery: 'bar',
  lodging: 'hotel',
  hotel: 'hotel',
  motel: 'hotel',
  meal_takeaway: 'qsr',
  meal_delivery: 'qsr',
  fast_food_restaurant: 'qsr',
  cafe: 'qsr',
  coffee_shop: 'qsr',
  ice_cream_shop: 'qsr',
  real_estate_agency: 'real_estate',
  gas_station: 'gas_station',
  local_government_office: 'government',
  city_hall: 'government',
  courthouse: 'government',
  police: 'government',
  fire_station: 'government',
  post_office: 'government',
  embassy: 'government',
  church: 'nonprofit',
  place_of_worship: 'nonprofit',
  mosque: 'nonprofit',
  synagogue: 'nonprofit',
  hindu_temple: 'nonprofit',
  atm: 'low_propensity',
  parking: 'low_propensity',
  transit_station: 'low_propensity',
  bus_station: 'low_propensity',
  train_station: 'low_propensity',
  subway_station: 'low_propensity',
  taxi_stand: 'low_propensity',
  electric_vehicle_charging_station: 'low_propensity',
  vending_machine: 'low_propensity',
  // raw OpenStreetMap values that osmBusinessTypes() stores when no category group's type applies
  fast_food: 'qsr',
  food_court: 'qsr',
  ice_cream: 'qsr',
  nightclub: 'bar',
  biergarten: 'bar',
  estate_agent: 'real_estate',
  hostel: 'hotel',
  guest_house: 'hotel',
  fitness_centre: 'fitness',
  townhall: 'government',
  fuel: 'gas_station',
};

/** Words of an injury practice: personal injury, accidents, wrongful death, malpractice, workers' compensation. */
export const INJURY_WORDS =
  /\b(injury|injuries|accidents?|wrongful death|malpractice|mesothelioma|asbestos|workers'? comp(ensation)?|catastrophic|trial lawyers?)\b/i;

/**
 * What an Overture Maps category says beyond the place types it maps to: the kind of law a firm practises, a
 * category most local TV sellers may not accept. Read from the `overture:category` a place of Overture carries.
 */
export const OVERTURE_CATEGORY_VERTICALS: Readonly<Record<string, Vertical>> = {
  personal_injury_law: 'injury_law',
  workers_compensation_law: 'injury_law',
  medical_law: 'injury_law',
  business_law: 'legal_corporate',
  contract_law: 'legal_corporate',
  ip_and_internet_law: 'legal_corporate',
  patent_law: 'legal_corporate',
  entertainment_law: 'legal_corporate',
  cannabis_dispensary: 'restricted',
  cannabis_clinic: 'restricted',
  cannabis_tour: 'restricted',
  adult_entertainment: 'restricted',
  adult_store: 'restricted',
  strip_club: 'restricted',
  gun_and_ammo: 'restricted',
  firearm_training: 'restricted',
  gunsmith: 'restricted',
  shooting_range: 'restricted',
  med_spa: 'medical',
  medical_spa: 'medical',
  plastic_surgeon: 'medical',
  cosmetic_surgeon: 'medical',
};

/**
 * Name patterns that refine or supply a vertical. `over` lists the verticals a match may replace ('other' means
 * "only when nothing better is known"); e.g. "Smile Orthodontics" typed as a dentist becomes orthodontics.
 */
export const NAME_VERTICAL_RULES: ReadonlyArray<{ pattern: RegExp; vertical: Vertical; over: readonly Vertical[] }> = [
  { pattern: /\borthodont/i, vertical: 'orthodontics', over: ['dental', 'medical', 'other'] },
  { pattern: /\b(hvac|heating|air conditioning|a\/c|cooling|furnace)\b/i, vertical: 'hvac', over: ['plumbing', 'other'] },
  { pattern: /\b(plumbing|plumbers?|rooter|drain)\b/i, vertical: 'plumbing', over: ['other'] },
  { pattern: /\b(roofing|roofers?)\b/i, vertical: 'roofing', over: ['other'] },
  { pattern: /\b(dental|dentist|dentistry|dds|dmd)\b/i, vertical: 'dental', over: ['other'] },
  { pattern: /\b(law (firm|office|offices|group|center|corporation)|attorneys?|lawyers?|esq)\b/i, vertical: 'legal', over: ['other'] },
  // A firm that takes injury cases: the law practice that buys the most local TV.
  { pattern: INJURY_WORDS, vertical: 'injury_law', over: ['legal', 'legal_corporate'] },
  // A firm that serves companies, not households, by what its name says it does (international, corporate,
  // patent, securities, business law...). A firm's form (LLP, P.C.) says nothing of its clients: many injury firms
  // are LLPs. A name that says it serves people (injury, family, immigration, defence...) is never corporate.
  { pattern: /^(?!.*\b(injury|injuries|accident|accidents|family|divorce|immigration|criminal|defen[cs]e|dui|dwi|bankruptcy|tenants?|eviction|workers|disability|estate planning|probate|wrongful|malpractice|mesothelioma|asbestos|consumer|employment|civil rights)\b).*\b(international|global|corporate|business law|patent|intellectual property|securities|venture|m&a|mergers)\b/i, vertical: 'legal_corporate', over: ['legal'] },
  { pattern: /\b(insurance)\b/i, vertical: 'insurance', over: ['other'] },
  { pattern: /\b(realty|real estate|realtors?)\b/i, vertical: 'real_estate', over: ['other'] },
  { pattern: /\b(brewery|brewing|taproom|tavern|saloon)\b/i, vertical: 'bar', over: ['other', 'restaurant'] },
  { pattern: /\b(furniture|mattress)\b/i, vertical: 'furniture', over: ['other'] },
  // A medical spa (injectables, lasers, cosmetic medicine) sells like a medical practice, and advertises hard.
  { pattern: /\b(med ?spa|medical spa|medical aesthetics|aesthetic medicine|botox|injectables|cosmetic (surgery|dermatology)|plastic surgery|laser (hair removal|skin|clinic|center|centre))\b/i, vertical: 'medical', over: ['wellness', 'beauty', 'other'] },
  // A hospital by name is a hospital (an animal hospital is tagged as a vet, which this rule does not replace).
  { pattern: /\b(hospital|health system)\b(?!.*\b(animal|pet|veterinary|vet)\b)/i, vertical: 'hospital', over: ['medical'] },
  // Categories most local TV and cable sellers may not accept: cannabis, firearms, adult entertainment.
  { pattern: /\b(cannabis|marijuana|dispensary|thc)\b/i, vertical: 'restricted', over: ['other', 'medical', 'pharmacy', 'wellness'] },
  { pattern: /\b(guns?|firearms?|gunsmith|ammo|ammunition|shooting range)\b/i, vertical: 'restricted', over: ['other', 'entertainment'] },
  { pattern: /\b(adult (world|store|shop|entertainment|video|videos|books?|bookstore|superstore|boutique|toys)|strip club|gentlemen'?s club|sex shop|erotic)\b/i, vertical: 'restricted', over: ['other', 'bar', 'entertainment'] },
  // Businesses that sell to companies and investors, not to the street.
  { pattern: /\b(ventures?|venture capital|capital partners|capital management|asset management|private equity|holdings|software|technologies|analytics|ratings|consulting|consultants|investment bank(ing)?)\b/i, vertical: 'business_services', over: ['finance', 'other'] },
  { pattern: /^(city|county|town|village|state) of\b|\b(department of|dept of|post office|dmv|courthouse|city hall|police department|fire department|sheriff)\b/i, vertical: 'government', over: ['other'] },
  { pattern: /\b(church|ministries|ministry|chapel|parish|mosque|synagogue|charity|nonprofit|non-profit)\b(?!\s+(st|street|ave|avenue|rd|road)\b)|\bfoundation\b(?!\s+repair)/i, vertical: 'nonprofit', over: ['other'] },
]; // prettier-ignore

/**
 * Public and institutional operators (the government and non-profit prefilter rules), recognised by name over
 * any vertical: a public health centre, a VA clinic, a public school or a university's teaching clinic is not
 * a local advertiser, whatever its place type says. Checked in this order; the first match wins. The OSM tags
 * that say the same (`operator:type`, `operator`) are read by `institutionFromTags` in osm-tags.ts.
 */
export const INSTITUTION_NAME_RULES: ReadonlyArray<{ pattern: RegExp; vertical: 'government' | 'nonprofit' }> = [
  { pattern: /\b(public health|health department|department of|dept\.? of|veterans( affairs| administration| health)?|va (medical|health|clinic|hospital|outpatient)|v\.a\.|county (health|hospital|clinic|library|jail|court|offices?)|municipal|public (school|library|defender)|school district|unified school|state (university|college)|community college|city college|(elementary|middle|high|primary|junior high|charter) school|kindergarten)\b/i, vertical: 'government' },
  { pattern: /\b(school|college|faculty) of (dentistry|medicine|nursing|pharmacy|public health|law|optometry)\b|\b(teaching|student|university|campus) (clinic|health)\b/i, vertical: 'nonprofit' },
]; // prettier-ignore

/** The institutional vertical a name says (government or non-profit), or null. */
export function institutionByName(name: string): 'government' | 'nonprofit' | null {
  for (const rule of INSTITUTION_NAME_RULES) if (rule.pattern.test(name)) return rule.vertical;
  return null;
}

/**
 * Who runs a K-12 school (place type `school`), from its name: most US schools are public, so a school is
 * government unless its name says it is religious (non-profit) or a private school or academy (private education).
 */
export function schoolOperator(name: string): 'government' | 'nonprofit' | 'education' {
  if (/\b(saint|st|holy|christian|catholic|lutheran|baptist|methodist|episcopal|jesuit|hebrew|jewish|islamic|yeshiva|parochial|our lady|sacred heart|cristo rey|adventist)\b/i.test(name)) return 'nonprofit';
  if (/\b(montessori|prep|preparatory|private|day school|country day|international|tutoring|learning cent(er|re)|driving|language|music|dance|art|arts|cooking|culinary|beauty|barber|cosmetology|massage|nursing|technical|career|institute)\b/i.test(name)) return 'education';
  return 'government';
} // prettier-ignore

/** GNIS imports mark places that no longer exist with "(historical)" in the name: not a business. */
export const HISTORICAL_NAME = /\(historical\)\s*$/i;

/** The vertical of a list of types (highest priority wins), 'other' when none is known. */
export function verticalForTypes(types: readonly string[]): Vertical {
  const found = new Set<Vertical>();
  for (const t of types) {
    const v = TYPE_VERTICALS[t];
    if (v) found.add(v);
  }
  return pickVertical(found);
}

/** The highest-priority vertical of a set, 'other' when empty. */
export function pickVertical(found: ReadonlySet<Vertical>): Vertical {
  for (const v of VERTICAL_PRIORITY) if (found.has(v)) return v;
  return 'other';
}

/** Refine a vertical with the business name (see {@link NAME_VERTICAL_RULES}). */
export function refineVerticalByName(vertical: Vertical, name: string): Vertical {
  for (const rule of NAME_VERTICAL_RULES) {
    if (rule.over.includes(vertical) && rule.pattern.test(name)) return rule.vertical;
  }
  return vertical;
}
