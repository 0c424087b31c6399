import { timestampMs } from "@bufbuild/protobuf/wkt";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import type { JSONWebKeySet } from "jose";
import { createServiceClient } from "./client";
import type { ServiceCredentials } from "./identity";

// The kit's two calls to the auth service: its JWKS (to verify tokens) and this service's own
// service token. They live apart from jwks.ts so that the verifier does not import the client.

/** Fetches the JWKS from the auth service's GetJwks RPC at `authUrl`. */
export function authServiceJwks(authUrl: string, timeoutMs: number): () => Promise<JSONWebKeySet> {
  const client = createServiceClient(AuthService, authUrl, { timeoutMs });
  return async () => JSON.parse((await client.getJwks({})).jwksJson) as JSONWebKeySet;
}

export interface ServiceCredentialsOptions {
  /** This service's name, as auth knows it (`SERVICE_SECRETS` of auth). */
  name: string;
  /** This service's secret (`SERVICE_SECRET`); undefined makes token() fail with a clear message. */
  secret: string | undefined;
  /** Address of the auth service (AUTH_URL). */
  authUrl: string;
  /** Deadline of an IssueServiceToken call, in ms. */
  timeoutMs: number;
  /** A token is renewed once it has less than this left, in ms. Default 60 s (tokens live 5 min). */
  renewBeforeMs?: number;
  /** The clock, in ms since the epoch (tests move it). Default Date.now. */
  now?: () => number;
}

/**
 * This service's credentials: exchanges its name and secret for a short-lived service token at
 * auth's IssueServiceToken (client credentials), keeps it, and fetches a new one when less than
 * `renewBeforeMs` is left. Concurrent callers share one fetch; a failed fetch is not remembered.
 * Clients built with `createServiceClient(…, { as: "service", credentials })` attach the token.
 */
export function serviceCredentials(options: ServiceCredentialsOptions): ServiceCredentials {
  const renewBefore = options.renewBeforeMs ?? 60_000;
  const now = options.now ?? Date.now;
  const client = createServiceClient(AuthService, options.authUrl, { timeoutMs: options.timeoutMs });
  let current: { token: string; expiresAtMs: number } | undefined;
  let inflight: Promise<string> | undefined;

  const fetchToken = async (): Promise<string> => {
    if (!options.secret) {
      throw new Error(`SERVICE_SECRET is not set: ${options.name} cannot get a service token`);
    }
    const response = await client.issueServiceToken({ service: options.name, secret: options.secret });
    current = {
      token: response.token,
      expiresAtMs: response.expiresAt ? timestampMs(response.expiresAt) : now(),
    };
    return response.token;
  };

  return {
    name: options.name,
    async token() {
      if (current && current.expiresAtMs - now() > renewBefore) return current.token;
      inflight ??= fetchToken().finally(() => {
        inflight = undefined;
      });
      return inflight;
    },
  };
}
