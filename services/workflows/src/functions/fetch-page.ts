import { appError, OutboundError, outboundFetch } from "@crafter/kit";

/**
 * Reads one web page for the website audit through the kit's outbound fetch (public addresses
 * only, every redirect checked, time and size capped), and maps its failures to the spec's codes.
 */

export interface FetchPageOptions {
  /** Total time for every hop, headers and body, in ms. */
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
 * @throws InvalidUrl (not http(s), or a non-public address: given, resolved or redirected to),
 *   PageNotFound (404/410), UnableToReadWebPage (network error, timeout, too many redirects, other
 *   HTTP errors, not HTML); the caller's abort reason when `signal` aborts.
 */
export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchedPage> {
  let response: Awaited<ReturnType<typeof outboundFetch>>;
  try {
    response = await outboundFetch(url, {
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      pins: options.resolve ?? {},
      signal: options.signal,
      headers: {
        "user-agent": "CrafterAudit/1.0 (+website audit)",
        accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
      },
    });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error; // the caller's abort reason
    // A refused address reads as a bad URL whether or not anything listens there (no port probe).
    if (error.reason === "invalid-url" || error.reason === "blocked-address") throw appError("InvalidUrl");
    throw appError("UnableToReadWebPage");
  }
  if (response.status === 404 || response.status === 410) throw appError("PageNotFound");
  if (response.status < 200 || response.status >= 300) throw appError("UnableToReadWebPage");
  const contentType = response.headers.get("content-type") ?? "";
  if (!HTML_TYPES.test(contentType)) {
    throw appError("UnableToReadWebPage", "This address is not a web page (it is not HTML).");
  }
  return {
    url,
    finalUrl: response.finalUrl,
    status: response.status,
    contentType,
    html: decoderFor(contentType).decode(response.body),
    bytes: response.bytes,
    truncated: response.truncated,
  };
}
