// Which strategy playbook a business gets: one per row of the scoring model's channel-propensity table
// (docs/SCORING.md, "The components"). The vertical comes from the scoring model's classifier
// (src/core/scoring), so a strategy always speaks about the same vertical the prospect was scored as; a
// vertical already in the prospect's score breakdown is used as is.
import { classify } from '../scoring/analyze';
import {
  PROPENSITY_ROWS,
  VERTICAL_PROPENSITY_ROW,
  type Propensity,
  type PropensityRow,
} from '../scoring/constants';
import { VERTICALS, type Vertical } from '../verticals';

/** The playbooks, one per propensity row of the scoring model. */
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

/** A propensity row's channel propensities (CTV / online video / display / SEM). */
export type ChannelPropensity = Propensity;

const PLAYBOOK_OF_ROW: Readonly<Record<PropensityRow, PlaybookVertical>> = {
  auto_dealer: 'auto_dealer',
  legal_injury: 'legal',
  legal_consumer: 'legal',
  home_services: 'home_services',
  dental_medical: 'health',
  furniture: 'furniture',
  insurance: 'insurance',
  fitness: 'fitness',
  full_service_restaurant: 'restaurant',
  bar_brewery: 'bar',
  hotel_chain: 'hotel',
  quick_service_restaurant: 'qsr',
  real_estate: 'real_estate',
  other: 'other',
  // Firms selling to companies get the general playbook, which names the business by its category.
  business_to_business: 'other',
};

/**
 * The scoring model's propensity rows, keyed by playbook: each playbook's own row (the legal playbook keeps the
 * legal-injury row; 'other' is the general row, not the one of firms selling to companies).
 */
export const CHANNEL_PROPENSITY: Readonly<Record<PlaybookVertical, ChannelPropensity>> = Object.fromEntries(
  (Object.keys(PLAYBOOK_OF_ROW) as PropensityRow[])
    .filter((row) => row !== 'business_to_business' && row !== 'legal_consumer')
    .map((row) => [PLAYBOOK_OF_ROW[row], PROPENSITY_ROWS[row]]),
) as Record<PlaybookVertical, ChannelPropensity>;

/**
 * The trade within a playbook, for wording ("plumbing" vs "roofing", "orthodontic" vs "dental"). Same playbook,
 * same propensities.
 */
export type Trade = 'hvac' | 'plumbing' | 'roofing' | 'dental' | 'orthodontics' | 'medical' | null;

export interface VerticalMatch {
  vertical: PlaybookVertical;
  trade: Trade;
  /** The scoring model's vertical ('dental', 'auto_repair', ...). */
  scoring: Vertical;
}

export interface VerticalInput {
  name: string;
  category: string;
  types?: readonly string[];
  /** The scoring model's vertical, when the prospect was already scored (its breakdown's `vertical`). */
  vertical?: string;
}

const VERTICAL_SET: ReadonlySet<string> = new Set(VERTICALS);
const TRADES: ReadonlySet<string> = new Set([
  'hvac',
  'plumbing',
  'roofing',
  'dental',
  'orthodontics',
  'medical',
]);

/**
 * Verticals scored on another kind of business's propensity row (a vet on the fitness row, a museum on the
 * restaurant row): their channel fit is alike, their customers are not, so their strategy is the general playbook
 * that names the business by its category. Home services share the HVAC/plumbing/roofing playbook on purpose.
 */
const BORROWED_ROW: ReadonlySet<Vertical> = new Set<Vertical>([
  'veterinary',
  'finance',
  'education',
  'wellness',
  'beauty',
  'entertainment',
  'pharmacy',
  'legal_corporate',
]);

/** The playbook of a business: the scoring model's vertical, given or computed, mapped to its propensity row. */
export function classifyVertical(input: VerticalInput): VerticalMatch {
  const scoring: Vertical =
    input.vertical && VERTICAL_SET.has(input.vertical)
      ? (input.vertical as Vertical)
      : classify({ name: input.name, category: input.category, types: input.types ?? [] });
  return {
    vertical: BORROWED_ROW.has(scoring) ? 'other' : PLAYBOOK_OF_ROW[VERTICAL_PROPENSITY_ROW[scoring]],
    trade: TRADES.has(scoring) ? (scoring as Exclude<Trade, null>) : null,
    scoring,
  };
}
