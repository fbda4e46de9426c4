/** Organization roles, as Zulip numbers them: a smaller number is a stronger role. */
export const Role = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;

export type RoleValue = (typeof Role)[keyof typeof Role];
export const ROLE_VALUES: readonly RoleValue[] = [100, 200, 300, 400, 600];

export const isAdminRole = (role: number) => role <= Role.ADMINISTRATOR;
export const isOwnerRole = (role: number) => role === Role.OWNER;
export const isModeratorOrAbove = (role: number) => role <= Role.MODERATOR;
export const isGuestRole = (role: number) => role === Role.GUEST;

/** email_address_visibility values (a per-user setting since feature level 163). */
export const EmailVisibility = {
  EVERYONE: 1,
  MEMBERS: 2,
  ADMINS: 3,
  NOBODY: 4,
  MODERATORS: 5,
} as const;
export const EMAIL_VISIBILITY_VALUES = [1, 2, 3, 4, 5] as const;
