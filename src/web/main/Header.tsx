import { Badge, Button, Group, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import type { Me } from '../api';
import type { AdminPage } from '../extensions';
import { Logo } from '../Logo';
import { SUBTITLE } from '../texts';

const ROLE_LABEL: Record<Me['role'], string> = { user: 'User', admin: 'Admin', SuperAdmin: 'SuperAdmin' };

export function Header(props: {
  me: Me;
  onNewSearch: () => void;
  onHelp: () => void;
  onLogout: () => void;
  loggingOut: boolean;
  /** The pages this user may open (admins: Team, Admin Panel); none for a rep. */
  pages: AdminPage[];
  path: string;
}) {
  const { me } = props;
  const role = me.isSuperAdmin && me.role !== 'SuperAdmin' ? 'SuperAdmin' : me.role;
  return (
    <header className="app-header">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="sm" wrap="nowrap">
          <Logo size={40} />
          <div>
            <Title order={1} size="h3" lh={1.1}>
              Prospect Finder
            </Title>
            <Text size="sm" c="dimmed">
              {SUBTITLE}
            </Text>
          </div>
        </Group>
        <Group gap="xs" wrap="wrap" justify="flex-end">
          {props.pages.length > 0 && <PageLinks pages={props.pages} path={props.path} />}
          <Group gap={6} wrap="nowrap" data-testid="current-user">
            <Text size="sm" fw={600} className="user-name">
              {me.name}
            </Text>
            <Badge variant="light" tt="none" aria-label={`Role: ${ROLE_LABEL[role]}`}>
              {ROLE_LABEL[role]}
            </Badge>
          </Group>
          <Button size="xs" variant="light" onClick={props.onNewSearch}>
            New Search
          </Button>
          <Button size="xs" variant="default" onClick={props.onHelp}>
            Help
          </Button>
          <Button
            size="xs"
            variant="outline"
            color="red.9"
            loading={props.loggingOut}
            onClick={props.onLogout}
          >
            Logout
          </Button>
        </Group>
      </Group>
    </header>
  );
}

/** Links to the main screen and each page, the current one marked; each is a real link, to open or share. */
function PageLinks({ pages, path }: { pages: AdminPage[]; path: string }) {
  const links = [{ path: '/', label: 'Prospects' }, ...pages];
  const current = pages.find((p) => path === p.path || path.startsWith(`${p.path}/`))?.path ?? '/';
  return (
    <Group component="nav" aria-label="Pages" gap={4} wrap="nowrap">
      {links.map((l) => (
        <Button
          key={l.path}
          component={Link}
          href={l.path}
          size="xs"
          variant={l.path === current ? 'filled' : 'subtle'}
          aria-current={l.path === current ? 'page' : undefined}
        >
          {l.label}
        </Button>
      ))}
    </Group>
  );
}
