import { createHash, timingSafeEqual } from "node:crypto";

/** Service name → SHA-256 of its secret. */
export type ServiceSecrets = ReadonlyMap<string, Buffer>;

/** A service name as tokens name it (`sub = service:<name>`). */
const NAME = /^[a-z][a-z0-9-]{0,62}$/;
/** Secrets are random, at least 32 characters (e.g. 32 bytes base64url = 43). */
export const SERVICE_SECRET_MIN = 32;

const digest = (secret: string) => createHash("sha256").update(secret).digest();

/**
 * Parses auth's SERVICE_SECRETS: `name=secret` pairs separated by commas or newlines, e.g.
 * `workflows=3q2…,gateway=Zk9…`. Blank entries are skipped.
 * @returns the table, or a message naming the first bad entry (never the secret itself).
 */
export function parseServiceSecrets(text: string): { secrets: ServiceSecrets } | { error: string } {
  const secrets = new Map<string, Buffer>();
  for (const entry of text.split(/[,\n]/)) {
    const trimmed = entry.trim();
    if (!trimmed) continue;
    const at = trimmed.indexOf("=");
    const name = at > 0 ? trimmed.slice(0, at).trim() : "";
    const secret = at > 0 ? trimmed.slice(at + 1).trim() : "";
    if (!NAME.test(name)) return { error: `an entry has no valid service name (name=secret)` };
    if (secret.length < SERVICE_SECRET_MIN) {
      return { error: `the secret of ${name} is shorter than ${SERVICE_SECRET_MIN} characters` };
    }
    if (secrets.has(name)) return { error: `${name} is listed twice` };
    secrets.set(name, digest(secret));
  }
  return { secrets };
}

/** True when `secret` is the secret of `service`; compares digests in constant time. */
export function serviceSecretMatches(secrets: ServiceSecrets, service: string, secret: string): boolean {
  const expected = secrets.get(service);
  // Hash even for an unknown name, so the answer takes as long either way.
  const given = digest(secret);
  return expected !== undefined && timingSafeEqual(expected, given);
}
