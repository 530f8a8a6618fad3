import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { Invitation as InvitationRow } from '../../../core/api';
import { formatDateTime } from '../../format';

/** The key of the copy button that copied last, and the copy itself (the section's). */
interface CopyProps {
  copied: string | null;
  onCopy: (key: string, text: string) => void;
}

/** The invitation just generated: its code and its link, each with a copy button. */
export function NewInvitation({
  invitation,
  copied,
  onCopy,
}: CopyProps & { invitation: { code: string; link: string } }) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid="new-invitation">
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm">Code:</Text>
          <Text ff="monospace" fw={700} data-testid="invitation-code" style={{ overflowWrap: 'anywhere' }}>
            {invitation.code}
          </Text>
          <Button size="compact-xs" variant="light" onClick={() => onCopy('new-code', invitation.code)}>
            {copied === 'new-code' ? 'Copied!' : 'Copy Code'}
          </Button>
        </Group>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" data-testid="invitation-link" style={{ overflowWrap: 'anywhere' }}>
            {invitation.link}
          </Text>
          <Button size="compact-xs" variant="light" onClick={() => onCopy('new-link', invitation.link)}>
            {copied === 'new-link' ? 'Copied!' : 'Copy Link'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

const STATUS_COLOR: Record<InvitationRow['status'], string> = {
  open: '#1864ab',
  used: '#0b6e4f',
  expired: '#495057',
  revoked: '#a61e4d',
};

/** One invitation of the list: code and status, who made it and for whom, who used it, copy buttons. */
export function InvitationItem({
  inv,
  copied,
  onCopy,
  onRevoke,
  revoking,
}: CopyProps & { inv: InvitationRow; onRevoke: (inv: InvitationRow) => void; revoking: boolean }) {
  return (
    <Paper withBorder p="xs" radius="md" data-testid="invitation-row">
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
          {inv.status === 'revoked' && (
            <Text size="xs" data-testid="invitation-revoked">
              Revoked by {inv.revokedByName ?? 'an admin'}
              {inv.revokedAt ? ` on ${formatDateTime(inv.revokedAt)}` : ''}
            </Text>
          )}
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
            onClick={() => onCopy(`code-${inv.id}`, inv.code)}
          >
            {copied === `code-${inv.id}` ? 'Copied!' : 'Copy Code'}
          </Button>
          {inv.status === 'open' && (
            <Button
              size="compact-xs"
              variant="subtle"
              aria-label={`Copy link for ${inv.code}`}
              onClick={() =>
                onCopy(`link-${inv.id}`, `${window.location.origin}/?invite=${encodeURIComponent(inv.code)}`)
              }
            >
              {copied === `link-${inv.id}` ? 'Copied!' : 'Copy Link'}
            </Button>
          )}
          {inv.status === 'open' && (
            <Button
              size="compact-xs"
              variant="subtle"
              color="red.8"
              aria-label={`Revoke invitation ${inv.code}`}
              loading={revoking}
              onClick={() => onRevoke(inv)}
            >
              Revoke
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
