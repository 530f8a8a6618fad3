import { Box, Group, NavLink, Paper, Select, Stack, Title } from '@mantine/core';
import { Link, Redirect, useLocation, useRoute } from 'wouter';
import type { ReactNode } from 'react';
import { lazy, Suspense, useId } from 'react';
import { isAdminUser, type Me } from '../api';
import { useMe } from '../session';
import { isSuper } from './common';
import {
  AuditSection,
  BillingSection,
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
import { Loading } from './common';

// Its own chunk: the drawing tool (Leaflet-Geoman) loads only when this section opens.
const TerritoriesSection = lazy(() =>
  import('./territories/TerritoriesSection').then((m) => ({ default: m.TerritoriesSection })),
);

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

interface PanelSection {
  /** The last part of its address: /admin/invitations. */
  slug: string;
  title: string;
  render: () => ReactNode;
}

/**
 * The Admin Panel's sections in the order admins use them (the everyday ones first, the troubleshooting tools
 * last), each shown only to the roles allowed to use it (docs/PRODUCT.md, "The Admin Panel").
 */
function sectionsFor(me: Me): PanelSection[] {
  const superAdmin = isSuper(me);
  const all: (PanelSection | false)[] = [
    { slug: 'invitations', title: 'Invitation Management', render: () => <InvitationsSection /> },
    { slug: 'users', title: 'User Management', render: () => <UsersSection me={me} /> },
    {
      slug: 'territories',
      title: 'Territories',
      render: () => (
        <Suspense fallback={<Loading label="Loading territories..." />}>
          <TerritoriesSection />
        </Suspense>
      ),
    },
    { slug: 'business-data', title: 'Business Data', render: () => <AreasSection /> },
    { slug: 'billing', title: 'Billing', render: () => <BillingSection /> },
    {
      slug: 'export',
      title: 'Export Prospects',
      render: () => <ExportSection canExportCurrent={superAdmin} />,
    },
    superAdmin && {
      slug: 'blocklist',
      title: 'Universal Blocklist Management',
      render: () => <BlocklistSection />,
    },
    {
      slug: 'settings',
      title: 'Algorithm Settings',
      render: () => <SettingsSection canChange={superAdmin} />,
    },
    { slug: 'website-checks', title: 'Website Checks', render: () => <WebsiteChecksSection /> },
    { slug: 'cache', title: 'Cache Management', render: () => <CacheSection canClear={superAdmin} /> },
    superAdmin && { slug: 'audit', title: 'Audit Log', render: () => <AuditSection /> },
    superAdmin && { slug: 'user-data', title: 'User Data Testing', render: () => <UserDataSection /> },
    superAdmin && {
      slug: 'blocklist-debug',
      title: 'Universal Blocklist Debug',
      render: () => <BlocklistDebugSection />,
    },
  ];
  return all.filter((s): s is PanelSection => s !== false);
}

/**
 * The Admin Panel, a page at /admin: the list of its sections beside the open one, each section at its own
 * address (/admin/users), so back and forward move between them and a link opens the same section for another
 * admin. On a phone the list is a menu above the section.
 */
export function AdminPanel() {
  const me = useMe();
  const [, params] = useRoute('/:section');
  const [, navigate] = useLocation();
  if (!isAdminUser(me)) return null;
  const sections = sectionsFor(me);
  const open = sections.find((s) => s.slug === params?.section);
  if (!open) return <Redirect to={`/${sections[0]?.slug ?? ''}`} replace />;
  return (
    <Stack gap="sm" data-testid="admin-panel">
      <Title order={2} size="h3">
        Admin Panel
      </Title>
      <Select
        hiddenFrom="sm"
        label="Section"
        data={sections.map((s) => ({ value: s.slug, label: s.title }))}
        value={open.slug}
        onChange={(slug) => slug && navigate(`/${slug}`)}
        allowDeselect={false}
        comboboxProps={{ zIndex: 1000 }}
      />
      <Group align="flex-start" gap="md" wrap="nowrap">
        <Box
          component="nav"
          aria-label="Admin Panel sections"
          visibleFrom="sm"
          w={230}
          style={{ flexShrink: 0 }}
        >
          {sections.map((s) => (
            <NavLink
              key={s.slug}
              component={Link}
              href={`/${s.slug}`}
              label={s.title}
              active={s === open}
              aria-current={s === open ? 'page' : undefined}
            />
          ))}
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Section title={open.title}>{open.render()}</Section>
        </Box>
      </Group>
    </Stack>
  );
}
