import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";
import { AppError, appError } from "@crafter/kit";
import { Agent, fetch } from "undici";

/**
 * Reads one web page over HTTP(S) for the website audit, with the limits a server needs when it
 * fetches addresses typed by users: a total time limit, a body size limit, http(s) only, and no
 * private or loopback addresses (SSRF) unless the host is pinned by `resolve`.
 */

export interface FetchPageOptions {
  /** Total time for headers and body, in ms. */
  timeoutMs: number;
  /** Bytes of body read at most; the rest is not downloaded (`truncated`). */
  maxBytes: number;
  /**
   * Host → IP pins, like curl's --resolve (`*.example.test` matches subdomains). A pinned host may
   * be private (a local test site, an intranet page the operator allows); others may not.
   */
  resolve?: Record<string, string>;
  /** The caller's cancel signal (the craft's action); its reason is rethrown as is. */
  signal?: AbortSignal;
}

export interface FetchedPage {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  html: string;
  bytes: number;
  truncated: boolean;
}

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv6");
}

/** True for loopback, private, link-local, CGNAT, multicast and reserved addresses (IPv4-mapped too). */
export function isPrivateAddress(address: string): boolean {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i);
  if (mapped) return PRIVATE.check(mapped[1]!, "ipv4");
  const family = isIP(address);
  return family === 4 ? PRIVATE.check(address, "ipv4") : family === 6 ? PRIVATE.check(address, "ipv6") : true;
}

function pinned(resolve: Record<string, string>, hostname: string): string | undefined {
  const host = hostname.toLowerCase();
  for (const [pattern, ip] of Object.entries(resolve)) {
    const p = pattern.toLowerCase();
    if (p === host || (p.startsWith("*.") && (host.endsWith(p.slice(1)) || host === p.slice(2)))) return ip;
  }
  return undefined;
}

class BlockedAddressError extends Error {
  override name = "BlockedAddressError";
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A dns.lookup for net.connect that applies the pins and refuses private addresses. */
function guardedLookup(resolve: Record<string, string>) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    const answer = (addresses: LookupAddress[]) =>
      options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family);
    const pin = pinned(resolve, hostname);
    if (pin) return answer([{ address: pin, family: isIP(pin) || 4 }]);
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, "");
      const allowed = addresses.filter((entry) => !isPrivateAddress(entry.address));
      if (allowed.length === 0)
        return callback(new BlockedAddressError(`${hostname} resolves to a private address`), "");
      answer(allowed);
    });
  };
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/** The page's charset from its Content-Type, if the runtime can decode it. */
function decoderFor(contentType: string): TextDecoder {
  const charset = contentType.match(/charset\s*=\s*"?([\w-]+)/i)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

/**
 * Fetches `url` (already validated, http or https) following redirects.
 * @throws PageNotFound (404/410), UnableToReadWebPage (network error, timeout, refused address,
 *   other HTTP errors, not HTML); the caller's abort reason when `signal` aborts.
 */
export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchedPage> {
  const protocol = new URL(url).protocol;
  if (protocol !== "http:" && protocol !== "https:") throw appError("InvalidUrl");
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const dispatcher = new Agent({
    connect: { lookup: guardedLookup(options.resolve ?? {}) as never, timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  try {
    const response = await fetch(url, {
      dispatcher,
      signal,
      redirect: "follow",
      headers: {
        "user-agent": "CrafterAudit/1.0 (+website audit)",
        accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
      },
    });
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      throw appError("PageNotFound");
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw appError("UnableToReadWebPage");
    }
    const contentType = response.headers.get("content-type") ?? "";
    if (!HTML_TYPES.test(contentType)) {
      await response.body?.cancel();
      throw appError("UnableToReadWebPage", "This address is not a web page (it is not HTML).");
    }
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    let truncated = false;
    if (response.body) {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        const room = options.maxBytes - bytes;
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
    const body = new Uint8Array(bytes);
    let at = 0;
    for (const chunk of chunks) {
      body.set(chunk, at);
      at += chunk.byteLength;
    }
    return {
      url,
      finalUrl: response.url || url,
      status: response.status,
      contentType,
      html: decoderFor(contentType).decode(body),
      bytes,
      truncated,
    };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof AppError) throw error; // PageNotFound, UnableToReadWebPage above
    throw appError("UnableToReadWebPage");
  } finally {
    // destroy, not close: a body left unread past maxBytes must not hold the connection open.
    void dispatcher.destroy().catch(() => undefined);
  }
}
