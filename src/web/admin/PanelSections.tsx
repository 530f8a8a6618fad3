import {
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDialogs } from '../dialogs';
import { formatDateTime } from '../format';
import { auditActionLabel } from '../../core/audit';
import { ADMIN_KEYS, adminApi } from './api';
import type { AlgorithmSettings, Invitation as InvitationRow } from '../../core/api';
import { BlockedList, useBlocklist } from './BlockedTab';
import { ErrorAlert, Loading, ScrollBox, messageOf } from './common';
import { useCopy } from './copy';
import {
  blockedBusinesses,
  BLOCKLIST_LOAD_FAILED,
  NO_INVITATIONS,
  clearBlocklistFailed,
  invitationFailed,
  invitationsLoadFailed,
} from './texts';
import { useUsers } from './UsersSection';

function Stat({ label, value }: { label: string; value: number | string }) {
  return (
    <Paper withBorder p="xs" radius="md" data-testid={`stat-${label.toLowerCase()}`}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
    </Paper>
  );
}

/** Cache Management: stats for admins; clearing for SuperAdmins (the server clears for real). */
export function CacheSection({ canClear }: { canClear: boolean }) {
  const queryClient = useQueryClient();
  const { notify, confirm } = useDialogs();
  const stats = useQuery({ queryKey: ADMIN_KEYS.cache, queryFn: adminApi.cacheStats });
  const clear = useMutation({
    mutationFn: adminApi.clearCache,
    onSuccess: () => notify('AI cache cleared', 'success'),
    onError: (error) => notify(messageOf(error), 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.cache }),
  });
  return (
    <Stack gap="xs">
      {stats.isPending && <Loading label="Loading cache stats..." />}
      {stats.isError && <ErrorAlert message={messageOf(stats.error)} />}
      {stats.data && (
        <>
          <SimpleGrid cols={3} spacing="xs">
            <Stat label="Total" value={stats.data.total} />
            <Stat label="Valid" value={stats.data.valid} />
            <Stat label="Expired" value={stats.data.expired} />
          </SimpleGrid>
          {stats.data.modelVersion && (
            <Text size="xs" c="dimmed">
              Analysis model {stats.data.modelVersion}
              {stats.data.expiryDays ? `, entries valid ${stats.data.expiryDays} days` : ''}
              {stats.data.businesses !== undefined ? `, ${stats.data.businesses} businesses cached` : ''}
            </Text>
          )}
        </>
      )}
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => void stats.refetch()} loading={stats.isFetching}>
          Refresh Stats
        </Button>
        {canClear && (
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={clear.isPending}
            onClick={() =>
              void confirm(
                'Clear the AI cache? Every business is analysed afresh on its next scan.',
                'Clear Cache',
              ).then((ok) => ok && clear.mutate())
            }
          >
            Clear AI Cache
          </Button>
        )}
      </Group>
    </Stack>
  );
}

const CHECK_STATE_COLOR = { waiting: 'dimmed', done: 'green.8', failed: 'orange.9' } as const;

/**
 * Website checks (issue 17, admins): the queue (waiting, done, failed), the latest checks with what came of them,
 * and a re-check of one business.
 */
export function WebsiteChecksSection() {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const checks = useQuery({ queryKey: ADMIN_KEYS.websiteChecks, queryFn: adminApi.websiteChecks });
  const recheck = useMutation({
    mutationFn: adminApi.recheckWebsite,
    onSuccess: () => notify('Website check queued.', 'success'),
    onError: (error) => notify(messageOf(error), 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.websiteChecks }),
  });
  const data = checks.data;
  return (
    <Stack gap="xs">
      {checks.isPending && <Loading label="Loading the website checks..." />}
      {checks.isError && <ErrorAlert message={messageOf(checks.error)} />}
      {data && !data.enabled && (
        <Text size="sm" c="dimmed">
          Website checks are switched off on this server (WEBSITE_CHECKS=off).
        </Text>
      )}
      {data && (
        <SimpleGrid cols={3} spacing="xs">
          <Stat label="Waiting" value={data.waiting} />
          <Stat label="Done" value={data.done} />
          <Stat label="Failed" value={data.failed} />
        </SimpleGrid>
      )}
      {data && data.recent.length > 0 && (
        <ScrollBox minWidth={560} label="Latest website checks">
          <Table striped withTableBorder fz="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Business</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Why</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Re-check</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.recent.map((r) => (
                <Table.Tr key={r.id} data-testid="website-check">
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {r.name ?? r.businessKey}
                    {r.website && (
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {r.website}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" fw={700} c={CHECK_STATE_COLOR[r.state]}>
                      {r.state}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.reason ?? r.outcome ?? ''}</Table.Td>
                  <Table.Td>{formatDateTime(r.updatedAt)}</Table.Td>
                  <Table.Td>
                    {r.state !== 'waiting' && data.enabled && (
                      <Button
                        size="compact-xs"
                        variant="light"
                        aria-label={`Check ${r.name ?? r.businessKey} again`}
                        loading={recheck.isPending && recheck.variables === r.businessKey}
                        onClick={() => recheck.mutate(r.businessKey)}
                      >
                        Re-check
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      )}
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={() => void checks.refetch()} loading={checks.isFetching}>
          Refresh
        </Button>
      </Group>
    </Stack>
  );
}

/** Universal Blocklist Management (SuperAdmins): list, remove, clear with confirmation. */
export function BlocklistSection() {
  const queryClient = useQueryClient();
  const { notify, confirm } = useDialogs();
  const list = useBlocklist();
  const clear = useMutation({
    mutationFn: adminApi.clearBlocklist,
    onSuccess: (n) => notify(`Blocklist cleared (${n} removed).`, 'success'),
    onError: (error) => notify(clearBlocklistFailed(messageOf(error)), 'error'),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.blocklist }),
        queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.allProspects }),
      ]),
  });
  const count = list.data?.length ?? 0;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" data-testid="blocked-count">
          {list.isSuccess ? blockedBusinesses(count) : ''}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => void list.refetch()} loading={list.isFetching}>
            Refresh Blocklist
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            disabled={count === 0}
            loading={clear.isPending}
            onClick={() =>
              void confirm(
                `Clear the universal blocklist? ${count === 1 ? 'The blocked business' : `All ${blockedBusinesses(count)}`} will show in every user's scans again.`,
                'Clear Blocklist',
              ).then((ok) => ok && clear.mutate())
            }
          >
            Clear Blocklist
          </Button>
        </Group>
      </Group>
      {list.isPending && <Loading label="Loading universal blocklist..." />}
      {list.isError && <ErrorAlert message={BLOCKLIST_LOAD_FAILED} />}
      {list.isSuccess && <BlockedList items={list.data} testId="panel-blocked-item" />}
    </Stack>
  );
}

/** Universal Blocklist Debug (SuperAdmins): is a business id blocked, and by whom. */
export function BlocklistDebugSection() {
  const [id, setId] = useState('');
  const check = useMutation({ mutationFn: (businessId: string) => adminApi.checkBlocked(businessId) });
  return (
    <Stack gap="xs">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (id.trim()) check.mutate(id.trim());
        }}
      >
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label="Business id"
            placeholder="e.g. osm:node/123 or a place id"
            value={id}
            onChange={(e) => setId(e.currentTarget.value)}
            style={{ flex: '1 1 200px' }}
          />
          <Button type="submit" size="sm" disabled={!id.trim()} loading={check.isPending}>
            Test Blocklist
          </Button>
        </Group>
      </form>
      {check.isError && <ErrorAlert message={messageOf(check.error)} />}
      {check.data && (
        <Text size="sm" role="status" data-testid="blocklist-check" style={{ overflowWrap: 'anywhere' }}>
          {check.data.blocked
            ? `Blocked: ${check.data.entry?.label ?? check.data.businessId}${
                check.data.entry?.blockedByName ? ` by ${check.data.entry.blockedByName}` : ''
              }${check.data.entry ? ` on ${formatDateTime(check.data.entry.blockedAt)}` : ''}`
            : `Not blocked: ${check.data.businessId}`}
        </Text>
      )}
    </Stack>
  );
}

/** User Data Testing (SuperAdmins): a chosen user's stored data counts and last sign-in. */
export function UserDataSection() {
  const users = useUsers();
  const [userId, setUserId] = useState('');
  const test = useMutation({ mutationFn: (id: string) => adminApi.userData(id) });
  const chosen = userId || users.data?.[0]?.id || '';
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs" wrap="wrap">
        <NativeSelect
          label="User to test"
          value={chosen}
          onChange={(e) => setUserId(e.currentTarget.value)}
          data={(users.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }))}
          style={{ flex: '1 1 200px', minWidth: 0 }}
        />
        <Button size="sm" disabled={!chosen} loading={test.isPending} onClick={() => test.mutate(chosen)}>
          Test User Data
        </Button>
      </Group>
      {test.isError && <ErrorAlert message={messageOf(test.error)} />}
      {test.data && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" data-testid="user-data">
          <Stat label="Searches" value={test.data.searches} />
          <Stat label="Call logs" value={test.data.callLogs} />
          <Stat label="Saved" value={test.data.savedProspects} />
          <Stat
            label="Last sign-in"
            value={test.data.lastSignInAt ? formatDateTime(test.data.lastSignInAt) : 'never'}
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** Export Prospects: the team's prospects_{date}.csv; SuperAdmins also export their current scan. */
export function ExportSection({ canExportCurrent }: { canExportCurrent: boolean }) {
  const { notify } = useDialogs();
  const [busy, setBusy] = useState<'team' | 'current' | null>(null);
  const run = async (scope: 'team' | 'current') => {
    setBusy(scope);
    try {
      await adminApi.exportProspects(scope);
    } catch (error) {
      notify(messageOf(error), 'error');
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="xs" wrap="wrap">
      <Button size="sm" loading={busy === 'team'} onClick={() => void run('team')}>
        Export Prospects
      </Button>
      {canExportCurrent && (
        <Button size="sm" variant="light" loading={busy === 'current'} onClick={() => void run('current')}>
          Export Current Scan
        </Button>
      )}
    </Group>
  );
}

const SETTING_LABELS: Record<keyof AlgorithmSettings, { label: string; description: string }> = {
  showAllProspects: {
    label: 'Show all prospects',
    description: 'Skip the prefilter that scores chains, gas stations, government and non-profits near zero.',
  },
  useOsmTopUp: {
    label: 'Top up results from OpenStreetMap',
    description: 'Add Overpass results when a scan finds fewer businesses than requested.',
  },
  useLlmAnalysis: {
    label: 'Use the AI model for analysis text',
    description: 'Let the configured AI endpoint rewrite the reasoning of the top results; scores stay.',
  },
};

/** Algorithm Settings: team-wide switches; admins read them, SuperAdmins change them. */
export function SettingsSection({ canChange }: { canChange: boolean }) {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const settings = useQuery({ queryKey: ADMIN_KEYS.settings, queryFn: adminApi.settings });
  const update = useMutation({
    mutationFn: adminApi.updateSettings,
    // Shown at once; put back if the server refuses.
    onMutate: (patch) => {
      const before = queryClient.getQueryData<AlgorithmSettings>(ADMIN_KEYS.settings);
      if (before) queryClient.setQueryData<AlgorithmSettings>(ADMIN_KEYS.settings, { ...before, ...patch });
      return { before };
    },
    onSuccess: (next) => queryClient.setQueryData(ADMIN_KEYS.settings, next),
    onError: (error, _patch, context) => {
      if (context?.before) queryClient.setQueryData(ADMIN_KEYS.settings, context.before);
      notify(messageOf(error), 'error');
    },
  });
  return (
    <Stack gap="xs">
      {settings.isPending && <Loading label="Loading settings..." />}
      {settings.isError && <ErrorAlert message={messageOf(settings.error)} />}
      {settings.data &&
        (Object.keys(SETTING_LABELS) as (keyof AlgorithmSettings)[]).map((key) => (
          <Checkbox
            key={key}
            label={SETTING_LABELS[key].label}
            description={SETTING_LABELS[key].description}
            checked={settings.data[key]}
            disabled={!canChange || update.isPending}
            onChange={(e) => update.mutate({ [key]: e.currentTarget.checked })}
          />
        ))}
      {!canChange && (
        <Text size="xs" c="dimmed">
          Only SuperAdmins can change these settings.
        </Text>
      )}
    </Stack>
  );
}

const STATUS_COLOR: Record<InvitationRow['status'], string> = {
  open: '#1864ab',
  used: '#0b6e4f',
  expired: '#495057',
};

/** Invitation Management: generate (optionally for an e-mail), copy code or link, list with status. */
export function InvitationsSection() {
  const queryClient = useQueryClient();
  const { notify } = useDialogs();
  const { copied, copy } = useCopy();
  const [email, setEmail] = useState('');
  const [latest, setLatest] = useState<{ code: string; link: string } | null>(null);
  const list = useQuery({ queryKey: ADMIN_KEYS.invitations, queryFn: adminApi.invitations });
  const generate = useMutation({
    mutationFn: (forEmail: string) => adminApi.createInvitation(forEmail.trim() || undefined),
    onSuccess: async (r) => {
      setLatest({ code: r.invitation.code, link: r.link });
      setEmail('');
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.invitations });
    },
    onError: (error) => notify(invitationFailed(messageOf(error)), 'error'),
  });
  const doCopy = (key: string, text: string) =>
    void copy(key, text).then((ok) => {
      if (!ok) notify('Copy failed: select the text and copy it by hand.', 'error');
    });

  return (
    <Stack gap="sm">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          generate.mutate(email);
        }}
      >
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label="E-mail (optional)"
            type="email"
            placeholder="new.rep@example.com"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            style={{ flex: '1 1 200px' }}
          />
          <Button type="submit" loading={generate.isPending}>
            Generate Invitation
          </Button>
        </Group>
      </form>
      {latest && (
        <Paper withBorder p="sm" radius="md" data-testid="new-invitation">
          <Stack gap={6}>
            <Group gap="xs" wrap="wrap">
              <Text size="sm">Code:</Text>
              <Text
                ff="monospace"
                fw={700}
                data-testid="invitation-code"
                style={{ overflowWrap: 'anywhere' }}
              >
                {latest.code}
              </Text>
              <Button size="compact-xs" variant="light" onClick={() => doCopy('new-code', latest.code)}>
                {copied === 'new-code' ? 'Copied!' : 'Copy Code'}
              </Button>
            </Group>
            <Group gap="xs" wrap="wrap">
              <Text size="sm" data-testid="invitation-link" style={{ overflowWrap: 'anywhere' }}>
                {latest.link}
              </Text>
              <Button size="compact-xs" variant="light" onClick={() => doCopy('new-link', latest.link)}>
                {copied === 'new-link' ? 'Copied!' : 'Copy Link'}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
      <Group justify="space-between">
        <Text fw={600} size="sm">
          Invitations
        </Text>
        <Button size="xs" variant="default" onClick={() => void list.refetch()} loading={list.isFetching}>
          Refresh Invitations
        </Button>
      </Group>
      {list.isPending && <Loading label="Loading invitations..." />}
      {list.isError && <ErrorAlert message={invitationsLoadFailed(messageOf(list.error))} />}
      {list.isSuccess && list.data.length === 0 && <Text c="dimmed">{NO_INVITATIONS}</Text>}
      {(list.data ?? []).map((inv) => (
        <Paper key={inv.id} withBorder p="xs" radius="md" data-testid="invitation-row">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Group gap="xs" wrap="wrap">
                <Text ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {inv.code}
                </Text>
                <Badge color={STATUS_COLOR[inv.status]} variant="filled" data-testid="invitation-status">
                  {inv.status}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {inv.invitedEmail ? `For ${inv.invitedEmail} · ` : ''}By {inv.invitedByName} · created{' '}
                {formatDateTime(inv.createdAt)} · expires {formatDateTime(inv.expiresAt)}
              </Text>
              {inv.status === 'used' && (
                <Text size="xs" data-testid="invitation-used" style={{ overflowWrap: 'anywhere' }}>
                  Used by {inv.usedByEmail ?? 'a deleted user'}
                  {inv.usedAt ? ` on ${formatDateTime(inv.usedAt)}` : ''}
                </Text>
              )}
            </Stack>
            <Group gap={4}>
              <Button
                size="compact-xs"
                variant="subtle"
                aria-label={`Copy code ${inv.code}`}
                onClick={() => doCopy(`code-${inv.id}`, inv.code)}
              >
                {copied === `code-${inv.id}` ? 'Copied!' : 'Copy Code'}
              </Button>
              {inv.status === 'open' && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  aria-label={`Copy link for ${inv.code}`}
                  onClick={() =>
                    doCopy(
                      `link-${inv.id}`,
                      `${window.location.origin}/?invite=${encodeURIComponent(inv.code)}`,
                    )
                  }
                >
                  {copied === `link-${inv.id}` ? 'Copied!' : 'Copy Link'}
                </Button>
              )}
            </Group>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

const AUDIT_PAGE_SIZE = 25;

/** Audit Log (SuperAdmins): every admin action, newest first, paged, exportable. */
export function AuditSection() {
  const { notify } = useDialogs();
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const audit = useQuery({
    queryKey: ADMIN_KEYS.audit(page),
    queryFn: () => adminApi.audit(page, AUDIT_PAGE_SIZE),
  });
  const pages = Math.max(1, Math.ceil((audit.data?.total ?? 0) / AUDIT_PAGE_SIZE));
  const exportCsv = async () => {
    setExporting(true);
    try {
      await adminApi.exportAudit();
    } catch (error) {
      notify(messageOf(error), 'error');
    } finally {
      setExporting(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm">{audit.data ? `${audit.data.total} entries` : ''}</Text>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => void audit.refetch()} loading={audit.isFetching}>
            Refresh Log
          </Button>
          <Button size="xs" onClick={() => void exportCsv()} loading={exporting}>
            Export Audit Log
          </Button>
        </Group>
      </Group>
      {audit.isPending && <Loading label="Loading the audit log..." />}
      {audit.isError && <ErrorAlert message={messageOf(audit.error)} />}
      {audit.data && audit.data.entries.length === 0 && <Text c="dimmed">No admin actions yet.</Text>}
      {audit.data && audit.data.entries.length > 0 && (
        <ScrollBox minWidth={520} label="Audit log entries">
          <Table striped withTableBorder fz="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>On</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {audit.data.entries.map((e) => (
                <Table.Tr key={e.id} data-testid="audit-entry">
                  <Table.Td>{formatDateTime(e.createdAt)}</Table.Td>
                  <Table.Td>{e.actor.name}</Table.Td>
                  <Table.Td data-testid="audit-action" title={e.action}>
                    {auditActionLabel(e.action)}
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {e.target.label ?? e.target.id ?? e.target.type}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      )}
      {pages > 1 && (
        <Group gap="xs" justify="center">
          <Button size="compact-sm" variant="default" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <Text size="sm">
            Page {page} of {pages}
          </Text>
          <Button
            size="compact-sm"
            variant="default"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            Next
          </Button>
        </Group>
      )}
    </Stack>
  );
}
