// Registers the admin tabs of SPEC §2 on the main screen (src/web/extensions.ts), in the spec's order; the
// main screen shows them to admins and SuperAdmins only (SPEC §6).
import { adminTabs } from '../extensions';
import { AdminPanel } from './AdminPanel';
import { AdvertisersTab } from './AdvertisersTab';
import { AllProspectsTab } from './AllProspectsTab';
import { BlockedTab } from './BlockedTab';
import { TAB_ADMIN_PANEL, TAB_ADVERTISERS, TAB_ALL_PROSPECTS, TAB_BLOCKED } from './texts';

if (!adminTabs.some((t) => t.value === 'all-prospects')) {
  adminTabs.push(
    { value: 'all-prospects', label: TAB_ALL_PROSPECTS, render: () => <AllProspectsTab /> },
    { value: 'blocked', label: TAB_BLOCKED, render: () => <BlockedTab /> },
    { value: 'current-advertisers', label: TAB_ADVERTISERS, render: () => <AdvertisersTab /> },
    { value: 'admin-panel', label: TAB_ADMIN_PANEL, render: () => <AdminPanel /> },
  );
}
