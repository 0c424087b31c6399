/** The address every caller that may not name one shares: a direct caller cannot pick a fresh IP per try. */
export const UNTRUSTED_IP = "untrusted";

/** The one service whose calls may name the client IP: it takes it from its own trusted-proxy setting. */
export const IP_NAMING_SERVICE = "gateway";

/**
 * The client IP a caller names, if it may name one: only the gateway, proved by its service token
 * (the access interceptor's verified `kService`, set on public methods too). Anyone else, users and
 * other services included, shares UNTRUSTED_IP.
 * @param callingService the verified calling service (`Caller.service`, `kService`), undefined for none.
 */
export function trustedClientIp(claimedIp: string, callingService: string | undefined): string {
  if (callingService !== IP_NAMING_SERVICE) return UNTRUSTED_IP;
  return claimedIp.trim() || "unknown";
}
