import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Secrets at rest (a user's AI provider key, a sending domain's DKIM private key): AES-256-GCM with
 * a 96-bit random IV per secret and the owner's id as additional data, so a sealed value copied to
 * another owner's record does not open.
 *
 * Sealed forms (base64url parts):
 * - `v2.<keyId>.<iv>.<tag>.<ciphertext>`: sealed with the ring's key `keyId`, so keys can rotate
 *   (a new first key seals, the older ones still open what they sealed);
 * - `v1.<iv>.<tag>.<ciphertext>`: the older form without a key id; opened with the ring's `v1` key.
 */

/** A 32-byte AES key with its id (letters, digits, `_` and `-`; 1 to 32 characters). */
export interface SecretKey {
  id: string;
  key: Buffer;
}

/** The keys a service seals and opens with: `sealing` seals; every key of `byId` opens. */
export interface KeyRing {
  sealing: SecretKey;
  byId: ReadonlyMap<string, Buffer>;
  /** Opens the `v1` form (sealed before key ids existed). */
  v1?: Buffer;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Parses one key: 32 bytes as base64 / base64url (43–44 characters) or hex (64).
 * @throws Error when it is not exactly 32 bytes.
 */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new Error("must be 32 bytes, base64 or hex (e.g. `openssl rand -base64 32`)");
  return key;
}

/**
 * A ring from its keys, the first one sealing.
 * @throws Error for no keys, a malformed or repeated id.
 */
export function keyRing(keys: readonly SecretKey[], v1?: Buffer): KeyRing {
  const first = keys[0];
  if (!first) throw new Error("needs at least one key");
  const byId = new Map<string, Buffer>();
  for (const { id, key } of keys) {
    if (!KEY_ID.test(id)) throw new Error(`key id "${id}" must be 1 to 32 letters, digits, _ or -`);
    if (byId.has(id)) throw new Error(`key id "${id}" is given twice`);
    if (key.length !== 32) throw new Error(`key "${id}" must be 32 bytes`);
    byId.set(id, key);
  }
  return v1 ? { sealing: first, byId, v1 } : { sealing: first, byId };
}

/**
 * Parses a key ring setting such as SECRETS_KEYS: `id:key,id:key` (each key as in
 * `parseSecretKey`), the first one sealing. Errors never quote a key.
 * @throws Error for an empty list, an entry without `id:`, a key of the wrong length, a repeated id.
 */
export function parseKeyRing(text: string, v1?: Buffer): KeyRing {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const keys = entries.map((entry, index) => {
    const colon = entry.indexOf(":");
    if (colon <= 0) throw new Error(`entry ${index + 1} must be id:key`);
    const id = entry.slice(0, colon).trim();
    try {
      return { id, key: parseSecretKey(entry.slice(colon + 1)) };
    } catch (error) {
      throw new Error(`key "${id}" ${(error as Error).message}`);
    }
  });
  return keyRing(keys, v1);
}

/** Encrypts `plaintext` for `owner` with the ring's sealing key (the `v2` form). */
export function sealSecret(ring: KeyRing, plaintext: string, owner: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", ring.sealing.key, iv);
  cipher.setAAD(Buffer.from(owner, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v2", ring.sealing.id, ...[iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url"))].join(
    ".",
  );
}

/**
 * Decrypts a value sealed for `owner`, in either form.
 * @throws Error "not a sealed secret" for another shape; "sealed with an unknown key" when the ring
 *   lacks its key; another Error when it was sealed for another owner or with another key, or altered.
 */
export function openSecret(ring: KeyRing, sealed: string, owner: string): string {
  const parts = sealed.split(".");
  let key: Buffer | undefined;
  let rest: string[];
  if (parts[0] === "v2" && parts.length === 5) {
    key = ring.byId.get(parts[1]!);
    rest = parts.slice(2);
  } else if (parts[0] === "v1" && parts.length === 4) {
    key = ring.v1;
    rest = parts.slice(1);
  } else {
    throw new Error("not a sealed secret");
  }
  if (!key) throw new Error("sealed with an unknown key");
  const [iv, tag, body] = rest as [string, string, string];
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(owner, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** Whether a sealed value was sealed with another key than the ring's sealing one (worth resealing). */
export function needsReseal(ring: KeyRing, sealed: string): boolean {
  return !sealed.startsWith(`v2.${ring.sealing.id}.`);
}
