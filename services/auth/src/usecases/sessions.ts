import { appError, badRequest, denySession, hitRateLimit, rateLimitedError } from "@crafter/kit";
import { verify } from "@node-rs/argon2";
import type { AuthDeps } from "../deps";
import { type Device, describeDevice } from "../domain/device";
import { passwordError } from "../domain/tokens";
import type { SessionUser } from "./session-user";
import { hashPassword } from "./sign-up";

/** One linked device as settings lists it. */
export interface DeviceSessionView extends Device {
  id: string;
  place: string;
  createdAt: Date;
  lastUsedAt: Date;
  current: boolean;
}

/** The caller's live sessions (not expired, not revoked), the last used first. */
export async function listSessions(deps: AuthDeps, caller: SessionUser): Promise<DeviceSessionView[]> {
  const families = await deps.stores.refreshTokens.liveFamiliesOf(caller.userId, deps.now());
  const records = new Map(
    (await deps.stores.sessions.findMany(families.map((family) => family.familyId))).map((doc) => [doc._id, doc]),
  );
  return families.map((family) => {
    const record = records.get(family.familyId);
    return {
      id: family.familyId,
      ...describeDevice(record?.userAgent ?? ""),
      place: record?.ip ?? "",
      createdAt: record?.createdAt ?? family.lastUsedAt,
      lastUsedAt: family.lastUsedAt,
      current: family.familyId === caller.sid,
    };
  });
}

/** Ends one family: no more refreshes, and its access tokens are denied at once. */
async function endFamily(deps: AuthDeps, familyId: string): Promise<void> {
  await deps.stores.refreshTokens.revokeFamily(familyId, deps.now());
  await denySession(deps.redis, familyId, deps.config.ACCESS_TOKEN_TTL_S);
}

/**
 * Ends one of the caller's sessions (the current one too: that is signing this device out).
 * @throws NOT_FOUND when the id is not a live session of the caller.
 */
export async function revokeSession(deps: AuthDeps, caller: SessionUser, id: string): Promise<void> {
  const families = await deps.stores.refreshTokens.liveFamiliesOf(caller.userId, deps.now());
  if (!families.some((family) => family.familyId === id)) throw appError("NOT_FOUND", "This device is not signed in.");
  await endFamily(deps, id);
}

/** Password changes per user per 15 minutes (each one costs argon2 checks). */
const CHANGE_LIMIT = 10;

/**
 * Changes the caller's password once the current one checks out, and ends every other session
 * (the caller's own stays signed in). Publishes PasswordChanged.
 * @returns how many other sessions were ended.
 * @throws CR_ERR_BAD_REQUEST with `currentPassword` (wrong) or `newPassword` (weak, or the same);
 * RATE_LIMITED after CHANGE_LIMIT attempts in 15 minutes; UNAUTHENTICATED when the user is gone.
 */
export async function changePassword(
  deps: AuthDeps,
  caller: SessionUser,
  input: { currentPassword: string; newPassword: string },
): Promise<number> {
  const limit = await hitRateLimit(deps.redis, `password-change:${caller.userId}`, CHANGE_LIMIT, 15 * 60);
  if (!limit.allowed)
    throw rateLimitedError({ name: "password-change", limit: CHANGE_LIMIT, windowSeconds: 900 }, limit);
  const user = await deps.stores.users.findById(caller.userId);
  if (!user) throw appError("UNAUTHENTICATED");
  const ok = await verify(user.passwordHash, input.currentPassword || " ").catch(() => false);
  if (!ok) throw badRequest({ currentPassword: "Your current password is not correct." });
  const problem = passwordError(input.newPassword);
  if (problem) throw badRequest({ newPassword: problem });
  if (input.newPassword === input.currentPassword) {
    throw badRequest({ newPassword: "Choose a password other than your current one." });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await deps.stores.users.updateWithEvent(user.id, { passwordHash }, deps.events.passwordChanged(user.id));
  deps.kick();
  const others = (await deps.stores.refreshTokens.liveFamiliesOf(user.id, deps.now())).filter(
    (family) => family.familyId !== caller.sid,
  );
  await Promise.all(others.map((family) => endFamily(deps, family.familyId)));
  return others.length;
}
