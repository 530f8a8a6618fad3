import { Button, Group, Modal, PasswordInput, Text } from '@mantine/core';
import { useState } from 'react';

/** Asks the acting admin for their password before a hard delete; an empty password cancels. */
export function PasswordPrompt(props: {
  opened: boolean;
  message: string;
  onDone: (password: string | null) => void;
}) {
  const [password, setPassword] = useState('');
  const finish = (value: string | null) => {
    setPassword('');
    props.onDone(value && value !== '' ? value : null);
  };
  return (
    <Modal
      opened={props.opened}
      onClose={() => finish(null)}
      title="Confirm with your password"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          finish(password);
        }}
      >
        <Text mb="sm">{props.message}</Text>
        <PasswordInput
          label="Your password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          autoComplete="current-password"
          data-autofocus
          mb="md"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => finish(null)}>
            Cancel
          </Button>
          <Button type="submit" color="red">
            Hard Delete
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
