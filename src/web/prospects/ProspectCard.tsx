import { memo, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Collapse,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import type { Prospect } from '../../core/types';
import { VERTICAL_LABELS } from '../../core/verticals';
// The constants only (labels): the scoring model itself stays off the page.
import { KEYWORD_LABELS, type KeywordGroup, type ScoreRule } from '../../core/scoring/constants';
import { api, type Advertiser, type PlaceDetails } from '../api';
import { SignalChips } from './SignalChips';
import { PipelineRow } from '../main/pipeline/PipelineRow';
import type { PipelineEntry } from '../../core/api';
import type { FollowUpInput } from '../api';
import { FollowUpFields } from '../main/follow-ups/FollowUpFields';
import { EMPTY_DRAFT, followUpFromDraft, type FollowUpDraft } from '../main/follow-ups/draft';
import { useDialogs } from '../dialogs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useOnline } from '../offline/useOnline';
import { NEEDS_CONNECTION } from '../offline/texts';
import {
  directionsUrl,
  formatDateTime,
  fullAddress,
  hasRealCategory,
  scoreColor,
  scoreHex,
  scorePercent,
  scoreTextHex,
  telHref,
  websiteHref,
} from '../format';
import {
  OUTCOME_CALLED,
  OUTCOME_SAVE,
  OUTCOME_VISITED,
  PHONE_NOT_AVAILABLE,
  SET_CATEGORY_FIRST,
  reasoningHeading,
  WEBSITE_NOT_AVAILABLE,
} from '../texts';

export interface CardActions {
  /** Log an outcome, with a follow-up when one was set; resolves when stored (the draft is cleared then). */
  onLog: (prospect: Prospect, outcome: string, note: string, followUp?: FollowUpInput) => Promise<void>;
  onStrategy: (prospect: Prospect) => void;
  onSetCategory?: (prospect: Prospect, category: string) => Promise<void>;
  onMark: (prospect: Prospect) => Promise<void>;
  onUnmark?: (prospect: Prospect) => Promise<void>;
  onBlock?: (prospect: Prospect) => Promise<void>;
  onRemove?: (prospect: Prospect) => Promise<void>;
  /** The team pipeline (issue 18): claim or move the business; admins reassign or release it. */
  onStage?: (prospect: Prospect, stage: PipelineEntry['stage']) => Promise<void>;
  onReassign?: (prospect: Prospect, userId: string) => Promise<void>;
  onRelease?: (prospect: Prospect) => Promise<void>;
}

const BREAKDOWN_ROWS = [
  ['fit', 'Channel fit'],
  ['presence', 'Online presence'],
  ['scale', 'Size'],
  ['keywords', 'Name signals'],
  ['distance', 'Distance'],
  ['qualitySpread', 'Scan variety bonus'],
] as const;

/** Words a rep reads for the rules that decide a score outright. */
const RULE_LABELS: Readonly<Record<ScoreRule | 'fallback', string>> = {
  nationalChain: 'national chain',
  lowPropensity: 'does not buy local advertising',
  restricted: 'a category many stations may not accept',
  autoRepair: 'independent auto repair',
  chain: 'part of a chain',
  gasStation: 'gas station',
  government: 'public institution',
  hospital: 'hospital',
  nonProfit: 'non-profit',
  fallback: 'category estimate',
};

function ScoreBreakdown({ prospect }: { prospect: Prospect }) {
  const b = prospect.aiAnalysis?.breakdown;
  if (!b) return null;
  const score = prospect.aiAnalysis?.score ?? Math.round(prospect.score * 100);
  const vertical = VERTICAL_LABELS[b.vertical] ?? String(b.vertical).replaceAll('_', ' ');
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        Scored as {vertical.toLowerCase()}
        {b.rule ? ` — rule: ${RULE_LABELS[b.rule]}` : ''}
        {b.brand ? ` — brand: ${b.brand}` : ''}
      </Text>
      {b.points || !b.rule ? (
        <Table withRowBorders={false} verticalSpacing={2} fz="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Component</Table.Th>
              <Table.Th ta="right">Value</Table.Th>
              <Table.Th ta="right">Points</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {b.points && (
              <Table.Tr>
                <Table.Td>Starting points</Table.Td>
                <Table.Td />
                <Table.Td ta="right">{b.points.base}</Table.Td>
              </Table.Tr>
            )}
            {BREAKDOWN_ROWS.map(([key, label]) => (
              <Table.Tr key={key}>
                <Table.Td>{label}</Table.Td>
                <Table.Td ta="right">{Math.round((b[key] ?? 0) * 100)}%</Table.Td>
                <Table.Td ta="right">
                  {b.points ? b.points[key] : ((b.contributions?.[key] ?? 0) * 100).toFixed(1)}
                </Table.Td>
              </Table.Tr>
            ))}
            {b.points && (
              <Table.Tr>
                <Table.Td fw={700}>Score</Table.Td>
                <Table.Td />
                <Table.Td ta="right" fw={700}>
                  {score}
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="xs">
          A rule decides this score: {b.rule ? RULE_LABELS[b.rule] : ''} ({score}).
        </Text>
      )}
      {b.quantile !== undefined && b.quantile !== null && b.reference && (
        <Text size="xs">
          Standing {Math.min(100, Math.round(b.quantile * 100))}/100 on the scale of the reference market (
          {b.reference.population.toLocaleString('en-US')} businesses): the same wherever it is scanned.
        </Text>
      )}
      {b.keywordMatches && b.keywordMatches.length > 0 && (
        <Text size="xs">
          Name signals: {b.keywordMatches.map((k) => KEYWORD_LABELS[k as KeywordGroup] ?? k).join(', ')}
        </Text>
      )}
    </Stack>
  );
}

/** What a restricted category is, as its flag says it. */
const RESTRICTED_LABELS = {
  cannabis: 'Cannabis',
  firearms: 'Firearms',
  adult: 'Adult entertainment',
} as const;

/** Memoized: a card renders again only when its own props change (see useStableHandlers for the actions). */
export const ProspectCard = memo(function ProspectCard(props: {
  prospect: Prospect;
  number?: number;
  variant: 'prospects' | 'saved';
  advertiser: Advertiser | undefined;
  isAdmin: boolean;
  actions: CardActions;
  /** The numbered badge opens this prospect's marker on the map. */
  onShowOnMap?: (prospect: Prospect) => void;
  /** The strategy modal is a separate feature; the button shows once it is there. */
  strategyAvailable: boolean;
  /** Saved tab: the note typed with Save for Later. */
  savedNote?: string | undefined;
  /** The business's pipeline entry (owner, stage, since), when someone works it. */
  pipeline?: PipelineEntry | undefined;
  /** The signed-in user's id: the owner may move the stage. */
  meId?: string | undefined;
}) {
  const { prospect: p, variant, advertiser, actions } = props;
  const { notify, prompt } = useDialogs();
  // Issue 20: a new strategy needs the server's AI: offline only a kept one (in the device's cache) opens.
  const online = useOnline();
  const queryClient = useQueryClient();
  const strategyOffline = !online && queryClient.getQueryData(['strategy', p.id, 0]) === undefined;
  // Fetched on demand (Call, Website) into the query cache, which is kept on the device (issue 20): details the
  // rep opened online are there offline too. A failed fetch is remembered here only (tried again on reload).
  const detailsId = p.placeId || p.id;
  const detailsKey = ['placeDetails', detailsId] as const;
  const cachedDetails = useQuery({
    queryKey: detailsKey,
    queryFn: () => api.placeDetails(detailsId),
    enabled: false,
    staleTime: Infinity,
  }).data;
  const [failedDetails, setFailedDetails] = useState(false);
  const details: PlaceDetails | null = cachedDetails ?? (failedDetails ? {} : null);
  const [outcome, setOutcome] = useState('');
  const [note, setNote] = useState('');
  const [followUp, setFollowUp] = useState<FollowUpDraft>(EMPTY_DRAFT);
  const [logging, setLogging] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [showBreakdown, setShowBreakdown] = useState(false);
  const [breakdownBuilt, setBreakdownBuilt] = useState(false);

  const phone = p.phone || details?.phone || '';
  const website = websiteHref(p.website || details?.website);
  const canFetchDetails = Boolean(detailsId) && details === null;
  const analysis = p.aiAnalysis;
  const headingId = `prospect-${p.id}-name`;

  const fetchDetails = async (): Promise<PlaceDetails | null> => {
    try {
      return await queryClient.fetchQuery({
        queryKey: detailsKey,
        queryFn: () => api.placeDetails(detailsId),
        staleTime: Infinity,
      });
    } catch (error) {
      console.warn('place details failed', error);
      setFailedDetails(true);
      return null;
    }
  };

  const call = async () => {
    setBusy('call');
    const found = await fetchDetails();
    setBusy(null);
    if (found?.phone) window.location.href = telHref(found.phone);
    else notify(PHONE_NOT_AVAILABLE, 'error');
  };

  const openWebsite = async () => {
    // The tab opens now, inside the click: one opened after the details request is a blocked popup on iOS
    // Safari. It is sent to the website once the details name one, or closed again when there is none.
    const tab = window.open('', '_blank');
    setBusy('website');
    const found = await fetchDetails();
    setBusy(null);
    const href = websiteHref(found?.website);
    if (href && tab) {
      tab.opener = null;
      tab.location.href = href;
      return;
    }
    tab?.close();
    if (href) window.open(href, '_blank', 'noopener');
    else notify(WEBSITE_NOT_AVAILABLE, 'error');
  };

  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    try {
      await action();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), 'error');
    } finally {
      setBusy(null);
    }
  };

  const setCategory = async () => {
    const value = await prompt('Set category', 'Category');
    const category = value?.trim();
    if (!category || !actions.onSetCategory) return; // SPEC §5: blank is ignored
    await run('category', () => actions.onSetCategory!(p, category));
  };

  const log = async () => {
    if (!outcome) return;
    setLogging(true);
    try {
      const next = outcome === OUTCOME_SAVE ? undefined : followUpFromDraft(followUp);
      await actions.onLog(p, outcome, note, next);
      setOutcome('');
      setNote('');
      setFollowUp(EMPTY_DRAFT);
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), 'error');
    } finally {
      setLogging(false);
    }
  };

  const outcomes =
    variant === 'saved' ? [OUTCOME_CALLED, OUTCOME_VISITED] : [OUTCOME_CALLED, OUTCOME_VISITED, OUTCOME_SAVE];
  const showCall = variant === 'prospects' || phone !== '';
  // Issue 18: a call or visit can set a follow-up; the Log button then comes after its fields.
  const withFollowUp = outcome === OUTCOME_CALLED || outcome === OUTCOME_VISITED;
  const logButton = (
    <Button
      size="xs"
      disabled={!outcome || (followUp.pick === 'date' && !followUp.date)}
      loading={logging}
      onClick={() => void log()}
    >
      Log
    </Button>
  );
  const showWebsite = variant === 'prospects' || website !== null;

  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      component="article"
      className="prospect-card"
      aria-labelledby={headingId}
      data-testid="prospect-card"
    >
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Group gap={8} wrap="nowrap" align="flex-start">
            {props.number !== undefined && (
              <button
                type="button"
                className={`card-number prospect-marker-${scoreColor(p.score)}`}
                aria-label={`Number ${props.number}: show ${p.name} on the map`}
                title="Show on the map"
                onClick={() => props.onShowOnMap?.(p)}
              >
                {props.number}
              </button>
            )}
            <div>
              <Text fw={700} id={headingId} className="prospect-name" data-testid="prospect-name">
                {p.name}
              </Text>
              <Text size="sm" c="dimmed">
                {p.category || 'Business'}
              </Text>
            </div>
          </Group>
          <Badge
            color={scoreHex(p.score)}
            style={{ flexShrink: 0, color: scoreTextHex(p.score) }}
            size="lg"
            variant="filled"
            aria-label={`Score ${scorePercent(p.score)}`}
          >
            {scorePercent(p.score)}
          </Badge>
        </Group>
        <Text size="sm">{fullAddress(p)}</Text>
        {p.sources && <FieldSourcesLine sources={p.sources} />}
        {actions.onStage && props.meId !== undefined && (
          <PipelineRow
            prospect={p}
            entry={props.pipeline}
            meId={props.meId}
            isAdmin={props.isAdmin}
            onStage={actions.onStage}
            onReassign={actions.onReassign}
            onRelease={actions.onRelease}
            onError={(error) => notify(error instanceof Error ? error.message : String(error), 'error')}
          />
        )}
        {p.signals && p.signals.length > 0 && <SignalChips signals={p.signals} labelledBy={headingId} />}
        {props.savedNote && (
          <Text size="sm" data-testid="saved-note">
            <Text span fw={600} size="sm">
              Note:
            </Text>{' '}
            {props.savedNote}
          </Text>
        )}
        {analysis?.breakdown?.restricted && (
          <Alert color="orange" variant="light" p={6} data-testid="restricted-flag">
            <Text size="sm">
              <Text span fw={600} size="sm">
                {RESTRICTED_LABELS[analysis.breakdown.restricted]}:
              </Text>{' '}
              most local TV and cable sellers may not accept its ads. Check your station's policy before
              calling.
            </Text>
          </Alert>
        )}
        {advertiser && (
          <Alert color="grape" variant="light" p={6} data-testid="advertiser-banner">
            <Text size="sm">
              Current advertiser — marked by {advertiser.markedByName} on{' '}
              {formatDateTime(advertiser.markedAt)}
            </Text>
          </Alert>
        )}
        {analysis && (
          <div className="analysis-block">
            <Text size="sm" fw={600}>
              AI confidence: {Math.round(analysis.confidence ?? 0)}%
            </Text>
            {analysis.reasoning && (
              <>
                <Text size="sm" fw={600} mt={4} data-testid="reasoning-heading">
                  {reasoningHeading(Math.round(analysis.score ?? p.score * 100))}
                </Text>
                <Text size="sm">{analysis.reasoning}</Text>
                {analysis.reasoningModel && (
                  <Text size="xs" c="dimmed" data-testid="reasoning-model">
                    Written by {analysis.reasoningModel}
                  </Text>
                )}
              </>
            )}
            {(analysis.recommendations ?? []).length > 0 && (
              <>
                <Text size="sm" fw={600} mt={4} id={`${headingId}-recs`}>
                  Recommended ad solutions:
                </Text>
                <Group gap={4} mt={2} role="list" aria-labelledby={`${headingId}-recs`}>
                  {(analysis.recommendations ?? []).map((r) => (
                    <Badge key={r} variant="outline" color="blue" tt="none" role="listitem">
                      {r}
                    </Badge>
                  ))}
                </Group>
              </>
            )}
            {analysis.breakdown && (
              <>
                <Anchor
                  component="button"
                  type="button"
                  size="xs"
                  mt={4}
                  onClick={() => {
                    setBreakdownBuilt(true);
                    setShowBreakdown((v) => !v);
                  }}
                  aria-expanded={showBreakdown}
                >
                  {showBreakdown ? 'Hide score breakdown' : 'Show score breakdown'}
                </Anchor>
                <Collapse expanded={showBreakdown}>
                  {/* Built on first opening: a table per card for every card of the list is most of the
                      list's first render (issue 14 item 13). */}
                  {breakdownBuilt && <ScoreBreakdown prospect={p} />}
                </Collapse>
              </>
            )}
          </div>
        )}
        <Group gap={6} wrap="wrap">
          {showCall &&
            (phone ? (
              <Button
                component="a"
                href={telHref(phone)}
                size="xs"
                variant="light"
                aria-label={`Call ${p.name}`}
              >
                Call
              </Button>
            ) : (
              <Button
                size="xs"
                variant="light"
                loading={busy === 'call'}
                onClick={() => (canFetchDetails ? void call() : notify(PHONE_NOT_AVAILABLE, 'error'))}
                aria-label={`Call ${p.name}`}
              >
                Call
              </Button>
            ))}
          <Button
            component="a"
            href={directionsUrl(p)}
            target="_blank"
            rel="noopener noreferrer"
            size="xs"
            variant="light"
            aria-label={`Directions to ${p.name}`}
          >
            Directions
          </Button>
          {showWebsite &&
            (website ? (
              <Button
                component="a"
                href={website}
                target="_blank"
                rel="noopener noreferrer"
                size="xs"
                variant="light"
                aria-label={`Website of ${p.name}`}
              >
                Website
              </Button>
            ) : (
              <Button
                size="xs"
                variant="light"
                loading={busy === 'website'}
                onClick={() =>
                  canFetchDetails ? void openWebsite() : notify(WEBSITE_NOT_AVAILABLE, 'error')
                }
                aria-label={`Website of ${p.name}`}
              >
                Website
              </Button>
            ))}
          {props.strategyAvailable && (
            <Button
              size="xs"
              variant="light"
              color="violet"
              onClick={() =>
                hasRealCategory(p.category) ? actions.onStrategy(p) : notify(SET_CATEGORY_FIRST, 'error')
              }
              disabled={strategyOffline}
              title={strategyOffline ? NEEDS_CONNECTION : undefined}
              aria-label={
                strategyOffline ? `Strategy for ${p.name}: ${NEEDS_CONNECTION}` : `Strategy for ${p.name}`
              }
            >
              Strategy
            </Button>
          )}
          {!hasRealCategory(p.category) && actions.onSetCategory && (
            <Button
              size="xs"
              variant="default"
              loading={busy === 'category'}
              onClick={() => void setCategory()}
            >
              Set category
            </Button>
          )}
        </Group>
        <Group gap={6} align="flex-end" wrap="wrap">
          <NativeSelect
            label="Status"
            size="xs"
            value={outcome}
            onChange={(e) => setOutcome(e.currentTarget.value)}
            data={[{ value: '', label: 'Select status' }, ...outcomes.map((o) => ({ value: o, label: o }))]}
            w={140}
          />
          <TextInput
            label="Note"
            size="xs"
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            maxLength={2000}
            style={{ flex: 1, minWidth: 140 }}
          />
          {!withFollowUp && logButton}
        </Group>
        {withFollowUp && (
          <>
            <FollowUpFields value={followUp} onChange={setFollowUp} idPrefix={headingId} />
            <Group>{logButton}</Group>
          </>
        )}
        <Group gap={6} wrap="wrap">
          {!advertiser && (
            <Button
              size="xs"
              variant="subtle"
              color="grape"
              loading={busy === 'mark'}
              onClick={() => void run('mark', () => actions.onMark(p))}
            >
              Mark as current advertiser
            </Button>
          )}
          {advertiser && props.isAdmin && actions.onUnmark && (
            <Button
              size="xs"
              variant="subtle"
              color="grape"
              loading={busy === 'unmark'}
              onClick={() => void run('unmark', () => actions.onUnmark!(p))}
            >
              Unmark current advertiser
            </Button>
          )}
          {props.isAdmin && actions.onBlock && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              loading={busy === 'block'}
              onClick={() => void run('block', () => actions.onBlock!(p))}
            >
              Block
            </Button>
          )}
          {actions.onRemove && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              loading={busy === 'remove'}
              onClick={() => void run('remove', () => actions.onRemove!(p))}
            >
              Remove
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
});

/** The fields a card says the source of, in its words. */
const SOURCED_FIELDS = [
  ['phone', 'Phone'],
  ['website', 'Website'],
  ['address', 'Address'],
] as const;

/**
 * Where the card's phone, website and address came from: "Source: OpenStreetMap" when one source gave them all,
 * else each ("Phone: Overture (Meta) · Address: OpenStreetMap").
 */
function FieldSourcesLine({ sources }: { sources: NonNullable<Prospect['sources']> }) {
  const given = SOURCED_FIELDS.flatMap(([field, label]) => {
    const source = sources[field];
    return source ? [{ label, source }] : [];
  });
  if (given.length === 0) return null;
  const one = given.every((g) => g.source === given[0]?.source);
  return (
    <Text size="xs" c="dimmed" data-testid="field-sources">
      {one ? `Source: ${given[0]?.source}` : given.map((g) => `${g.label}: ${g.source}`).join(' · ')}
    </Text>
  );
}
