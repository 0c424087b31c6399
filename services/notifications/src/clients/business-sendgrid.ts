import { Code, ConnectError } from "@connectrpc/connect";
import { createServiceClient, metrics, OutboundError, type ProviderHttp, type ServiceCredentials } from "@crafter/kit";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";
import type { ProviderRouter } from "../deps";
import {
  type EmailProvider,
  KeyRefusedError,
  ProviderError,
  parseAddress,
  SENDGRID_PAUSED,
  SendingPausedError,
  type SendThrottle,
  sendgridMailBody,
} from "../mail/providers";

/** A project's SendGrid connection as notifications sees it. */
export type SendgridConnection = { state: "connected"; key: string } | { state: "needs_reconnecting" } | null;

/** The account service's side of a business's own SendGrid key (DESIGN section 3: account owns connections). */
export interface SendgridConnections {
  /** The project's key; null when it has no SendGrid connection. @throws when account cannot answer. */
  keyOf(projectId: string): Promise<SendgridConnection>;
  /** SendGrid refused the key (401/403): the connection turns needs_reconnecting. */
  refused(projectId: string, error: string): Promise<void>;
  /** The public key verifying the project's signed event webhook; "" when none. */
  webhookKey(projectId: string): Promise<string>;
}

/** The account service's IntegrationsService with notifications' service token. */
export function accountSendgridConnections(
  baseUrl: string,
  timeoutMs: number,
  credentials: ServiceCredentials,
): SendgridConnections {
  const client = createServiceClient(IntegrationsService, baseUrl, { timeoutMs, as: "service", credentials });
  const provider = "sendgrid";
  return {
    async keyOf(projectId) {
      try {
        return { state: "connected", key: (await client.getAccessToken({ projectId, provider })).accessToken };
      } catch (error) {
        const code = ConnectError.from(error).code;
        if (code === Code.NotFound) return null;
        if (code === Code.FailedPrecondition || code === Code.AlreadyExists || code === Code.Aborted)
          return { state: "needs_reconnecting" };
        throw error;
      }
    },
    async refused(projectId, error) {
      await client.reportRefused({ projectId, provider, error });
    },
    async webhookKey(projectId) {
      try {
        return (await client.getWebhookKey({ projectId, provider })).publicKey;
      } catch (error) {
        if (ConnectError.from(error).code === Code.NotFound) return "";
        throw error;
      }
    },
  };
}

/**
 * SendGrid's v3 Mail Send with a business's own key, through the kit's provider calls (outbound
 * rules, 429 and 5xx retried). A 401 or 403 (the key revoked at SendGrid, or its mail.send scope
 * removed) is reported to account and thrown as KeyRefusedError: the delivery waits, not fails.
 */
export function businessSendgridProvider(options: {
  http: ProviderHttp;
  baseUrl: string;
  key: string;
  projectId: string;
  from: string;
  onRefused: (error: string) => Promise<void>;
}): EmailProvider {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/v3/mail/send`;
  const from = parseAddress(options.from);
  return {
    name: "sendgrid",
    async send(message) {
      let answer: Awaited<ReturnType<ProviderHttp["call"]>>;
      try {
        answer = await options.http.call(endpoint, {
          method: "POST",
          bearer: options.key,
          json: sendgridMailBody(message, from),
        });
      } catch (error) {
        metrics.emailsFailed.add(1, { provider: "sendgrid_business" });
        const reason = error instanceof OutboundError ? error.reason : error instanceof Error ? error.message : error;
        throw new ProviderError(`SendGrid unreachable: ${reason}`, false);
      }
      if (answer.status === 202 || answer.status === 200) {
        metrics.emailsSent.add(1, { provider: "sendgrid_business" });
        return { messageId: answer.headers.get("x-message-id") ?? message.messageId };
      }
      metrics.emailsFailed.add(1, { provider: "sendgrid_business" });
      const first = (answer.json as { errors?: { message?: unknown }[] } | null)?.errors?.[0]?.message;
      const detail = `${answer.status}: ${typeof first === "string" ? first : "refused"}`.slice(0, 300);
      if (answer.status === 401 || answer.status === 403) {
        await options.onRefused(`SendGrid refused the key (${detail}).`);
        throw new KeyRefusedError(`SendGrid refused the business's key: ${detail}`);
      }
      const retryable = answer.status === 429 || answer.status >= 500;
      throw new ProviderError(`SendGrid answered ${detail}`, !retryable);
    },
  };
}

/**
 * Picks a project's provider: its own SendGrid key when the project has a SendGrid connection
 * (paced at `throttleOf(projectId)`, the business's own rate), the platform's provider otherwise
 * (`platform`, by the user's flags). A connection that needs reconnecting pauses the project's
 * sending (SendingPausedError) rather than falling back to the platform's provider. A project's
 * connection is read at most every `cacheMs`; a refused key forgets it at once.
 */
export function businessProviderRouter(options: {
  platform: ProviderRouter;
  connections: SendgridConnections;
  http: ProviderHttp;
  baseUrl: string;
  from: string;
  throttleOf: (projectId: string) => SendThrottle;
  cacheMs: number;
  now?: () => number;
}): ProviderRouter {
  const now = options.now ?? Date.now;
  const cache = new Map<string, { connection: SendgridConnection; at: number }>();
  const throttles = new Map<string, SendThrottle>();
  const connectionOf = async (projectId: string): Promise<SendgridConnection> => {
    const hit = cache.get(projectId);
    if (hit && now() - hit.at < options.cacheMs) return hit.connection;
    let connection: SendgridConnection;
    try {
      connection = await options.connections.keyOf(projectId);
    } catch (error) {
      // A stale answer beats holding every email while the account service is away.
      if (hit) return hit.connection;
      throw error;
    }
    if (cache.size > 10_000) cache.clear();
    cache.set(projectId, { connection, at: now() });
    return connection;
  };
  return {
    async providerFor(userId, projectId) {
      if (!projectId) return options.platform.providerFor(userId);
      const connection = await connectionOf(projectId);
      if (connection === null) return options.platform.providerFor(userId, projectId);
      if (connection.state !== "connected")
        throw new SendingPausedError(
          "Sending is paused: SendGrid refused this business's key. Connect a working key in Settings › Integrations › SendGrid.",
          SENDGRID_PAUSED,
        );
      let throttle = throttles.get(projectId);
      if (!throttle) {
        if (throttles.size > 10_000) throttles.clear();
        throttle = options.throttleOf(projectId);
        throttles.set(projectId, throttle);
      }
      const provider = businessSendgridProvider({
        http: options.http,
        baseUrl: options.baseUrl,
        key: connection.key,
        projectId,
        from: options.from,
        onRefused: async (error) => {
          cache.set(projectId, { connection: { state: "needs_reconnecting" }, at: now() });
          await options.connections.refused(projectId, error);
        },
      });
      return { provider, throttle };
    },
  };
}
