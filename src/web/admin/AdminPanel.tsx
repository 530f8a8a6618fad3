import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { isAdminUser } from '../api';
import { useMe } from '../session';
import { isSuper } from './common';
import {
  AuditSection,
  BlocklistDebugSection,
  BlocklistSection,
  CacheSection,
  ExportSection,
  InvitationsSection,
  SettingsSection,
  UserDataSection,
  WebsiteChecksSection,
} from './panel';
import { UsersSection } from './UsersSection';
import { AreasSection } from './AreasSection';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper component="section" withBorder p="sm" radius="md" aria-labelledby={id}>
      <Title order={3} id={id} size="h4" mb="xs">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/**
 * The Admin Panel: its sections in the order admins use them (the everyday ones first, the troubleshooting tools
 * last), each shown only to the roles allowed to use it (docs/PRODUCT.md, "The Admin Panel").
 */
export function AdminPanel() {
  const me = useMe();
  const admin = isAdminUser(me);
  const superAdmin = isSuper(me);
  if (!admin) return null;
  return (
    <Stack gap="md" data-testid="admin-panel">
      <Section title="Invitation Management">
        <InvitationsSection />
      </Section>
      <Section title="User Management">
        <UsersSection me={me} />
      </Section>
      <Section title="Business Data">
        <AreasSection />
      </Section>
      <Section title="Export Prospects">
        <ExportSection canExportCurrent={superAdmin} />
      </Section>
      {superAdmin && (
        <Section title="Universal Blocklist Management">
          <BlocklistSection />
        </Section>
      )}
      <Section title="Algorithm Settings">
        <SettingsSection canChange={superAdmin} />
      </Section>
      <Section title="Website Checks">
        <WebsiteChecksSection />
      </Section>
      <Section title="Cache Management">
        <CacheSection canClear={superAdmin} />
      </Section>
      {superAdmin && (
        <Section title="Audit Log">
          <AuditSection />
        </Section>
      )}
      {superAdmin && (
        <Section title="User Data Testing">
          <UserDataSection />
        </Section>
      )}
      {superAdmin && (
        <Section title="Universal Blocklist Debug">
          <BlocklistDebugSection />
        </Section>
      )}
    </Stack>
  );
}
