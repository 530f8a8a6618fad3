// The `demo` provider, the mock search mode: a grid of sample businesses around the centre, 6 per row, 0.001°
// apart, with fixed sample names per category. Every one is marked as demo data (source 'demo', demo: true) so
// the screen can say so; phone numbers are in the fictional 555-01xx range and websites on example.com.
import { ALL_PLACE_TYPES, labelForPlaceType } from '../../core/categories.js';
import {
  finishNearby,
  matchesTypes,
  wantsEveryType,
  type FoundBusiness,
  type NearbyQuery,
  type PlaceDetails,
  type PlaceProvider,
  type TextSearchQuery,
} from './provider.js';

export const DEMO_PER_ROW = 6;
export const DEMO_SPACING_DEGREES = 0.001;

/** Fixed sample names per place type (two each). */
export const DEMO_NAMES: Readonly<Record<string, readonly [string, string]>> = {
  lawyer: ['Hartley & Moss Injury Law', 'Summit Family Law Group'],
  dentist: ['Bright Smile Family Dental', 'Magic City Orthodontics'],
  doctor: ['Southside Family Medicine', 'Riverchase Urgent Care'],
  hospital: ['St. Vincent Community Hospital', 'Valley Regional Medical Center'],
  physiotherapist: ['Motion Physical Therapy', 'Peak Performance Rehab'],
  veterinary_care: ['Five Points Animal Clinic', 'Homewood Pet Hospital'],
  pharmacy: ['Corner Drug Company', 'Main Street Pharmacy'],
  beauty_salon: ['Glow Beauty Bar', 'Polished Nail Studio'],
  hair_care: ['Sharp Edge Barbershop', 'Salon Bellissima'],
  spa: ['Serenity Day Spa', 'Oasis Med Spa'],
  gym: ['Iron City Fitness', 'CrossFit Red Mountain'],
  massage_therapist: ['Healing Hands Massage', 'Knot Today Massage Therapy'],
  plumber: ['Reliable Rooter Plumbing', 'Magic City Plumbing Co.'],
  electrician: ['Spark Electric Services', 'Bright Wire Electrical'],
  general_contractor: ['Cornerstone Builders', 'Vulcan Construction Group'],
  roofing_contractor: ['Top Notch Roofing', 'Shield Roofing & Exteriors'],
  cleaning_service: ['Sparkle Clean Maids', 'Pro Carpet & Upholstery Care'],
  landscaper: ['Green Acres Landscaping', 'Southern Lawn Pros'],
  moving_company: ['Two Guys Moving & Storage', 'Smooth Move Relocation'],
  painter: ['Fresh Coat Painters', 'True Color Painting Co.'],
  movie_theater: ['Starlight Cinema 12', 'The Alabama Picture House'],
  bowling_alley: ['Lucky Strike Lanes', 'Vulcan Bowl'],
  museum: ['Magic City History Museum', 'Southern Science Center'],
  art_gallery: ['Canvas & Co. Gallery', 'Red Door Art Space'],
  amusement_park: ['Funtown Adventure Park', 'Thrill Zone Family Fun'],
  school: ['Oak Grove Academy', 'Bright Futures Learning Center'],
  college: ['Metro Technical College', 'Southern Culinary Institute'],
  university: ['Highland University', 'Riverside State University'],
  car_dealer: ['Southern Motors Toyota', 'Magic City Ford'],
  car_repair: ['Precision Auto Repair', 'Brake & Tire Pros'],
  car_wash: ['Shine Time Car Wash', 'Bubbles Express Wash'],
  auto_parts_store: ['Parts Depot Auto Supply', 'Speedway Auto Parts'],
  gas_station: ['Quick Fuel Market', 'Corner Gas & Go'],
  bank: ['Red Mountain Community Bank', 'Iron City Savings'],
  credit_union: ['Teachers Federal Credit Union', 'Magic City Credit Union'],
  atm: ['Downtown ATM Center', 'Five Points ATM'],
  insurance_agency: ['Shield Insurance Agency', 'Hometown Insurance Partners'],
  accounting: ['Ledger & Lane CPAs', 'Smith Tax & Bookkeeping'],
  furniture_store: ['Southern Home Furniture', 'Oak & Iron Furniture Gallery'],
};

/** The demo grid for a query: the names of the requested types (every type when none), laid out in rows of 6. */
export function demoBusinesses(q: Pick<NearbyQuery, 'lat' | 'lng' | 'types'>): FoundBusiness[] {
  const types = wantsEveryType(q.types) ? [...ALL_PLACE_TYPES] : q.types.filter((t) => DEMO_NAMES[t]);
  const entries = types.flatMap((type) => (DEMO_NAMES[type] ?? []).map((name) => ({ type, name })));
  const rows = Math.ceil(entries.length / DEMO_PER_ROW);
  return entries.map(({ type, name }, i) => {
    const row = Math.floor(i / DEMO_PER_ROW);
    const col = i % DEMO_PER_ROW;
    const slug = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    return {
      id: `demo:${type}:${slug}`,
      name,
      lat: q.lat + (row - (rows - 1) / 2) * DEMO_SPACING_DEGREES,
      lng: q.lng + (col - (DEMO_PER_ROW - 1) / 2) * DEMO_SPACING_DEGREES,
      types: [type],
      category: labelForPlaceType(type),
      address: `${100 + i * 10} Sample Street (demo data)`,
      phone: `(205) 555-01${String(i % 100).padStart(2, '0')}`,
      website: `https://example.com/demo/${slug}`,
      rating: Math.round((3.6 + ((i * 7) % 14) / 10) * 10) / 10,
      reviews: 12 + ((i * 37) % 400),
      openNow: true,
      source: 'demo',
      demo: true,
    };
  });
}

export function createDemoProvider(): PlaceProvider {
  return {
    name: 'demo',
    nearby(q: NearbyQuery): Promise<FoundBusiness[]> {
      const list = demoBusinesses(q).filter((b) => matchesTypes(b, q.types));
      return Promise.resolve(finishNearby(q, q.radiusMiles, list, q.limit));
    },
    textSearch(q: TextSearchQuery): Promise<FoundBusiness[]> {
      const words = q.query.toLowerCase().split(/\s+/).filter(Boolean);
      const hits = demoBusinesses({ ...q, types: [] }).filter((b) => {
        const hay = `${b.name} ${b.category} ${b.types.join(' ')}`.toLowerCase();
        return words.length > 0 && words.every((w) => hay.includes(w));
      });
      return Promise.resolve(finishNearby(q, q.radiusMiles, hits, 20));
    },
    details(id: string): Promise<PlaceDetails | null> {
      // The grid is built around the scan centre; its contact fields do not depend on it.
      const b = demoBusinesses({ lat: 0, lng: 0, types: [] }).find((x) => x.id === id);
      return Promise.resolve(
        b
          ? {
              ...(b.phone && { phone: b.phone }),
              ...(b.website && { website: b.website }),
              address: b.address,
            }
          : null,
      );
    },
  };
}
