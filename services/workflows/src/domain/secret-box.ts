import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Secrets at rest (a user's AI provider key): AES-256-GCM with a 96-bit random IV per secret and
 * the owner's id as additional data, so a sealed value copied to another user's record does not
 * open. Sealed form: `v1.<iv>.<tag>.<ciphertext>` (base64url parts).
 */

const VERSION = "v1";

/**
 * Parses AI_SETTINGS_KEY: 32 bytes as base64 / base64url (43–44 characters) or hex (64).
 * @throws Error when it is not exactly 32 bytes.
 */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new Error("must be 32 bytes, base64 or hex (e.g. `openssl rand -base64 32`)");
  return key;
}

/** Encrypts `plaintext` for `owner`. */
export function sealSecret(key: Buffer, plaintext: string, owner: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(owner, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/**
 * Decrypts a value sealed for `owner`.
 * @throws Error when it was sealed with another key or for another owner, or was altered.
 */
export function openSecret(key: Buffer, sealed: string, owner: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
    throw new Error("not a sealed secret");
  }
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(owner, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** The last 4 characters of a key, the only part of it ever shown again. */
export function keyHint(apiKey: string): string {
  return apiKey.length > 8 ? apiKey.slice(-4) : "";
}
