import { Badge, Button, Group, Text, Title } from '@mantine/core';
import type { Me } from '../api';
import { Logo } from '../Logo';
import { SUBTITLE } from '../texts';

const ROLE_LABEL: Record<Me['role'], string> = { user: 'User', admin: 'Admin', SuperAdmin: 'SuperAdmin' };

export function Header(props: {
  me: Me;
  onNewSearch: () => void;
  onHelp: () => void;
  onLogout: () => void;
  loggingOut: boolean;
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
