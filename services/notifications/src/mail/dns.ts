import { Resolver } from "node:dns/promises";
import type { TxtAnswer } from "../domain/dkim";

/**
 * TXT lookups for sender authentication checks, over node:dns's `Resolver`: the system's servers,
 * or `servers` (DNS_SERVERS, e.g. `127.0.0.1:5353` for a test's local DNS server).
 * @returns the TXT records of a name, each record's strings joined; `none` when the name has none
 *   (NXDOMAIN, NODATA); `failed` for a timeout or a server failure.
 */
export function txtLookup(options: { servers: string[]; timeoutMs: number }): (name: string) => Promise<TxtAnswer> {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: 2 });
  if (options.servers.length > 0) resolver.setServers(options.servers);
  return async (name) => {
    try {
      return { records: (await resolver.resolveTxt(name)).map((chunks) => chunks.join("")) };
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { error: code === "ENOTFOUND" || code === "ENODATA" ? "none" : "failed" };
    }
  };
}
