import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDialogs } from '../../dialogs';
import { ADMIN_KEYS, adminApi } from '../api';
import { ErrorAlert, Loading, messageOf } from '../common';
import { useCopy } from '../copy';
import { NO_INVITATIONS, invitationFailed, invitationsLoadFailed, revokeInvitationFailed } from '../texts';
import type { Invitation } from '../../../core/api';
import { InvitationItem, NewInvitation } from './InvitationItems';

/** Invitation Management: generate (optionally for an e-mail), copy code or link, list with status. */
export function InvitationsSection() {
  const queryClient = useQueryClient();
  const { notify, confirm } = useDialogs();
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
  const revoke = useMutation({
    mutationFn: (id: string) => adminApi.revokeInvitation(id),
    onSuccess: async () => {
      notify('Invitation revoked', 'success');
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.invitations });
    },
    onError: (error) => notify(revokeInvitationFailed(messageOf(error)), 'error'),
  });
  const askRevoke = async (inv: Invitation) => {
    const who = inv.invitedEmail ? ` for ${inv.invitedEmail}` : '';
    const sure = await confirm(
      `Revoke the invitation${who}? Its code will no longer register anyone.`,
      'Revoke',
      { destructive: true },
    );
    if (sure) revoke.mutate(inv.id);
  };
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
      {latest && <NewInvitation invitation={latest} copied={copied} onCopy={doCopy} />}
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
        <InvitationItem
          key={inv.id}
          inv={inv}
          copied={copied}
          onCopy={doCopy}
          onRevoke={(i) => void askRevoke(i)}
          revoking={revoke.isPending && revoke.variables === inv.id}
        />
      ))}
    </Stack>
  );
}
