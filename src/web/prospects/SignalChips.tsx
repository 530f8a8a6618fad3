// The website evidence of a prospect: one chip per signal ("Runs Google Ads", "Call tracking",
// "Books online", "Website unreachable"...), coloured by what it says, with when the site was checked. Each chip's
// title names the page it was seen on. Nothing is shown before the check.
import { Badge, Group, Text } from '@mantine/core';
import type { WebsiteSignal } from '../../core/websites/signals';
import { SIGNAL_KINDS, type SignalGroup } from '../../core/websites/kinds';

const GROUP_COLOR: Record<SignalGroup, string> = {
  advertising: 'green',
  measurement: 'teal',
  growth: 'blue',
  profile: 'gray',
  health: 'orange',
};

const colorOf = (kind: string) =>
  kind === 'unreachable' || kind === 'parked'
    ? 'red'
    : GROUP_COLOR[
        (SIGNAL_KINDS as Record<string, { group: SignalGroup } | undefined>)[kind]?.group ?? 'profile'
      ];

/** "24 Nov 2026" in the browser's locale. */
const day = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
};

export function SignalChips({
  signals,
  labelledBy,
}: {
  signals: readonly WebsiteSignal[];
  labelledBy: string;
}) {
  if (signals.length === 0) return null;
  const latest = signals.reduce((a, s) => (s.seenAt > a ? s.seenAt : a), signals[0]!.seenAt);
  return (
    <div data-testid="signal-chips">
      <Group gap={4} role="list" aria-label="Website evidence" aria-describedby={labelledBy}>
        {signals.map((s) => (
          <Badge
            key={s.kind}
            role="listitem"
            variant="light"
            color={colorOf(s.kind)}
            tt="none"
            title={`Seen ${day(s.seenAt)} on ${s.url}`}
            data-kind={s.kind}
          >
            {s.label}
          </Badge>
        ))}
      </Group>
      <Text size="xs" c="dimmed" mt={2} data-testid="signals-seen">
        Seen on its website {day(latest)}
      </Text>
    </div>
  );
}
