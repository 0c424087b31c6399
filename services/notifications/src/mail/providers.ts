import { metrics, pace, type Redis } from "@crafter/kit";
import type { ResolvedSender } from "../domain/sender";
import type { Mailer } from "./mailer";

/** One marketing email, ready for a provider. */
export interface ProviderMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  /** Message-ID, stable per delivery: a resent message after a crash carries the same one. */
  messageId: string;
  /** Our delivery id, echoed back by SendGrid's event webhook (custom_args). */
  deliveryId: string;
  /** The project's From, Reply-To and DKIM key; absent: the provider's default From. */
  sender?: ResolvedSender;
}

/** Where marketing email leaves the service. */
export interface EmailProvider {
  readonly name: "smtp" | "sendgrid";
  /**
   * @returns the provider's message id.
   * @throws ProviderError (`permanent` when a retry cannot help: a rejected recipient, a refused request).
   */
  send(message: ProviderMessage): Promise<{ messageId: string }>;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/**
 * The provider refused the account's key (401/403: revoked, or its scope removed): nothing was
 * sent, and nothing will be until the business connects a working key. Not a delivery's failure.
 */
export class KeyRefusedError extends ProviderError {
  constructor(message: string) {
    super(message, false);
    this.name = "KeyRefusedError";
  }
}

/**
 * A project's sending is paused: its own provider's connection needs reconnecting. Deliveries wait
 * (they are not failed) and go on once it works again. `code` says why, for the campaign page.
 */
export class SendingPausedError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "SendingPausedError";
  }
}

/** Why a paused campaign waits (`waiting.code`): the business's SendGrid key needs reconnecting. */
export const SENDGRID_PAUSED = "SENDGRID_NEEDS_RECONNECTING";

/** Whether an error pauses a project's sending rather than failing a delivery. */
export const pausesSending = (error: unknown): error is KeyRefusedError | SendingPausedError =>
  error instanceof KeyRefusedError || error instanceof SendingPausedError;

/** SMTP through the service's nodemailer transport (Mailpit in development). */
export function smtpProvider(mailer: Mailer): EmailProvider {
  return {
    name: "smtp",
    async send(message) {
      try {
        return await mailer.send({
          to: message.to,
          subject: message.subject,
          html: message.html,
          text: message.text,
          headers: message.headers,
          messageId: message.messageId,
          ...(message.sender
            ? {
                from: message.sender.from,
                ...(message.sender.replyTo ? { replyTo: message.sender.replyTo } : {}),
                ...(message.sender.dkim ? { dkim: message.sender.dkim } : {}),
              }
            : {}),
        });
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        const text = error instanceof Error ? error.message : String(error);
        // 5xx is the server's final answer about this message; anything else (4xx, sockets) may pass later.
        throw new ProviderError(text, typeof code === "number" && code >= 500 && code < 600);
      }
    },
  };
}

export interface SendgridOptions {
  /** https://api.sendgrid.com in production; a local server speaking its API in tests. */
  baseUrl: string;
  apiKey: string;
  /** The From header: "Name <address>" or an address. */
  from: string;
  timeoutMs: number;
}

/** "Name <a@b>" → { email, name }. */
export function parseAddress(from: string): { email: string; name?: string } {
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  if (!match) return { email: from.trim() };
  const name = match[1]!.replace(/^"|"$/g, "").trim();
  return name ? { email: match[2]!.trim(), name } : { email: match[2]!.trim() };
}

/**
 * SendGrid's v3 Mail Send API (`POST /v3/mail/send`, 202 Accepted, `X-Message-Id` header). Our
 * delivery id travels in `custom_args`, so the event webhook names the delivery.
 */
export function sendgridProvider(options: SendgridOptions): EmailProvider {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/v3/mail/send`;
  const from = parseAddress(options.from);
  return {
    name: "sendgrid",
    async send(message) {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: "POST",
          headers: { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify(sendgridMailBody(message, from)),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        metrics.emailsFailed.add(1, { provider: "sendgrid" });
        throw new ProviderError(`SendGrid unreachable: ${error instanceof Error ? error.message : error}`, false);
      }
      if (response.status === 202 || response.status === 200) {
        await response.body?.cancel();
        metrics.emailsSent.add(1, { provider: "sendgrid" });
        return { messageId: response.headers.get("x-message-id") ?? message.messageId };
      }
      metrics.emailsFailed.add(1, { provider: "sendgrid" });
      const detail = (await response.text().catch(() => "")).slice(0, 500);
      const retryable = response.status === 429 || response.status >= 500;
      throw new ProviderError(`SendGrid answered ${response.status}: ${detail}`, !retryable);
    },
  };
}

/**
 * The v3 Mail Send body of a message: one personalization with our delivery id in `custom_args`
 * (the event webhook echoes it), the project's From or `fallbackFrom`, both parts, our headers.
 */
export function sendgridMailBody(message: ProviderMessage, fallbackFrom: { email: string; name?: string }) {
  // SendGrid sets Message-ID itself and refuses some reserved headers; ours go as custom headers.
  return {
    personalizations: [{ to: [{ email: message.to }], custom_args: { delivery_id: message.deliveryId } }],
    // SendGrid signs with the domain authenticated in its own account, not with our key.
    from: message.sender
      ? {
          email: message.sender.from.address,
          ...(message.sender.from.name ? { name: message.sender.from.name } : {}),
        }
      : fallbackFrom,
    ...(message.sender?.replyTo ? { reply_to: { email: message.sender.replyTo } } : {}),
    subject: message.subject,
    content: [
      { type: "text/plain", value: message.text },
      { type: "text/html", value: message.html },
    ],
    headers: message.headers,
    tracking_settings: { click_tracking: { enable: false }, open_tracking: { enable: false } },
  };
}

/** Paces sends: `take(account)` resolves when the account's next message may go. */
export interface SendThrottle {
  /** @throws when the pace cannot be read (Redis away): the delivery is tried again later. */
  take(account: string): Promise<void>;
}

/**
 * The pace of one provider shared by every replica (Redis, under the service's namespace): at most
 * `perSecond` messages a second through the provider and `perAccountSecond` per account, however
 * many processes send. Evenly spaced, with bursts of a tenth of a second's worth.
 */
export class RedisThrottle implements SendThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly provider: string,
    private readonly perSecond: number,
    private readonly perAccountSecond: number,
  ) {}

  async take(account: string): Promise<void> {
    const burst = (rate: number) => Math.max(1, Math.floor(rate / 10));
    await pace(this.redis, [
      { key: `pace:email:${this.provider}`, perSecond: this.perSecond, burst: burst(this.perSecond) },
      {
        key: `pace:email:${this.provider}:account:${account}`,
        perSecond: this.perAccountSecond,
        burst: burst(this.perAccountSecond),
      },
    ]);
  }
}

/**
 * A token bucket in this process only: at most `perSecond` messages a second, with bursts of up
 * to `perSecond`. `take()` resolves when the next message may go. For tests and tools that run one
 * process; the service paces with RedisThrottle.
 */
export class Throttle implements SendThrottle {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly perSecond: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.tokens = perSecond;
    this.last = clock();
  }

  take(_account?: string): Promise<void> {
    const next = this.queue.then(() => this.wait());
    this.queue = next;
    return next;
  }

  private async wait(): Promise<void> {
    for (;;) {
      const now = this.clock();
      this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(((1 - this.tokens) / this.perSecond) * 1000)));
    }
  }
}

/** The delays before each retry: base, 4×base, 16×base…, each with up to 25 % jitter. */
export function backoffDelays(attempts: number, baseMs: number, random: () => number = Math.random): number[] {
  return Array.from({ length: Math.max(0, attempts - 1) }, (_, i) => Math.round(baseMs * 4 ** i * (1 + random() / 4)));
}
