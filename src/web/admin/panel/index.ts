// The Admin Panel's sections, one a file; AdminPanel lays them out and decides who sees each.
export { AuditSection } from './AuditSection';
export { BillingSection } from './BillingSection';
export { BlocklistDebugSection } from './BlocklistDebugSection';
export { BlocklistSection } from './BlocklistSection';
export { CacheSection } from './CacheSection';
export { ExportSection } from './ExportSection';
export { InvitationsSection } from './InvitationsSection';
export { SettingsSection } from './SettingsSection';
export { UserDataSection } from './UserDataSection';
export { WebsiteChecksSection } from './WebsiteChecksSection';
