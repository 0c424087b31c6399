import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type Socket } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector, fetch } from "undici";

/**
 * The one way a service fetches a URL a user gave (a website to audit, a page to read): every
 * such fetch goes through `outboundFetch`, which only ever talks to public addresses.
 *
 * - The host is resolved here, and every connection is checked on the address it actually
 *   connected to (the socket's peer), so a name that resolves to a private address, a literal in
 *   any notation (`127.0.0.10`, `2130706442`, `0x7f00000a`, `[::ffff:7f00:a]`) and DNS rebinding
 *   between a check and the connect are all refused.
 * - Redirects are followed by hand, each hop checked the same way, at most `maxRedirects`.
 * - The whole exchange has one time limit, and the body is read to `maxBytes` at most.
 * - Hosts pinned by configuration (`pins`, like curl's --resolve) may be private: the tests'
 *   local sites and an intranet page an operator allows. Nothing else may.
 *
 * Configured endpoints (an AI provider, a research API) are not user URLs and do not go through it.
 */

/** Why an outbound fetch failed. */
export type OutboundFailure =
  /** Not an absolute http(s) URL, or it carries credentials. */
  | "invalid-url"
  /** The host is, or resolves to, or connected to, an address that is not public. */
  | "blocked-address"
  | "too-many-redirects"
  | "timeout"
  /** DNS failure, refused connection, TLS or protocol error. */
  | "network";

export class OutboundError extends Error {
  override name = "OutboundError";
  constructor(
    readonly reason: OutboundFailure,
    message: string,
    /** The URL of the hop that failed (after redirects). */
    readonly url?: string,
  ) {
    super(message);
  }
}

export interface OutboundOptions {
  /** Time for the whole exchange (every hop, headers and body), in ms. */
  timeoutMs: number;
  /** Bytes of the final body read at most; the rest is not downloaded (`truncated`). */
  maxBytes: number;
  /** Redirects followed at most (default 5). */
  maxRedirects?: number;
  /** Host → IP pins (`*.example.test` also matches subdomains); a pinned host may be private. */
  pins?: Readonly<Record<string, string>>;
  /** The caller's cancel signal; its reason is rethrown as is. */
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * GET (default), POST, PUT, PATCH or DELETE. Only a GET's redirect is followed; any other's is
   * answered as it is (a provider's API does not redirect a write; resending a body to another
   * host would leak it).
   */
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The request body (a form-encoded token request, a JSON document, a file's bytes). */
  body?: string | Uint8Array;
}

export interface OutboundResponse {
  /** The URL asked for. */
  url: string;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  /** The URLs redirected to, in order. */
  redirects: string[];
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** Bytes read (at most maxBytes). */
  bytes: number;
  /** The body was longer than maxBytes. */
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** 64:ff9b:1::/48, NAT64 for local use (RFC 8215): ipaddr.js calls it unicast. */
const LOCAL_NAT64 = ipaddr.parseCIDR("64:ff9b:1::/48");

/**
 * True only for a public unicast address, in any notation Node or ipaddr.js accepts (IPv4-mapped
 * IPv6 is judged as the IPv4 it maps). Refused: loopback, private, link-local, CGNAT, multicast,
 * broadcast, unspecified, unique-local, documentation, benchmarking, reserved, 6to4, Teredo,
 * NAT64 and IPv4-compatible addresses, and anything that is not an IP address.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(bare);
  } catch {
    return false;
  }
  if (parsed.range() !== "unicast") return false;
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    // ::/96 holds the deprecated IPv4-compatible addresses (::127.0.0.1), which ipaddr.js calls unicast.
    if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
    if (v6.match(LOCAL_NAT64)) return false;
  }
  return true;
}

/** The pinned IP of a host, if configuration pins it. */
export function pinnedAddress(pins: Readonly<Record<string, string>>, hostname: string): string | undefined {
  const host = hostname.toLowerCase();
  for (const [pattern, ip] of Object.entries(pins)) {
    const p = pattern.toLowerCase();
    if (p === host || (p.startsWith("*.") && (host.endsWith(p.slice(1)) || host === p.slice(2)))) return ip;
  }
  return undefined;
}

/** Whether a connection to `hostname` that reached `address` may be used. */
function allowedPeer(pins: Readonly<Record<string, string>>, hostname: string, address: string): boolean {
  const pin = pinnedAddress(pins, hostname);
  if (pin !== undefined) return sameAddress(pin, address);
  return isPublicAddress(address);
}

function sameAddress(a: string, b: string): boolean {
  try {
    return ipaddr.process(a).toNormalizedString() === ipaddr.process(b).toNormalizedString();
  } catch {
    return false;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A dns.lookup for net.connect that applies the pins and drops every address that is not public. */
function guardedLookup(pins: Readonly<Record<string, string>>) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    const answer = (addresses: LookupAddress[]) =>
      options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family);
    const pin = pinnedAddress(pins, hostname);
    if (pin !== undefined) return answer([{ address: pin, family: isIP(pin) || 4 }]);
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, "");
      const allowed = addresses.filter((entry) => isPublicAddress(entry.address));
      if (allowed.length === 0) {
        return callback(new OutboundError("blocked-address", `${hostname} does not resolve to a public address`), "");
      }
      answer(allowed);
    });
  };
}

/** A connector that resolves through the guard, then checks the peer the socket reached. */
function guardedConnector(pins: Readonly<Record<string, string>>, timeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ timeout: timeoutMs, lookup: guardedLookup(pins) } as buildConnector.BuildOptions);
  return (options, callback) =>
    connect(options, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error("no socket"), null);
      const peer = (socket as Socket).remoteAddress ?? "";
      if (!allowedPeer(pins, options.hostname, peer)) {
        socket.destroy();
        return callback(
          new OutboundError("blocked-address", `${options.hostname} connected to a non-public address`),
          null,
        );
      }
      callback(null, socket);
    });
}

/**
 * The undici dispatcher of outboundFetch: it resolves through the guard and refuses any socket
 * whose peer is not public (or the pinned address of a pinned host), whatever the URL said.
 */
export function outboundAgent(pins: Readonly<Record<string, string>>, timeoutMs: number): Agent {
  return new Agent({ connect: guardedConnector(pins, timeoutMs), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
}

/** Parses one hop's URL: absolute http(s), no credentials, and no literal non-public host. */
function checkUrl(raw: string, pins: Readonly<Record<string, string>>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError("invalid-url", "not an absolute URL", raw);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new OutboundError("invalid-url", "only http and https URLs are fetched", raw);
  }
  if (url.username || url.password)
    throw new OutboundError("invalid-url", "URLs with credentials are not fetched", raw);
  // The WHATWG parser already wrote 2130706442, 0x7f00000a and 0177.0.0.012 as 127.0.0.10.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host) && pinnedAddress(pins, host) === undefined && !isPublicAddress(host)) {
    throw new OutboundError("blocked-address", `${host} is not a public address`, raw);
  }
  return url;
}

function causeOf(error: unknown): OutboundError | undefined {
  for (let at: unknown = error, depth = 0; at && depth < 5; depth++) {
    if (at instanceof OutboundError) return at;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Fetches `url` (GET unless `method` says otherwise) from public addresses only (see the module
 * comment), following a GET's redirects by hand.
 * @returns the final response, whatever its status, with its body read to `maxBytes`.
 * @throws OutboundError (invalid-url, blocked-address, too-many-redirects, timeout, network); the
 *   caller's abort reason when `signal` aborts.
 */
export async function outboundFetch(url: string, options: OutboundOptions): Promise<OutboundResponse> {
  const pins = options.pins ?? {};
  const maxRedirects = options.maxRedirects ?? 5;
  const method = options.method ?? "GET";
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const dispatcher = outboundAgent(pins, options.timeoutMs);
  const redirects: string[] = [];
  let current = url;
  try {
    for (;;) {
      const target = checkUrl(current, pins);
      let response: Awaited<ReturnType<typeof fetch>>;
      try {
        response = await fetch(target, {
          dispatcher,
          signal,
          redirect: "manual",
          method,
          ...(options.headers ? { headers: options.headers } : {}),
          ...(options.body !== undefined ? { body: options.body } : {}),
        });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (timeout.aborted) throw new OutboundError("timeout", "the page took too long to answer", current);
        const cause = causeOf(error);
        if (cause) throw new OutboundError(cause.reason, cause.message, current);
        throw new OutboundError("network", (error as Error).message, current);
      }
      const location = response.headers.get("location");
      if (method === "GET" && REDIRECTS.has(response.status) && location) {
        await response.body?.cancel();
        if (redirects.length >= maxRedirects) {
          throw new OutboundError("too-many-redirects", `more than ${maxRedirects} redirects`, current);
        }
        current = new URL(location, target).toString();
        redirects.push(current);
        continue;
      }
      const { body, bytes, truncated } = await readCapped(response, options.maxBytes, () => {
        if (options.signal?.aborted) throw options.signal.reason;
        if (timeout.aborted) throw new OutboundError("timeout", "the page took too long to send", current);
      });
      return {
        url,
        finalUrl: target.toString(),
        redirects,
        status: response.status,
        headers: response.headers as unknown as Headers,
        body,
        bytes,
        truncated,
      };
    }
  } finally {
    // destroy, not close: a body left unread past maxBytes must not hold the connection open.
    void dispatcher.destroy().catch(() => undefined);
  }
}

async function readCapped(
  response: { body: unknown },
  maxBytes: number,
  onAbort: () => void,
): Promise<{ body: Uint8Array; bytes: number; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  try {
    if (response.body) {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        const room = maxBytes - bytes;
        if (chunk.byteLength >= room) {
          chunks.push(chunk.subarray(0, room));
          bytes += room;
          truncated = chunk.byteLength > room;
          break;
        }
        chunks.push(chunk);
        bytes += chunk.byteLength;
      }
    }
  } catch (error) {
    onAbort();
    throw new OutboundError("network", (error as Error).message);
  }
  const body = new Uint8Array(bytes);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return { body, bytes, truncated };
}
