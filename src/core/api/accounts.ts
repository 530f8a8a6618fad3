// Accounts, profiles, users and invitations: the shapes of /api/session, /api/me, /api/users, /api/invitations.
import { z } from 'zod';
import { isoTime, nameText, noContent, okSchema, oneLineText } from './common';
import { endpoint } from './endpoint';

export const roleSchema = z.enum(['user', 'admin', 'SuperAdmin']);
export type Role = z.infer<typeof roleSchema>;

/**
 * Saved search settings within a scan's bounds (docs/PRODUCT.md, "The map and the scan"): radius 0.5 miles to
 * the configured maximum, prospect count 5 to 50. The bounds are checked on write (searchSettingsInput);
 * settings stored outside them still read back (the web clamps them into its sliders).
 */
export const searchSettingsSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  label: z.string(),
  radiusMiles: z.number(),
  count: z.number(),
  categories: z.array(z.string()),
  /** "Spread results out" (absent in settings saved before the option existed: off). */
  spreadOut: z.boolean().optional(),
});
export type SearchSettings = z.infer<typeof searchSettingsSchema>;

export const searchSettingsInput = (radiusMaxMiles: number) =>
  searchSettingsSchema.extend({
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    label: z.string().max(300),
    radiusMiles: z.number().min(0.5).max(radiusMaxMiles),
    count: z.number().int().min(5).max(50),
    categories: z.array(z.string().max(40)).max(50),
  });

/** A user and their profile (the signed-in user's own, and each row of the user list). */
export const userProfileSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  isSuperAdmin: z.boolean(),
  hideInstructions: z.boolean(),
  installPromptDismissed: z.boolean(),
  searchSettings: searchSettingsSchema.nullable(),
  suspended: z.boolean(),
  suspendedAt: isoTime.nullable(),
  lastSignInAt: isoTime.nullable(),
  createdAt: isoTime,
});
export type UserProfile = z.infer<typeof userProfileSchema>;

export const userAnswer = z.object({ user: userProfileSchema });
export type UserAnswer = z.infer<typeof userAnswer>;

/** PATCH /api/me. */
export const profilePatch = (radiusMaxMiles: number) =>
  z
    .object({
      name: nameText(200),
      hideInstructions: z.boolean(),
      installPromptDismissed: z.boolean(),
      searchSettings: searchSettingsInput(radiusMaxMiles),
    })
    .partial()
    .strict();
export type ProfilePatch = z.input<ReturnType<typeof profilePatch>>;

/** What the acting user may do to one row of the user list; the UI shows buttons from this too. */
export const rowPermissionsSchema = z.object({
  changeRole: z.array(roleSchema),
  deleteProfile: z.boolean(),
  suspend: z.boolean(),
  hardDelete: z.boolean(),
});
export type RowPermissions = z.infer<typeof rowPermissionsSchema>;

export const userRowSchema = userProfileSchema
  .omit({ searchSettings: true })
  .extend({ can: rowPermissionsSchema });
export type UserRow = z.infer<typeof userRowSchema>;

/** Counts of a user's stored data (User Data Testing). */
export const userDataSchema = z.object({
  userId: z.string(),
  lastSignInAt: isoTime.nullable(),
  searches: z.number().int(),
  callLogs: z.number().int(),
  savedProspects: z.number().int(),
});
export type UserData = z.infer<typeof userDataSchema>;

export const registerBody = z.object({
  name: oneLineText(200),
  email: z.string().max(254),
  password: z.string().max(128),
  confirmPassword: z.string().max(128).optional(),
  invitationCode: z.string().max(100).optional(),
});
export type RegisterInput = z.infer<typeof registerBody>;

export const invitationStatusSchema = z.enum(['open', 'used', 'expired', 'revoked']);
export type InvitationStatus = z.infer<typeof invitationStatusSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  code: z.string(),
  invitedBy: z.string().nullable(),
  invitedByName: z.string(),
  invitedEmail: z.string().nullable(),
  createdAt: isoTime,
  expiresAt: isoTime,
  status: invitationStatusSchema,
  usedBy: z.string().nullable(),
  usedByEmail: z.string().nullable(),
  usedAt: isoTime.nullable(),
  revokedAt: isoTime.nullable(),
  revokedByName: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const createdInvitation = z.object({ invitation: invitationSchema, link: z.string() });

export const invitationCheckSchema = z.object({ valid: z.boolean(), message: z.string() });
export type InvitationCheck = z.infer<typeof invitationCheckSchema>;

/**
 * A radius limit for the entry's types only: the server validates a profile with its own RADIUS_MAX_MILES
 * (the route's body option), which is also what its OpenAPI document shows.
 */
const RADIUS_CEILING_MILES = 100;

export const authEndpoints = {
  'POST /api/register': endpoint({
    access: 'public',
    tags: ['accounts'],
    summary: 'Create an account (the first one needs no invitation and becomes SuperAdmin)',
    body: registerBody,
    answers: { 201: z.object({ ok: z.literal(true), role: roleSchema }) },
    errors: [401, 409],
  }),
  'POST /api/session': endpoint({
    access: 'public',
    tags: ['accounts'],
    summary: 'Sign in with e-mail and password',
    body: z.object({ email: z.string().max(254), password: z.string().max(128) }),
    answers: { 200: okSchema },
    errors: [401, 403],
  }),
  'PATCH /api/me': endpoint({
    access: 'user',
    tags: ['profile'],
    summary: 'Update own name, preferences and saved search settings',
    body: profilePatch(RADIUS_CEILING_MILES),
    answers: { 200: userAnswer },
  }),
  'DELETE /api/session': endpoint({
    access: 'user',
    tags: ['accounts'],
    summary: 'Sign out: end this session and clear its cookie',
    answers: { 200: okSchema },
  }),
  'POST /api/password-reset': endpoint({
    access: 'public',
    tags: ['accounts'],
    summary: 'E-mail a password-reset link (answers the same whether or not the address has an account)',
    body: z.object({ email: z.string().max(254) }),
    answers: { 200: okSchema },
    errors: [429],
  }),
  'POST /api/password-reset/complete': endpoint({
    access: 'public',
    tags: ['accounts'],
    summary: 'Set a new password with the token of the e-mailed link',
    body: z.object({ token: z.string().min(1).max(200), newPassword: z.string().max(128) }),
    answers: { 200: okSchema },
  }),
};

const userIdParams = z.object({ id: z.string().min(1).max(100) });

export const userEndpoints = {
  'GET /api/me': endpoint({
    access: 'user',
    tags: ['profile'],
    summary: 'The signed-in user and their profile',
    answers: { 200: userAnswer },
  }),
  'GET /api/session': endpoint({
    access: 'public',
    tags: ['profile'],
    summary: 'The signed-in user and their profile, or null when signed out (the page load asks this)',
    answers: { 200: z.object({ user: userProfileSchema.nullable() }) },
  }),
  'GET /api/users': endpoint({
    access: 'admin',
    tags: ['users'],
    summary: 'All users, with what the caller may do to each',
    answers: { 200: z.object({ users: z.array(userRowSchema) }) },
  }),
  'PATCH /api/users/:id/role': endpoint({
    access: 'admin',
    tags: ['users'],
    summary: 'Change a role (admins: user/admin; SuperAdmins: any)',
    params: userIdParams,
    body: z.object({ role: roleSchema }),
    answers: { 200: userAnswer },
    errors: [404],
  }),
  'DELETE /api/users/:id': endpoint({
    access: 'admin',
    tags: ['users'],
    summary: 'Delete a user profile (not SuperAdmins)',
    params: userIdParams,
    answers: { 204: noContent },
    errors: [404],
  }),
  'POST /api/users/:id/suspend': endpoint({
    access: 'superadmin',
    tags: ['users'],
    summary: 'Suspend a user and end their sessions',
    params: userIdParams,
    answers: { 200: userAnswer },
    errors: [404],
  }),
  'POST /api/users/:id/unsuspend': endpoint({
    access: 'superadmin',
    tags: ['users'],
    summary: 'Re-enable a suspended user',
    params: userIdParams,
    answers: { 200: userAnswer },
    errors: [404],
  }),
  'POST /api/users/:id/hard-delete': endpoint({
    access: 'superadmin',
    tags: ['users'],
    summary: "Delete a user and all their data; needs the acting SuperAdmin's password",
    params: userIdParams,
    body: z.object({ password: z.string().max(128) }),
    answers: { 204: noContent },
    errors: [404, 429],
  }),
  'GET /api/users/:id/data': endpoint({
    access: 'superadmin',
    tags: ['users'],
    summary: 'Counts of a user’s stored data (User Data Testing)',
    params: userIdParams,
    answers: { 200: userDataSchema },
    errors: [404],
  }),
};

export const invitationEndpoints = {
  'GET /api/invitations/check': endpoint({
    access: 'public',
    tags: ['invitations'],
    summary: 'Live validation of an invitation code for the registration form',
    query: z.object({ code: z.string().max(100), email: z.string().max(254).optional() }),
    answers: { 200: invitationCheckSchema },
  }),
  'POST /api/invitations': endpoint({
    access: 'admin',
    tags: ['invitations'],
    summary: 'Generate an invitation, optionally for one e-mail address',
    body: z.object({ email: z.string().max(254).optional() }).optional(),
    answers: { 201: createdInvitation },
  }),
  'GET /api/invitations': endpoint({
    access: 'admin',
    tags: ['invitations'],
    summary: 'Every invitation with its status (open, used, expired, revoked)',
    answers: { 200: z.object({ invitations: z.array(invitationSchema) }) },
  }),
  'POST /api/invitations/:id/revoke': endpoint({
    access: 'admin',
    tags: ['invitations'],
    summary: 'Revoke an open invitation: its code no longer registers anyone (audited)',
    params: z.object({ id: z.string().min(1).max(100) }),
    answers: { 200: z.object({ invitation: invitationSchema }) },
    errors: [404, 409],
  }),
};
