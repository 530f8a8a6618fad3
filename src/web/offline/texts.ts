// The words of the offline features: the status banner, writes saved on the device or refused, missing map
// tiles, and the warning before a sign-out discards unsent changes.
export const OFFLINE_TITLE = 'You are offline';
export const NEEDS_CONNECTION = 'Needs a connection: you are offline.';
export const waitingLine = (n: number) =>
  n === 0
    ? 'Nothing waiting to send.'
    : `${n} ${n === 1 ? 'change' : 'changes'} waiting to send when you are back online.`;
export const sendingLine = (n: number) => `Sending ${n} ${n === 1 ? 'change' : 'changes'}…`;
export const lastSyncedLine = (at: string | null) =>
  at
    ? `Last synced ${new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`
    : 'Not synced on this device yet';
export const REFUSED_TITLE = 'Not saved: the server refused this change';
export const TILES_MISSING =
  'Offline: map tiles of this area are not saved on this device. They load when you are back online.';
export const unsentOnSignOut = (waiting: number, refused: number) =>
  [
    waiting > 0 &&
      `${waiting} ${waiting === 1 ? 'change has' : 'changes have'} not reached the server yet (you are offline or it cannot be reached).`,
    refused > 0 && `${refused} refused ${refused === 1 ? 'change is' : 'changes are'} still listed.`,
    'Signing out discards them from this device. Sign out anyway?',
  ]
    .filter(Boolean)
    .join(' ');
export const SAVED_ON_DEVICE = 'Saved on this device: it is sent when you are back online.';
export const DISCARD_AND_SIGN_OUT = 'Discard and sign out';
