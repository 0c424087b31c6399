import { timestampDate } from "@bufbuild/protobuf/wkt";
import { appError } from "@crafter/kit";
import { canOnProject, type ProjectPermission } from "@crafter/roles";
import { LRUCache } from "lru-cache";
import type { Clients } from "../clients";

/**
 * The team members' tokens the gateway holds: one delegated access token per
 * (member, project), kept until `marginMs` before it expires and at most `maxAgeMs`, so a removal
 * seen by another gateway process still ends access within `maxAgeMs` (this process drops the
 * entry at once, see `drop`). The least recently used go first when full (lru-cache). In process
 * only: the tokens never leave the gateway, not even to Redis.
 */
export class DelegationCache {
  private readonly entries: LRUCache<string, string>;

  constructor(
    private readonly options: { maxAgeMs: number; marginMs: number; maxEntries: number } = {
      maxAgeMs: 60_000,
      marginMs: 60_000,
      maxEntries: 10_000,
    },
    private readonly now: () => number = Date.now,
  ) {
    // ttlResolution 0: read the clock on every check (lru-cache otherwise reuses a reading for 1 ms,
    // which an injected test clock would outrun).
    this.entries = new LRUCache({ max: options.maxEntries, perf: { now }, ttlResolution: 0 });
  }

  /** The member's cached token for the project, or undefined when none is fresh. */
  get(memberUserId: string, projectId: string): string | undefined {
    return this.entries.get(keyOf(memberUserId, projectId));
  }

  /** Keeps a token that expires at `expiresAt`; one too close to its expiry is not kept. */
  set(memberUserId: string, projectId: string, token: string, expiresAt: Date): void {
    const now = this.now();
    const until = Math.min(expiresAt.getTime() - this.options.marginMs, now + this.options.maxAgeMs);
    // lru-cache keeps an entry while its age is at most `ttl` (0 means forever): fresh before
    // `until`, gone from `until` on.
    if (until - now <= 1) return;
    this.entries.set(keyOf(memberUserId, projectId), token, { ttl: until - now - 1 });
  }

  /** Forgets a member's token (removed from the project); every member's without `memberUserId`. */
  drop(projectId: string, memberUserId?: string): void {
    if (memberUserId !== undefined) {
      this.entries.delete(keyOf(memberUserId, projectId));
      return;
    }
    const suffix = `\u0000${projectId}`;
    for (const key of [...this.entries.keys()]) if (key.endsWith(suffix)) this.entries.delete(key);
  }
}

const keyOf = (memberUserId: string, projectId: string) => `${memberUserId}\u0000${projectId}`;

/** Call options carrying one bearer token. */
export type As = { headers: { authorization: string } };

/** The project a request works in, and how to call the services for it. */
export interface Acting {
  /** "" for a user without a project yet. */
  projectId: string;
  /** The caller's role on it: owner, or a team member's role. */
  role: string;
  /** Call options: the caller's own token, or for a team member the delegated token (owner's data). */
  as: As;
  /** Whether `as` acts as the project's owner on a member's behalf. */
  delegated: boolean;
}

/** Who calls: the verified user and their own access token. */
export interface ActingCaller {
  userId: string;
  token: string;
}

export type ActingResolver = (
  caller: ActingCaller,
  projectId: string | undefined,
  permission: ProjectPermission,
) => Promise<Acting>;

/**
 * The one place that decides whose data a request of the per-user areas works in (contacts, leads,
 * automations, calendar, campaigns, templates, crafts, media): the `projectId` given, which must be
 * one the caller owns or is a member of, else their active project. For a project they own (or
 * none), their own token; on a team member's project, projects' DelegateAccess token (owner's data,
 * the member as `act`), cached per (member, project). The membership is read on every request (the
 * project list or the active project, as before), so a removed member is refused at once.
 * @throws NOT_FOUND for a project that is not the caller's nor shared with them; FORBIDDEN when
 *   their role does not allow `permission` (@crafter/roles PROJECT_PERMISSIONS).
 */
export function actingResolver(clients: Pick<Clients, "projects" | "members">, cache: DelegationCache): ActingResolver {
  return async (caller, requested, permission) => {
    const own: As = { headers: { authorization: `Bearer ${caller.token}` } };
    let projectId: string;
    let role: string;
    if (requested) {
      const { projects } = await clients.projects.listProjects({}, own);
      const project = projects.find((p) => p.projectId === requested);
      if (!project) throw appError("NOT_FOUND", "No such project.");
      projectId = requested;
      role = project.role || "owner";
    } else {
      const active = await clients.projects.getActiveProject({}, own);
      projectId = active.projectId ?? "";
      role = active.role || "owner";
    }
    if (!projectId || role === "owner") return { projectId, role: "owner", as: own, delegated: false };
    if (!canOnProject(role, permission)) throw appError("FORBIDDEN", "Your role on this project does not allow this.");
    let token = cache.get(caller.userId, projectId);
    if (!token) {
      const issued = await clients.members.delegateAccess({ projectId }, own);
      token = issued.accessToken;
      cache.set(caller.userId, projectId, token, issued.expiresAt ? timestampDate(issued.expiresAt) : new Date(0));
    }
    return { projectId, role, as: { headers: { authorization: `Bearer ${token}` } }, delegated: true };
  };
}

/** The permission a request needs: reads `project.read`, everything else `project.write`. */
export function permissionOf(method: string): ProjectPermission {
  return method.toUpperCase() === "GET" || method.toUpperCase() === "HEAD" ? "project.read" : "project.write";
}
