/**
 * The roles of spec section 6 and the one table of what each may do. The gateway checks it before
 * calling a service, the services check it again on every RPC (the token's `role` claim), and the
 * web uses it to show or hide entries. Pure TypeScript, no Node imports.
 *
 * What the spec leaves open, decided here (see README.md):
 * - Only superadmin and admin see and use Admin. Only superadmin changes another user's role, and
 *   nobody can make someone superadmin from the app (an operator does, see ADMIN_EMAILS).
 * - owner is every signed-up user's role: they own their projects and may invite team members.
 * - manager and projectAdmin are roles *within a project* (a team member's grant on someone else's
 *   project); as account roles they behave like owner for their own data.
 * - tester is an owner who also sees flags marked for testing (`test`); no admin powers.
 * - guest is the visitor without a session: public pages only.
 */

/** Every role, highest first. */
export const ROLES = ["superadmin", "admin", "owner", "manager", "projectAdmin", "tester", "guest"] as const;
export type Role = (typeof ROLES)[number];

/** The role of a visitor with no session. */
export const GUEST: Role = "guest";
/** The role of every new user (spec: "the default role in user info is owner"). */
export const DEFAULT_ROLE: Role = "owner";

/** Account-wide permissions. */
export const PERMISSIONS = {
  /** Open /app and use one's own data. */
  "app.use": ["superadmin", "admin", "owner", "manager", "projectAdmin", "tester"],
  /** See and change the account's AI provider, key and models (the AI settings page). */
  "ai.settings": ["superadmin", "admin", "owner"],
  /** See the Admin entry and /app/admin. */
  "admin.view": ["superadmin", "admin"],
  /** List and search users. */
  "admin.users.read": ["superadmin", "admin"],
  /** Grant credits to a user (through billing's ledger). */
  "admin.credits.grant": ["superadmin", "admin"],
  /** Turn a flag on or off, for one user or globally. */
  "admin.flags.write": ["superadmin", "admin"],
  /** Read the audit log and the usage and revenue figures. */
  "admin.audit.read": ["superadmin", "admin"],
  "admin.stats.read": ["superadmin", "admin"],
  /** Change another user's role (never to superadmin). */
  "admin.roles.write": ["superadmin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do `permission`; an unknown or missing role may do nothing. */
export function can(role: string | null | undefined, permission: Permission): boolean {
  return isRole(role) && (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** The roles one may hold on a project: its owner, and the team members an owner invites. */
export const PROJECT_ROLES = ["owner", "projectAdmin", "manager"] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/**
 * What a project role may do on that project. The projects service checks it on every project RPC
 * (services/projects/src/usecases/project-access.ts); README.md has the table in words and what is
 * not shared with members yet.
 */
export const PROJECT_PERMISSIONS = {
  /** Read the project, its profiles and crafts. */
  "project.read": ["owner", "projectAdmin", "manager"],
  /** Create and edit crafts, profiles, contacts in the project. */
  "project.write": ["owner", "projectAdmin", "manager"],
  /** Change the project's settings and its business profile. */
  "project.settings": ["owner", "projectAdmin"],
  /** Invite and remove team members. */
  "project.members": ["owner"],
  /** Delete the project. */
  "project.delete": ["owner"],
} as const satisfies Record<string, readonly ProjectRole[]>;

export type ProjectPermission = keyof typeof PROJECT_PERMISSIONS;

/** The roles an owner may give an invited team member. */
export const INVITABLE_ROLES = ["manager", "projectAdmin"] as const satisfies readonly ProjectRole[];

export function isProjectRole(value: unknown): value is ProjectRole {
  return typeof value === "string" && (PROJECT_ROLES as readonly string[]).includes(value);
}

/** Whether a member with `projectRole` may do `permission` on the project. */
export function canOnProject(projectRole: string | null | undefined, permission: ProjectPermission): boolean {
  return (
    isProjectRole(projectRole) && (PROJECT_PERMISSIONS[permission] as readonly ProjectRole[]).includes(projectRole)
  );
}

/**
 * The roles an admin may assign through Admin: never superadmin (operators only), and admin only
 * by a superadmin.
 */
export function assignableRoles(actorRole: string | null | undefined): Role[] {
  if (actorRole === "superadmin") return ["admin", "owner", "tester"];
  return [];
}
