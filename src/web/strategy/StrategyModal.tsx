import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  List,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { Strategy } from '../../core/strategy/schema';
import { APPOINTMENT_STRATEGY_FAILED, STRATEGY_FAILED } from '../../core/strategy/messages';
import { SECTION_TITLES, strategyAsText } from '../../core/strategy/text';
import { ApiError } from '../api';
import { useCopy } from '../admin/copy';
import { useDialogs } from '../dialogs';
import type { StrategyModalProps } from '../extensions';
import { generateStrategy, type StrategyResult } from './api';

const strategyKey = (id: string, run: number) => ['strategy', id, run] as const;

const SOURCE_LABEL: Record<StrategyResult['source'], string> = {
  ai: 'AI',
  playbook: 'Built-in playbook',
  fallback: 'Fallback',
};

/** The appointment strategy modal: loading, failure, content. */
export function StrategyModal({ prospect, onClose }: StrategyModalProps) {
  const queryClient = useQueryClient();
  const phone = useMediaQuery('(max-width: 40em)');
  // Run 0 is the kept strategy (or a fresh one); each Regenerate is a new run asking for a new one.
  const [run, setRun] = useState(0);
  const query = useQuery({
    queryKey: strategyKey(prospect.id, run),
    queryFn: async ({ signal }) => {
      const result = await generateStrategy(prospect, run > 0, { signal });
      if (run > 0) queryClient.setQueryData(strategyKey(prospect.id, 0), result);
      return result;
    },
    retry: false,
    staleTime: Infinity,
    gcTime: run === 0 ? 10 * 60_000 : 0,
    refetchOnWindowFocus: false,
  });

  const regenerate = () => setRun((n) => n + 1);

  // Besides the modal's failure state, an alert for a strategy that could not be generated.
  const { notify } = useDialogs();
  useEffect(() => {
    if (query.isError) notify(APPOINTMENT_STRATEGY_FAILED, 'error');
  }, [query.isError, query.errorUpdatedAt, notify]);

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Close strategy' }}
      title={
        <Stack gap={0}>
          <Text fw={700}>Appointment Strategy</Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {prospect.name}
            {prospect.category ? ` · ${prospect.category}` : ''}
          </Text>
        </Stack>
      }
    >
      {query.isPending && (
        <Stack
          align="center"
          gap="sm"
          py="xl"
          role="status"
          aria-live="polite"
          data-testid="strategy-loading"
        >
          <Loader aria-hidden />
          <Text>Generating appointment strategy...</Text>
          <Text size="sm" c="dimmed">
            This can take up to a minute.
          </Text>
        </Stack>
      )}
      {query.isError && (
        <Stack gap="sm" data-testid="strategy-error">
          <Alert color="red" role="alert" title={STRATEGY_FAILED}>
            {detailOf(query.error)}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button onClick={() => void query.refetch()}>Try Again</Button>
          </Group>
        </Stack>
      )}
      {query.isSuccess && (
        <StrategyContent
          result={query.data}
          businessName={prospect.name}
          regenerating={query.isFetching}
          onRegenerate={regenerate}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

/** The specific reason under the modal's failure message (STRATEGY_FAILED), when there is one worth adding. */
function detailOf(error: unknown): string | null {
  const message = error instanceof ApiError ? error.message : '';
  return message && message !== STRATEGY_FAILED ? message : null;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" data-testid="strategy-section">
      <Title order={4} size="h5" mb={4}>
        {title}
      </Title>
      {children}
    </Box>
  );
}

function Bullets({ items }: { items: readonly string[] }) {
  return (
    <List size="sm" spacing={2}>
      {items.map((item, i) => (
        <List.Item key={i}>{item}</List.Item>
      ))}
    </List>
  );
}

const nonEmpty = (items: readonly unknown[] | undefined): items is readonly unknown[] =>
  Array.isArray(items) && items.length > 0;

function StrategyContent(props: {
  result: StrategyResult;
  businessName: string;
  regenerating: boolean;
  onRegenerate: () => void;
  onClose: () => void;
}) {
  const s: Strategy = props.result.strategy;
  const { notify } = useDialogs();
  const { copied, copy } = useCopy();
  const doCopy = (key: string, text: string) =>
    void copy(key, text).then((ok) => {
      if (!ok) notify('Copy failed: select the text and copy it by hand.', 'error');
    });

  return (
    <Stack gap="md" data-testid="strategy-content">
      <Group gap="xs" wrap="wrap">
        <Badge variant="light" data-testid="strategy-source">
          {SOURCE_LABEL[props.result.source]}
          {props.result.model ? ` · ${props.result.model}` : ''}
        </Badge>
        {props.result.cached && (
          <Text size="xs" c="dimmed">
            Kept from an earlier request. Regenerate for a new one.
          </Text>
        )}
      </Group>

      <Section title={SECTION_TITLES.openingLine}>
        <Text size="sm">{s.openingLine}</Text>
      </Section>
      <Section title={SECTION_TITLES.bestTimeToCall}>
        <Text size="sm">{s.bestTimeToCall}</Text>
      </Section>
      {nonEmpty(s.keyTalkingPoints) && (
        <Section title={SECTION_TITLES.keyTalkingPoints}>
          <Bullets items={s.keyTalkingPoints} />
        </Section>
      )}
      {nonEmpty(s.objectionHandlers) && (
        <Section title={SECTION_TITLES.objectionHandlers}>
          <Stack gap={6}>
            {s.objectionHandlers.map((h, i) => (
              <Box key={i}>
                <Text size="sm" fw={600}>
                  “{h.objection}”
                </Text>
                <Text size="sm">{h.response}</Text>
              </Box>
            ))}
          </Stack>
        </Section>
      )}
      <Section title={SECTION_TITLES.valueProposition}>
        <Text size="sm">{s.valueProposition}</Text>
      </Section>
      <Section title={SECTION_TITLES.callToAction}>
        <Text size="sm">{s.callToAction}</Text>
      </Section>
      {nonEmpty(s.hookLines) && (
        <Section title={SECTION_TITLES.hookLines}>
          <HookLines lines={s.hookLines} copied={copied} onCopy={doCopy} />
        </Section>
      )}
      {nonEmpty(s.competitiveAngles) && (
        <Section title={SECTION_TITLES.competitiveAngles}>
          <Bullets items={s.competitiveAngles} />
        </Section>
      )}
      {nonEmpty(s.verticalInsights) && (
        <Section title={SECTION_TITLES.verticalInsights}>
          <Bullets items={s.verticalInsights} />
        </Section>
      )}
      {nonEmpty(s.discoveryQuestions) && (
        <Section title={SECTION_TITLES.discoveryQuestions}>
          <Bullets items={s.discoveryQuestions} />
        </Section>
      )}
      {nonEmpty(s.mediaMix) && (
        <Section title={SECTION_TITLES.mediaMix}>
          <MediaMixTable rows={s.mediaMix} />
        </Section>
      )}
      {nonEmpty(s.plan30Day) && (
        <Section title={SECTION_TITLES.plan30Day}>
          <List type="ordered" size="sm" spacing={2}>
            {s.plan30Day.map((item, i) => (
              <List.Item key={i}>{item}</List.Item>
            ))}
          </List>
        </Section>
      )}
      {(['introEmail', 'followUpEmail', 'voicemailScript'] as const).map((key) => (
        <CopyBlock key={key} field={key} text={s[key]?.trim()} copied={copied} onCopy={doCopy} />
      ))}

      <Group justify="flex-end" gap="xs" wrap="wrap" className="strategy-actions">
        <Text size="xs" c="green" aria-live="polite" data-testid="copy-feedback">
          {copied ? 'Copied to clipboard' : ''}
        </Text>
        <Button variant="default" onClick={props.onRegenerate} loading={props.regenerating}>
          Regenerate
        </Button>
        <Button variant="light" onClick={() => doCopy('all', strategyAsText(s, props.businessName))}>
          {copied === 'all' ? 'Copied!' : 'Copy Strategy'}
        </Button>
        <Button onClick={props.onClose}>Close</Button>
      </Group>
    </Stack>
  );
}

type OnCopy = (key: string, text: string) => void;

/** An e-mail or the voicemail script as one block that copies itself when clicked. */
function CopyBlock({
  field,
  text,
  copied,
  onCopy,
}: {
  field: 'introEmail' | 'followUpEmail' | 'voicemailScript';
  text: string | undefined;
  copied: string | null;
  onCopy: OnCopy;
}) {
  if (!text) return null;
  return (
    <Section title={SECTION_TITLES[field]}>
      <UnstyledButton
        className="strategy-copy"
        onClick={() => onCopy(field, text)}
        data-testid={`copy-${field}`}
        w="100%"
      >
        <Box
          p="xs"
          style={{
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            border: '1px solid var(--mantine-color-gray-3)',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
        >
          <Text size="sm" component="span">
            {text}
          </Text>
        </Box>
        <Text size="xs" c={copied === field ? 'green' : 'dimmed'} mt={2}>
          {copied === field ? 'Copied!' : 'Click to copy'}
        </Text>
      </UnstyledButton>
    </Section>
  );
}

/** The hook lines, each copied on its own with a click. */
function HookLines({
  lines,
  copied,
  onCopy,
}: {
  lines: readonly string[];
  copied: string | null;
  onCopy: OnCopy;
}) {
  return (
    <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {lines.map((line, i) => {
        const key = `hook-${i}`;
        return (
          <li key={key}>
            <UnstyledButton
              onClick={() => onCopy(key, line)}
              data-testid="hook-line"
              title="Click to copy"
              p={6}
              w="100%"
              style={{
                border: '1px solid var(--mantine-color-gray-3)',
                borderRadius: 'var(--mantine-radius-sm)',
                overflowWrap: 'anywhere',
              }}
            >
              <Text size="sm" component="span">
                {line}
              </Text>{' '}
              <Text size="xs" component="span" c={copied === key ? 'green' : 'dimmed'}>
                {copied === key ? 'Copied!' : '(click to copy)'}
              </Text>
            </UnstyledButton>
          </li>
        );
      })}
    </Stack>
  );
}

function MediaMixTable({ rows }: { rows: NonNullable<Strategy['mediaMix']> }) {
  return (
    <Table.ScrollContainer minWidth={300}>
      <Table striped withTableBorder fz="sm" data-testid="media-mix">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Channel</Table.Th>
            <Table.Th ta="right">Percent</Table.Th>
            <Table.Th>Why</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, i) => (
            <Table.Tr key={i}>
              <Table.Td>{row.channel}</Table.Td>
              <Table.Td ta="right">{row.percent}%</Table.Td>
              <Table.Td>{row.why}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
