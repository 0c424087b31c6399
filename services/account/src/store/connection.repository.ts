import {
  type KeyRing,
  MarkerSet,
  modelOn,
  type OutboxEntry,
  openSecret,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
  sealSecret,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { ConnectionState, ConnectionView, TokenSet } from "../domain/connections";
import type { ProviderId } from "../domain/providers";

/**
 * A project's connection to one provider: one document per (project, provider), `_id`
 * `<projectId>:<provider>`, so every read is by `_id`. Tokens are sealed with the SECRETS_KEYS
 * ring (AES-256-GCM), the connection's id as additional data: a sealed token copied to another
 * connection does not open. Only the connect, the refresh (under a Redis lock) and the
 * disconnect write it.
 */
export interface ConnectionDoc {
  _id: string;
  projectId: string;
  /** The project's owner: the connection's data is theirs, their inbox gets its notices. */
  ownerUserId: string;
  /** Who connected it (the owner or a projectAdmin). */
  connectedBy: string;
  provider: ProviderId;
  remoteAccountId: string;
  remoteAccountName: string;
  scopes: string[];
  state: ConnectionState;
  connectedAt: Date;
  lastWorkedAt: Date | null;
  lastError: string;
  accessSealed: string;
  /** "" when the provider issued no refresh token. */
  refreshSealed: string;
  expiresAt: Date | null;
  /** The provider's event webhook to this project (SendGrid), as set up on connect. */
  webhook?: ConnectionWebhook | null;
  /** The last import of each part of a store (Shopify: `products`, `customers`), as the importing service reported it. */
  syncs?: Record<string, ConnectionSyncRecord>;
  /** ConnectionNeedsReconnecting and ShopifySyncRequested, until the relay publishes them. */
  outbox: OutboxEntry[];
  outboxMinute?: number;
}

/** A provider's event webhook set up on connect: its id there, where it posts, the key that verifies it. */
export interface ConnectionWebhook {
  /** The provider's id of the webhook ("" when it could not be made). */
  id: string;
  url: string;
  /** SendGrid: base64 DER SubjectPublicKeyInfo of its ECDSA P-256 key; "" when not signed. */
  publicKey: string;
  state: "active" | "failed";
  error: string;
}

/** One import of one part of a connected store. */
export interface ConnectionSyncRecord {
  finishedAt: Date;
  imported: number;
  /** "" when it finished. */
  error: string;
}

const connectionSchema = new Schema<ConnectionDoc>(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true, index: true },
    ownerUserId: { type: String, required: true },
    connectedBy: { type: String, required: true },
    provider: { type: String, required: true },
    remoteAccountId: { type: String, default: "" },
    remoteAccountName: { type: String, default: "" },
    scopes: { type: [String], default: () => [] },
    state: { type: String, required: true },
    connectedAt: { type: Date, required: true },
    lastWorkedAt: { type: Date, default: null },
    lastError: { type: String, default: "" },
    accessSealed: { type: String, required: true },
    refreshSealed: { type: String, default: "" },
    expiresAt: { type: Date, default: null },
    webhook: { type: Schema.Types.Mixed, default: null },
    syncs: { type: Schema.Types.Mixed, default: () => ({}) },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "connections", versionKey: false, minimize: false },
);
// Shopify's webhooks name the shop: its connections are found by it.
connectionSchema.index({ remoteAccountId: 1 });

/**
 * One connect attempt between its start and its callback: the PKCE verifier (sealed) that must not
 * travel through the browser. `_id` is the state's nonce; its use is a `MarkerSet` insert, so of two
 * callbacks with one state exactly one goes on.
 */
export interface ConnectionAttemptDoc {
  _id: string;
  /** Who started it (the owner, or a projectAdmin acting in the owner's project). */
  connectedBy: string;
  verifierSealed: string;
  /** Shopify: the shop the owner named, which the callback must name too. */
  shop?: string;
  expiresAt: Date;
}

const attemptSchema = new Schema<ConnectionAttemptDoc>(
  {
    _id: { type: String, required: true },
    connectedBy: { type: String, required: true },
    verifierSealed: { type: String, required: true },
    shop: { type: String, default: "" },
    expiresAt: { type: Date, required: true },
  },
  { collection: "connection_attempts", versionKey: false },
);

export function connectionModel(connection: Connection): Model<ConnectionDoc> {
  return modelOn<ConnectionDoc>(connection, "Connection", connectionSchema);
}

export function connectionAttemptModel(connection: Connection): Model<ConnectionAttemptDoc> {
  return modelOn<ConnectionAttemptDoc>(connection, "ConnectionAttempt", attemptSchema);
}

export const connectionId = (projectId: string, provider: ProviderId) => `${projectId}:${provider}`;

/** The tokens of a connection, opened. */
export interface OpenTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date | null;
}

/** What connecting stores. */
export interface NewConnection {
  projectId: string;
  ownerUserId: string;
  connectedBy: string;
  provider: ProviderId;
  remoteAccountId: string;
  remoteAccountName: string;
  scopes: string[];
  tokens: TokenSet;
  at: Date;
  webhook?: ConnectionWebhook;
}

export function toConnectionView(doc: ConnectionDoc): ConnectionView {
  return {
    provider: doc.provider,
    projectId: doc.projectId,
    state: doc.state,
    remoteAccountId: doc.remoteAccountId,
    remoteAccountName: doc.remoteAccountName,
    scopes: doc.scopes ?? [],
    connectedAt: doc.connectedAt,
    lastWorkedAt: doc.lastWorkedAt ?? null,
    lastError: doc.lastError ?? "",
    ...(doc.webhook ? { webhook: { state: doc.webhook.state, url: doc.webhook.url, error: doc.webhook.error } } : {}),
    syncs: Object.entries(doc.syncs ?? {}).map(([part, record]) => ({ part, ...record })),
  };
}

/** Connections and connect attempts; seals and opens tokens with `ring`. */
export class ConnectionRepository {
  private readonly used: MarkerSet;

  constructor(
    readonly model: Model<ConnectionDoc>,
    readonly attempts: Model<ConnectionAttemptDoc>,
    connection: Connection,
    private readonly ring: KeyRing | undefined,
  ) {
    this.used = new MarkerSet(connection, "ConnectionAttemptUse", "connection_attempts_used");
  }

  /** Whether tokens can be kept on this server (SECRETS_KEYS is set). */
  get canSeal(): boolean {
    return this.ring !== undefined;
  }

  private seal(plain: string, owner: string): string {
    if (!this.ring) throw new Error("SECRETS_KEYS is not set");
    return sealSecret(this.ring, plain, owner);
  }

  /** The project's connections, one per provider. */
  async list(projectId: string): Promise<ConnectionDoc[]> {
    return this.model.find({ projectId }).lean<ConnectionDoc[]>();
  }

  async get(projectId: string, provider: ProviderId): Promise<ConnectionDoc | null> {
    return this.model.findById(connectionId(projectId, provider)).lean<ConnectionDoc>();
  }

  /** Opens a connection's tokens. @throws Error when they do not open (SECRETS_KEYS lost their key). */
  open(doc: ConnectionDoc): OpenTokens {
    if (!this.ring) throw new Error("SECRETS_KEYS is not set");
    return {
      accessToken: openSecret(this.ring, doc.accessSealed, doc._id),
      refreshToken: doc.refreshSealed ? openSecret(this.ring, doc.refreshSealed, doc._id) : "",
      expiresAt: doc.expiresAt ?? null,
    };
  }

  /** Stores a new connection, replacing the project's previous one to the same provider. */
  async connect(input: NewConnection): Promise<ConnectionDoc> {
    const _id = connectionId(input.projectId, input.provider);
    const doc: ConnectionDoc = {
      _id,
      projectId: input.projectId,
      ownerUserId: input.ownerUserId,
      connectedBy: input.connectedBy,
      provider: input.provider,
      remoteAccountId: input.remoteAccountId,
      remoteAccountName: input.remoteAccountName,
      scopes: input.scopes,
      state: "connected",
      connectedAt: input.at,
      lastWorkedAt: input.at,
      lastError: "",
      accessSealed: this.seal(input.tokens.accessToken, _id),
      refreshSealed: input.tokens.refreshToken ? this.seal(input.tokens.refreshToken, _id) : "",
      expiresAt: input.tokens.expiresAt,
      webhook: input.webhook ?? null,
      outbox: [],
    };
    const { _id: _, outbox: __, ...fields } = doc;
    // Not a replace: an event of the previous connection the relay has not published yet stays.
    await this.model.updateOne({ _id }, { $set: fields, $setOnInsert: { outbox: [] } }, { upsert: true });
    return doc;
  }

  /** Keeps refreshed tokens (the refresh token only when a new one came). Called under the refresh lock. */
  async refreshed(doc: ConnectionDoc, tokens: TokenSet, at: Date): Promise<void> {
    await this.model.updateOne(
      { _id: doc._id },
      {
        $set: {
          accessSealed: this.seal(tokens.accessToken, doc._id),
          ...(tokens.refreshToken ? { refreshSealed: this.seal(tokens.refreshToken, doc._id) } : {}),
          expiresAt: tokens.expiresAt,
          state: "connected",
          lastWorkedAt: at,
          lastError: "",
        },
      },
    );
  }

  /**
   * Marks a connection whose grant the provider refused, with its event in the same update. Called
   * under the refresh lock, by the one caller that saw the refusal.
   */
  async needsReconnecting(doc: ConnectionDoc, lastError: string, event: OutboxEntry): Promise<void> {
    await this.model.updateOne(
      { _id: doc._id },
      {
        $set: { state: "needs_reconnecting", lastError, outboxMinute: outboxMinuteOf(event.time) },
        $push: { outbox: event },
      },
    );
  }

  /**
   * Marks a connected connection whose key or token a provider refused (a service saw 401/403),
   * with its event in the same update. @returns false when it was not connected (already marked, or gone).
   */
  async refused(doc: ConnectionDoc, lastError: string, event: OutboxEntry): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: doc._id, state: "connected", connectedAt: doc.connectedAt },
      {
        $set: { state: "needs_reconnecting", lastError, outboxMinute: outboxMinuteOf(event.time) },
        $push: { outbox: event },
      },
    );
    return result.modifiedCount > 0;
  }

  /** Records a failure that does not end the grant (the provider was down, rate limited). */
  async failed(doc: ConnectionDoc, lastError: string): Promise<void> {
    await this.model.updateOne({ _id: doc._id }, { $set: { lastError } });
  }

  /** Deletes the connection and its tokens. @returns whether there was one. */
  async remove(projectId: string, provider: ProviderId): Promise<boolean> {
    return (await this.model.deleteOne({ _id: connectionId(projectId, provider) })).deletedCount > 0;
  }

  /** Keeps a connect attempt's PKCE verifier (and Shopify's shop) until its state expires. */
  async startAttempt(nonce: string, verifier: string, connectedBy: string, expiresAt: Date, shop = ""): Promise<void> {
    await this.attempts.create({
      _id: nonce,
      connectedBy,
      verifierSealed: this.seal(verifier, `attempt:${nonce}`),
      shop,
      expiresAt,
    });
  }

  /** The connections to one remote account (a Shopify shop's domain), of every project. */
  async byRemoteAccount(provider: ProviderId, remoteAccountId: string): Promise<ConnectionDoc[]> {
    const docs = await this.model.find({ remoteAccountId }).lean<ConnectionDoc[]>();
    return docs.filter((doc) => doc.provider === provider);
  }

  /** Adds an event to a connection's outbox (ShopifySyncRequested). */
  async publish(connection: string, event: OutboxEntry): Promise<void> {
    await this.model.updateOne(
      { _id: connection },
      { $set: { outboxMinute: outboxMinuteOf(event.time) }, $push: { outbox: event } },
    );
  }

  /** Keeps what a service's import of one part did; each part is its own path, so two services never overwrite each other. */
  async recordSync(
    projectId: string,
    provider: ProviderId,
    part: string,
    record: ConnectionSyncRecord,
  ): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: connectionId(projectId, provider) },
      { $set: { [`syncs.${part}`]: record, ...(record.error ? {} : { lastWorkedAt: record.finishedAt }) } },
    );
    return result.matchedCount > 0;
  }

  /**
   * Uses a connect attempt once.
   * @returns its verifier and who started it; null when it was used before, or is unknown or expired.
   */
  async useAttempt(nonce: string, now: Date): Promise<{ verifier: string; connectedBy: string; shop: string } | null> {
    if (!(await this.used.add(nonce, now))) return null;
    const attempt = await this.attempts.findById(nonce).lean<ConnectionAttemptDoc>();
    if (!attempt || attempt.expiresAt.getTime() <= now.getTime() || !this.ring) return null;
    await this.attempts.deleteOne({ _id: nonce });
    return {
      verifier: openSecret(this.ring, attempt.verifierSealed, `attempt:${nonce}`),
      connectedBy: attempt.connectedBy,
      shop: attempt.shop ?? "",
    };
  }

  /** Removes attempts and use markers older than `before` (expiry is checked on read; this keeps the collections small). */
  async sweep(before: Date): Promise<void> {
    await this.attempts.deleteMany({ expiresAt: { $lte: before } });
    await this.used.sweep(before);
  }
}
