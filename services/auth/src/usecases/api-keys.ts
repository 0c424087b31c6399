import { randomUUID } from "node:crypto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  ACCESS_TOKEN_ALG,
  API_KEY_MAX_PER_USER,
  API_KEY_PREFIX,
  API_KEY_SCOPE_NAMES,
  appError,
  badRequest,
  type Caller,
  denySession,
  hitRateLimit,
  isApiKeyScope,
  rateLimitedError,
} from "@crafter/kit";
import type { ApiKey } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { SignJWT } from "jose";
import type { AuthDeps } from "../deps";
import { hashToken, newOpaqueToken } from "../domain/tokens";
import type { ApiKeyDoc } from "../store/api-key.repository";

const NAME_MAX = 80;
const lastUsedKey = (id: string) => `apikey:lastused:${id}`;

type ApiKeyView = Omit<ApiKey, "$typeName" | "$unknown">;

function view(doc: ApiKeyDoc, revokedAt: Date | null, lastUsedAt: Date | null): ApiKeyView {
  return {
    id: doc.id,
    name: doc.name,
    scopes: doc.scopes,
    prefix: doc.prefix,
    createdAt: timestampFromDate(doc.createdAt),
    lastUsedAt: lastUsedAt ? timestampFromDate(lastUsedAt) : undefined,
    revokedAt: revokedAt ? timestampFromDate(revokedAt) : undefined,
  };
}

/**
 * Creates a personal API key: `crk_` + 256 random bits, stored as SHA-256 only, with a name
 * (1–80 characters) and scopes from API_KEY_SCOPES (at least one). At most API_KEY_MAX_PER_USER live keys.
 * @returns the key's listing and the secret, which is never shown again.
 * @throws CR_ERR_BAD_REQUEST for a bad name or scope list; CONFLICT when the user has too many keys.
 */
export async function createApiKey(
  deps: AuthDeps,
  caller: Caller,
  input: { name: string; scopes: string[] },
): Promise<{ apiKey: ApiKeyView; secret: string }> {
  const { userId } = caller;
  const name = input.name.trim();
  const scopes = [...new Set(input.scopes)];
  const fields: Record<string, string> = {};
  if (name === "") fields.name = "Name is required";
  else if (name.length > NAME_MAX) fields.name = `Name must be at most ${NAME_MAX} characters`;
  if (scopes.length === 0) fields.scopes = "Choose at least one scope";
  else if (!scopes.every(isApiKeyScope)) fields.scopes = `Scopes are among: ${API_KEY_SCOPE_NAMES.join(", ")}`;
  if (Object.keys(fields).length > 0) throw badRequest(fields);

  const existing = await deps.stores.apiKeys.listOfUser(userId);
  if (existing.filter((key) => !key.revokedAt).length >= API_KEY_MAX_PER_USER) {
    throw appError("CONFLICT", `You can have at most ${API_KEY_MAX_PER_USER} API keys. Revoke one first.`);
  }
  const secret = `${API_KEY_PREFIX}${newOpaqueToken()}`;
  const now = deps.now();
  const doc = await deps.stores.apiKeys.create({
    _id: hashToken(secret),
    id: randomUUID(),
    userId,
    name,
    scopes,
    prefix: secret.slice(0, API_KEY_PREFIX.length + 6),
  });
  await deps.stores.apiKeys.record({ keyId: doc.id, userId, action: "created", method: "", path: "", ip: "", at: now });
  return { apiKey: view(doc, null, null), secret };
}

/** The user's keys, newest first, with revocation and last use (never the secrets). */
export async function listApiKeys(deps: AuthDeps, caller: Caller): Promise<ApiKeyView[]> {
  const { userId } = caller;
  const keys = await deps.stores.apiKeys.listOfUser(userId);
  const lastUsed = keys.length > 0 ? await deps.redis.mget(keys.map((key) => lastUsedKey(key.id))) : [];
  return keys.map((key, i) => view(key, key.revokedAt, lastUsed[i] ? new Date(Number(lastUsed[i])) : null));
}

/**
 * Revokes one of the user's keys; the access tokens it was traded for are denied at once.
 * Revoking twice is fine. @throws NOT_FOUND for a key of no one or of another user.
 */
export async function revokeApiKey(deps: AuthDeps, caller: Caller, id: string): Promise<void> {
  const { userId } = caller;
  const key = id ? await deps.stores.apiKeys.findOfUser(userId, id) : null;
  if (!key) throw appError("NOT_FOUND", "No such API key.");
  const now = deps.now();
  if (await deps.stores.apiKeys.revoke(key.id, now)) {
    await deps.stores.apiKeys.record({
      keyId: key.id,
      userId,
      action: "revoked",
      method: "",
      path: "",
      ip: "",
      at: now,
    });
  }
  await denySession(deps.redis, `key:${key.id}`, deps.config.API_KEY_ACCESS_TTL_S);
}

export interface ApiKeyUse {
  secret: string;
  method: string;
  path: string;
  ip: string;
}

/**
 * Trades a presented key for a short access token (`API_KEY_ACCESS_TTL_S`) of its user, with
 * `sid` "key:<id>", the key's `scope` (space-separated) and `akid`. Every use and every refused
 * use of a known key is appended to the audit. `API_KEY_LIMIT_PER_MINUTE` uses per key.
 * @throws UNAUTHENTICATED for an unknown or revoked key or an unverified user; RATE_LIMITED.
 */
export async function verifyApiKey(
  deps: AuthDeps,
  use: ApiKeyUse,
): Promise<{ accessToken: string; userId: string; keyId: string; scopes: string[] }> {
  if (!use.secret.startsWith(API_KEY_PREFIX)) throw appError("UNAUTHENTICATED", "Invalid API key.");
  const key = await deps.stores.apiKeys.findByHash(hashToken(use.secret));
  if (!key) throw appError("UNAUTHENTICATED", "Invalid API key.");
  const now = deps.now();
  const audit = { keyId: key.id, userId: key.userId, method: use.method, path: use.path, ip: use.ip, at: now };
  const user = key.revokedAt ? null : await deps.stores.users.findById(key.userId);
  if (!user?.emailVerified) {
    await deps.stores.apiKeys.record({ ...audit, action: "refused" });
    throw appError("UNAUTHENTICATED", "Invalid API key.");
  }
  const limit = deps.config.API_KEY_LIMIT_PER_MINUTE;
  const rate = await hitRateLimit(deps.redis, `apikey:${key.id}`, limit, 60);
  if (!rate.allowed) throw rateLimitedError({ name: "api-key", limit, windowSeconds: 60 }, rate);

  const expiresAt = Math.floor(now.getTime() / 1000) + deps.config.API_KEY_ACCESS_TTL_S;
  const accessToken = await new SignJWT({
    email: user.email,
    role: user.role,
    email_verified: true,
    client_id: user.clientId,
    display_name: user.displayName,
    sid: `key:${key.id}`,
    akid: key.id,
    scope: key.scopes.join(" "),
  })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: deps.keys.signing.kid, typ: "JWT" })
    .setSubject(user.id)
    .setIssuer(deps.config.JWT_ISSUER)
    .setAudience(deps.config.JWT_AUDIENCE)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(expiresAt)
    .setJti(randomUUID())
    .sign(deps.keys.signing.key);
  await Promise.all([
    deps.stores.apiKeys.record({ ...audit, action: "used" }),
    deps.redis.set(lastUsedKey(key.id), String(now.getTime()), "EX", 90 * 24 * 3600),
  ]);
  return { accessToken, userId: user.id, keyId: key.id, scopes: key.scopes };
}
