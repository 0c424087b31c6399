import { randomUUID } from "node:crypto";
import { MarkerSet } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

export interface ApiKeyDoc {
  /** SHA-256 of the key (hex): verification is a read by `_id`. The key itself is never stored. */
  _id: string;
  /** The public id the user lists and revokes by. */
  id: string;
  userId: string;
  name: string;
  scopes: string[];
  /** The key's first characters, to recognise it in the list. */
  prefix: string;
  createdAt: Date;
}

export type ApiKeyAuditAction = "created" | "revoked" | "used" | "refused";

export interface ApiKeyAuditDoc {
  _id: string;
  keyId: string;
  userId: string;
  action: ApiKeyAuditAction;
  /** For uses: the HTTP method and path, and the client address. */
  method: string;
  path: string;
  ip: string;
  at: Date;
}

const keySchema = new Schema<ApiKeyDoc>({
  _id: String,
  id: { type: String, required: true, unique: true },
  userId: { type: String, required: true, index: true },
  name: { type: String, required: true },
  scopes: { type: [String], default: [] },
  prefix: { type: String, required: true },
  createdAt: { type: Date, default: Date.now },
});

const auditSchema = new Schema<ApiKeyAuditDoc>({
  _id: String,
  keyId: { type: String, required: true, index: true },
  userId: { type: String, required: true, index: true },
  action: { type: String, required: true },
  method: { type: String, default: "" },
  path: { type: String, default: "" },
  ip: { type: String, default: "" },
  at: { type: Date, required: true },
});

/**
 * Personal API keys. Key documents never change; a revocation is a unique-id insert into
 * `api_key_revocations`, and every creation, revocation and use is appended to `api_key_audit`
 * (append-only: nothing updates or deletes it).
 */
export class ApiKeyRepository {
  readonly model: Model<ApiKeyDoc>;
  readonly audit: Model<ApiKeyAuditDoc>;
  private readonly revoked: MarkerSet;

  constructor(connection: Connection) {
    this.model = connection.model<ApiKeyDoc>("ApiKey", keySchema, "api_keys");
    this.audit = connection.model<ApiKeyAuditDoc>("ApiKeyAudit", auditSchema, "api_key_audit");
    this.revoked = new MarkerSet(connection, "ApiKeyRevocation", "api_key_revocations");
  }

  async create(doc: Omit<ApiKeyDoc, "createdAt">): Promise<ApiKeyDoc> {
    return (await this.model.create(doc)).toObject() as ApiKeyDoc;
  }

  /** The key with this hash and its revocation time, or null. */
  async findByHash(hash: string): Promise<(ApiKeyDoc & { revokedAt: Date | null }) | null> {
    const key = await this.model.findById(hash).lean<ApiKeyDoc>();
    if (!key) return null;
    return { ...key, revokedAt: await this.revoked.get(key.id) };
  }

  /** The user's keys, newest first, each with its revocation time. */
  async listOfUser(userId: string): Promise<Array<ApiKeyDoc & { revokedAt: Date | null }>> {
    const keys = await this.model.find({ userId }).lean<ApiKeyDoc[]>();
    keys.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return Promise.all(keys.map(async (key) => ({ ...key, revokedAt: await this.revoked.get(key.id) })));
  }

  async findOfUser(userId: string, id: string): Promise<ApiKeyDoc | null> {
    return this.model.findOne({ id, userId }).lean<ApiKeyDoc>();
  }

  /** @returns true when this call revoked it (false: revoked before). */
  async revoke(id: string, now: Date): Promise<boolean> {
    return this.revoked.add(id, now);
  }

  async isRevoked(id: string): Promise<boolean> {
    return (await this.revoked.get(id)) !== null;
  }

  async record(entry: Omit<ApiKeyAuditDoc, "_id">): Promise<void> {
    await this.audit.create({ _id: randomUUID(), ...entry });
  }

  async auditOf(keyId: string): Promise<ApiKeyAuditDoc[]> {
    const entries = await this.audit.find({ keyId }).lean<ApiKeyAuditDoc[]>();
    return entries.sort((a, b) => a.at.getTime() - b.at.getTime());
  }
}
