import { Resolver } from "node:dns/promises";
import type { LookupAnswer } from "../domain/custom-domain";

/** The two lookups a custom domain's check makes. */
export interface DnsLookup {
  /** The CNAME target(s) of `name` (without a trailing dot). */
  cname(name: string): Promise<LookupAnswer>;
  /** The TXT records at `name`, each record's strings joined. */
  txt(name: string): Promise<LookupAnswer>;
}

/**
 * Lookups over node:dns's `Resolver`: the system's servers, or `servers` (DNS_SERVERS, e.g. a
 * test's local DNS server at `127.0.0.1:28035`). NXDOMAIN and NODATA read as `none`; a timeout or a
 * server failure as `failed`.
 */
export function dnsLookup(options: { servers: string[]; timeoutMs: number }): DnsLookup {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: 2 });
  if (options.servers.length > 0) resolver.setServers(options.servers);
  const answer = async (lookup: () => Promise<string[]>): Promise<LookupAnswer> => {
    try {
      return { values: await lookup() };
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { error: code === "ENOTFOUND" || code === "ENODATA" ? "none" : "failed" };
    }
  };
  return {
    cname: (name) => answer(() => resolver.resolveCname(name)),
    txt: (name) => answer(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""))),
  };
}
