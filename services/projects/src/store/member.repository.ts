import {
  insertOnce,
  modelOn,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
  type Plain,
  toPlain,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

// Team members, append-only: FerretDB does not isolate updates (kit data/idioms.ts), so
// every state change is an insert behind a unique key or a delete by `_id`.
// - project_members: `_id = <projectId>:<userId>`, one grant per user and project;
// - project_invites: one document per invitation (its token stored as a SHA-256 hash);
// - project_invite_closures: `_id = invite id`, the one acceptance or revocation of an invitation
//   (of an accept and a revoke racing, exactly one inserts).

export type MemberRole = "manager" | "projectAdmin";

export interface MemberDoc {
  /** `<projectId>:<userId>`. */
  _id: string;
  projectId: string;
  userId: string;
  /** The project owner's user id (the tenant its data lives under). */
  ownerId: string;
  email: string;
  role: MemberRole;
  inviteId: string;
  createdAt: Date;
}

export interface InviteDoc {
  _id: string;
  projectId: string;
  ownerId: string;
  /** Lower-cased. */
  email: string;
  role: MemberRole;
  /** SHA-256 (hex) of the link's token; the token itself is only in the email. */
  tokenHash: string;
  expiresAt: Date;
  outbox: OutboxEntry[];
  outboxMinute: number;
  createdAt: Date;
}

export interface InviteClosureDoc {
  /** The invite id. */
  _id: string;
  kind: "accepted" | "revoked";
  /** Who accepted or revoked it. */
  by: string;
  at: Date;
}

export type Member = Plain<MemberDoc>;
export type Invite = Plain<InviteDoc>;

export const memberIdOf = (projectId: string, userId: string): string => `${projectId}:${userId}`;

/** Most members or invites one project lists. */
export const MAX_LISTED = 200;

const memberSchema = new Schema<MemberDoc>(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true, index: true },
    userId: { type: String, required: true, index: true },
    ownerId: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, required: true },
    inviteId: { type: String, required: true },
  },
  { collection: "project_members", timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

const inviteSchema = new Schema<InviteDoc>(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true, index: true },
    ownerId: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, required: true },
    tokenHash: { type: String, required: true, unique: true },
    expiresAt: { type: Date, required: true },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "project_invites", timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

const closureSchema = new Schema<InviteClosureDoc>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true },
    by: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: "project_invite_closures", versionKey: false },
);

export function memberModels(connection: Connection) {
  return {
    members: modelOn<MemberDoc>(connection, "ProjectMember", memberSchema),
    invites: modelOn<InviteDoc>(connection, "ProjectInvite", inviteSchema),
    closures: modelOn<InviteClosureDoc>(connection, "ProjectInviteClosure", closureSchema),
  };
}

/** Members, invitations and their closures; every read is an equality on an indexed field. */
export class MemberRepository {
  constructor(
    private readonly models: {
      members: Model<MemberDoc>;
      invites: Model<InviteDoc>;
      closures: Model<InviteClosureDoc>;
    },
  ) {}

  /** The user's grant on the project, or null (one read by `_id`). */
  async membership(projectId: string, userId: string): Promise<Member | null> {
    const doc = await this.models.members.findById(memberIdOf(projectId, userId)).lean<MemberDoc>();
    return doc ? toPlain(doc) : null;
  }

  /** The projects the user is a member of (not the ones they own). */
  async ofUser(userId: string): Promise<Member[]> {
    const docs = await this.models.members.find({ userId }).limit(MAX_LISTED).lean<MemberDoc[]>();
    return docs.map((doc) => toPlain(doc));
  }

  async ofProject(projectId: string): Promise<Member[]> {
    const docs = await this.models.members
      .find({ projectId })
      .sort({ createdAt: 1 })
      .limit(MAX_LISTED)
      .lean<MemberDoc[]>();
    return docs.map((doc) => toPlain(doc));
  }

  /** Adds a member; false when they already are one. */
  addMember(member: Omit<MemberDoc, "_id" | "createdAt">): Promise<boolean> {
    return insertOnce(this.models.members, { ...member, _id: memberIdOf(member.projectId, member.userId) });
  }

  /** Removes a member; false when they were not one. */
  async removeMember(projectId: string, userId: string): Promise<boolean> {
    const result = await this.models.members.deleteOne({ _id: memberIdOf(projectId, userId) });
    return result.deletedCount > 0;
  }

  /** Stores an invitation with the event that emails it (one insert: the event commits with it). */
  async createInvite(invite: Omit<InviteDoc, "outbox" | "outboxMinute" | "createdAt">, event: OutboxEntry) {
    const created = await this.models.invites.create({
      ...invite,
      outbox: [event],
      outboxMinute: outboxMinuteOf(new Date()),
    });
    return toPlain(created.toObject() as InviteDoc);
  }

  async inviteByTokenHash(tokenHash: string): Promise<Invite | null> {
    const doc = await this.models.invites.findOne({ tokenHash }).lean<InviteDoc>();
    return doc ? toPlain(doc) : null;
  }

  async invite(projectId: string, inviteId: string): Promise<Invite | null> {
    const doc = await this.models.invites.findOne({ _id: inviteId, projectId }).lean<InviteDoc>();
    return doc ? toPlain(doc) : null;
  }

  async invitesOf(projectId: string): Promise<Invite[]> {
    const docs = await this.models.invites
      .find({ projectId })
      .sort({ createdAt: -1 })
      .limit(MAX_LISTED)
      .lean<InviteDoc[]>();
    return docs.map((doc) => toPlain(doc));
  }

  /** Closes an invitation (accepted or revoked); false when it was closed before. */
  close(inviteId: string, kind: InviteClosureDoc["kind"], by: string, at: Date): Promise<boolean> {
    return insertOnce(this.models.closures, { _id: inviteId, kind, by, at });
  }

  /**
   * Ends a deleted project's team: every open invitation is closed (revoked by `by`) and every
   * grant removed, by `_id`, so a rerun after a crash finishes the rest.
   * @returns how many grants and invitations it ended.
   */
  async endProject(projectId: string, by: string, at: Date): Promise<{ members: number; invites: number }> {
    const [members, invites] = await Promise.all([this.ofProject(projectId), this.invitesOf(projectId)]);
    const removed = await Promise.all(members.map((member) => this.removeMember(projectId, member.userId)));
    const closed = await Promise.all(invites.map((invite) => this.close(invite.id, "revoked", by, at)));
    return { members: removed.filter(Boolean).length, invites: closed.filter(Boolean).length };
  }

  /** Whether the invitation was accepted or revoked (one read by `_id`). */
  async isClosed(inviteId: string): Promise<boolean> {
    return (await this.models.closures.exists({ _id: inviteId })) !== null;
  }

  /**
   * The invitations, in the order given, that are neither accepted nor revoked. One read by `_id`
   * each: FerretDB pushes `_id` equality down to PostgreSQL but not `$in` (docs/adr/0001).
   */
  async stillOpen<T extends { id: string }>(invites: readonly T[]): Promise<T[]> {
    const closed = await Promise.all(invites.map((invite) => this.isClosed(invite.id)));
    return invites.filter((_, i) => !closed[i]);
  }
}
