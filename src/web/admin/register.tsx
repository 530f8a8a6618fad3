// Registers the admin tabs under the map (All Prospects, Blocked, Current Advertisers) and the admin pages with
// their own address (the Team dashboard at /team, the Admin Panel at /admin) in src/web/extensions.ts. The main
// screen shows them to admins and SuperAdmins only. Each one's code loads when it is first opened (React.lazy),
// so reps never download it.
import { lazy } from 'react';
import { adminPages, adminTabs } from '../extensions';
import { TAB_ADMIN_PANEL, TAB_ADVERTISERS, TAB_ALL_PROSPECTS, TAB_BLOCKED, TAB_TEAM } from './texts';

const AdminPanel = lazy(() => import('./AdminPanel').then((m) => ({ default: m.AdminPanel })));
const AdvertisersTab = lazy(() => import('./AdvertisersTab').then((m) => ({ default: m.AdvertisersTab })));
const AllProspectsTab = lazy(() => import('./AllProspectsTab').then((m) => ({ default: m.AllProspectsTab })));
const TeamTab = lazy(() => import('./team/TeamTab').then((m) => ({ default: m.TeamTab })));
const BlockedTab = lazy(() => import('./BlockedTab').then((m) => ({ default: m.BlockedTab })));

if (!adminTabs.some((t) => t.value === 'all-prospects')) {
  adminTabs.push(
    { value: 'all-prospects', label: TAB_ALL_PROSPECTS, render: () => <AllProspectsTab /> },
    { value: 'blocked', label: TAB_BLOCKED, render: () => <BlockedTab /> },
    { value: 'current-advertisers', label: TAB_ADVERTISERS, render: () => <AdvertisersTab /> },
  );
  adminPages.push(
    { path: '/team', label: TAB_TEAM, render: () => <TeamTab /> },
    { path: '/admin', label: TAB_ADMIN_PANEL, render: () => <AdminPanel /> },
  );
}
