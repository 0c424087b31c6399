/**
 * Google sign-in as an OpenID Connect relying party (openid-client): discovery from the issuer,
 * the authorization URL (code flow, PKCE S256, `state`, `nonce`), and the code exchange whose ID
 * token is verified against the issuer's JWKS (signature, `iss`, `aud`, `exp`, `iat`, `nonce`).
 * Every request to the provider goes through the kit's providerHttp (outbound rules, host pins,
 * 429/5xx retries).
 */
import type { ProviderHttp } from "@crafter/kit";
import * as oidc from "openid-client";

export interface GoogleOidcOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `<PUBLIC_ORIGIN>/auth/google/callback`. */
  redirectUri: string;
  http: ProviderHttp;
}

/** What a sign-in attempt must remember between its start and the callback. */
export interface GoogleAttempt {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Why the provider's answer was refused. */
export type GoogleOidcFailure =
  /** The callback or the ID token failed a check (state, nonce, signature, issuer, audience, expiry, code). */
  | "invalid"
  /** The person declined at Google (`error=access_denied`). */
  | "denied"
  /** Google (discovery, token endpoint, JWKS) could not be reached or answered 5xx. */
  | "unreachable";

export class GoogleOidcError extends Error {
  override name = "GoogleOidcError";
  constructor(
    readonly failure: GoogleOidcFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface GoogleOidc {
  /** A fresh attempt and the URL to send the browser to. @throws GoogleOidcError unreachable (discovery). */
  start(): Promise<{ url: string; attempt: GoogleAttempt }>;
  /**
   * Checks the callback (`state`, RFC 9207 `iss` when the issuer sends it), exchanges the code with the
   * PKCE verifier and verifies the ID token.
   * @param callbackQuery the callback's query string (`code=…&state=…`, or `error=…`).
   * @returns the verified ID token's claims.
   * @throws GoogleOidcError
   */
  finish(callbackQuery: string, attempt: GoogleAttempt): Promise<Record<string, unknown>>;
}

/** openid-client's fetch, answered through providerHttp (the outbound module); bodies are JSON documents. */
function fetchThrough(http: ProviderHttp): oidc.CustomFetch {
  return async (url, options) => {
    const method = options.method === "POST" ? "POST" : "GET";
    const body = options.body;
    const answer = await http.call(url, {
      method,
      headers: options.headers,
      ...(body === undefined || body === null ? {} : { form: String(body) }),
    });
    const headers = new Headers(answer.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    return new Response(answer.json === null ? "" : JSON.stringify(answer.json), { status: answer.status, headers });
  };
}

/** The provider could not be reached or failed (5xx), somewhere in the error's causes. */
function unreachable(error: unknown): boolean {
  for (let at = error, depth = 0; at && depth < 5; depth++) {
    if ((at as Error).name === "OutboundError") return true;
    const status = (at as { status?: unknown }).status;
    if (typeof status === "number" && status >= 500) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

/** A client whose discovery runs on first use and again after a failure. */
export function googleOidc(options: GoogleOidcOptions): GoogleOidc {
  let configuration: Promise<oidc.Configuration> | undefined;
  const customFetch = fetchThrough(options.http);
  const insecure = new URL(options.issuer).protocol === "http:";
  const configured = () => {
    configuration ??= oidc
      .discovery(
        new URL(options.issuer),
        options.clientId,
        { client_secret: options.clientSecret, redirect_uris: [options.redirectUri], response_types: ["code"] },
        oidc.ClientSecretBasic(options.clientSecret),
        {
          [oidc.customFetch]: customFetch,
          // Only a test's local issuer is plain HTTP; Google's is HTTPS.
          execute: [oidc.enableNonRepudiationChecks, ...(insecure ? [oidc.allowInsecureRequests] : [])],
        },
      )
      .then((config) => {
        // The flow's later calls (token endpoint, JWKS) go the same way as discovery.
        config[oidc.customFetch] = customFetch;
        return config;
      })
      .catch((error: unknown) => {
        configuration = undefined;
        throw new GoogleOidcError("unreachable", `discovery failed: ${(error as Error).message}`);
      });
    return configuration;
  };
  return {
    async start() {
      const config = await configured();
      const attempt: GoogleAttempt = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: "openid email profile",
        response_type: "code",
        state: attempt.state,
        nonce: attempt.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(attempt.codeVerifier),
        code_challenge_method: "S256",
      });
      return { url: url.toString(), attempt };
    },
    async finish(callbackQuery, attempt) {
      const params = new URLSearchParams(callbackQuery);
      if (params.get("error") === "access_denied") throw new GoogleOidcError("denied", "declined at the provider");
      const config = await configured();
      const current = new URL(options.redirectUri);
      current.search = params.toString();
      try {
        const tokens = await oidc.authorizationCodeGrant(config, current, {
          expectedState: attempt.state,
          expectedNonce: attempt.nonce,
          pkceCodeVerifier: attempt.codeVerifier,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new GoogleOidcError("invalid", "no ID token");
        return { ...claims };
      } catch (error) {
        if (error instanceof GoogleOidcError) throw error;
        if (unreachable(error)) throw new GoogleOidcError("unreachable", (error as Error).message);
        const detail =
          error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError
            ? `${error.error}: ${error.error_description ?? ""}`
            : (error as Error).message;
        const cause = (error as { cause?: { message?: unknown } }).cause?.message;
        throw new GoogleOidcError("invalid", typeof cause === "string" ? `${detail} (${cause})` : detail);
      }
    },
  };
}
