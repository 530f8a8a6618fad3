import { useState } from 'react';
import { Alert, Button, Checkbox, List, Modal, Stack, Text } from '@mantine/core';
import { DONT_SHOW_AGAIN, GET_STARTED } from '../texts';

/** A phone or tablet (a coarse pointer): the tip says tap where a desktop says click. */
const touchScreen = () => window.matchMedia?.('(pointer: coarse)').matches ?? false;

/** The help / welcome dialog: four steps, the double-click (double-tap) tip, 'Don't show this again'. */
export function HelpDialog(props: { opened: boolean; onClose: (dontShowAgain: boolean) => void }) {
  const [dontShow, setDontShow] = useState(false);
  const close = () => {
    props.onClose(dontShow);
    setDontShow(false);
  };
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={props.opened}
      onClose={close}
      title="Welcome to Prospect Finder"
      centered
      size="lg"
    >
      <Stack gap="sm">
        <Text>Find and rank local advertising prospects in four steps:</Text>
        <List type="ordered" spacing="xs">
          <List.Item>
            <strong>Set your location</strong> — tap Use GPS or type an address and press Set Address.
          </List.Item>
          <List.Item>
            <strong>Choose a radius</strong> — slide between 0.5 and 1.5 miles.
          </List.Item>
          <List.Item>
            <strong>Choose how many prospects</strong> — from 5 to 50.
          </List.Item>
          <List.Item>
            <strong>Press Scan Area</strong> — businesses are found, scored by AI and ranked best first.
          </List.Item>
        </List>
        <Alert color="blue" variant="light" title="Tip">
          {touchScreen() ? 'Double-tap' : 'Double-click'} the map to set a new center point. You can also drag
          the blue Your Location marker.
        </Alert>
        <Checkbox
          label={DONT_SHOW_AGAIN}
          checked={dontShow}
          onChange={(e) => setDontShow(e.currentTarget.checked)}
        />
        <Button onClick={close}>{GET_STARTED}</Button>
      </Stack>
    </Modal>
  );
}
