import { Anchor } from '@mantine/core';

/** A rep's name as a button that opens the rep's page. */
export function RepLink({
  rep,
  open,
  testId,
}: {
  rep: { userId: string; name: string };
  open: (userId: string) => void;
  testId?: string;
}) {
  return (
    <Anchor component="button" type="button" onClick={() => open(rep.userId)} data-testid={testId}>
      {rep.name}
    </Anchor>
  );
}
