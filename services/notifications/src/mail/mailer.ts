import { metrics } from "@crafter/kit";
import nodemailer from "nodemailer";
import type { DkimSigning, MailAddress } from "../domain/sender";
import type { RenderedEmail } from "../domain/templates";

/** One outgoing email. */
export interface OutgoingEmail extends RenderedEmail {
  to: string;
  /** Message-ID header, e.g. "<event-id.verify-email@crafter.local>"; stable per event. */
  messageId: string;
  /** Extra headers (List-Unsubscribe…). */
  headers?: Record<string, string>;
  /** The From header; absent: the transport's (MAIL_FROM). */
  from?: MailAddress;
  replyTo?: string;
  /** Signs the message with this domain's DKIM key (nodemailer's `dkim`). */
  dkim?: DkimSigning;
}

/** Sends email. The only way out of the service to a mail server. */
export interface Mailer {
  /**
   * Hands one message to the mail server.
   * @returns the Message-ID the server accepted.
   * @throws when the server is unreachable or rejects the message or its recipient.
   */
  send(email: OutgoingEmail): Promise<{ messageId: string }>;
  /** Checks the connection and the server's greeting. @throws when the server cannot be reached. */
  verify(): Promise<void>;
  close(): void;
}

export interface SmtpMailerOptions {
  /** smtp:// or smtps:// URL, with credentials when the server needs them. */
  url: string;
  /** The From header. */
  from: string;
  /** Connection, greeting and socket timeout, in ms. */
  timeoutMs: number;
  /** Keep up to this many SMTP connections open and reuse them (campaigns); unset: one per message. */
  pool?: number;
}

/** A Mailer over SMTP (nodemailer). */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const transport = nodemailer.createTransport(
    {
      url: options.url,
      ...(options.pool ? { pool: true, maxConnections: options.pool, maxMessages: 500 } : {}),
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    },
    { from: options.from },
  );
  return {
    async send(email) {
      const info = await transport
        .sendMail({
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: email.messageId,
          ...(email.headers ? { headers: email.headers } : {}),
          ...(email.from ? { from: email.from } : {}),
          ...(email.replyTo ? { replyTo: email.replyTo } : {}),
          ...(email.dkim ? { dkim: email.dkim } : {}),
        })
        .catch((error: unknown) => {
          metrics.emailsFailed.add(1, { provider: "smtp" });
          throw error;
        });
      if (info.rejected && info.rejected.length > 0) {
        metrics.emailsFailed.add(1, { provider: "smtp" });
        throw new Error(`recipient rejected by the mail server`);
      }
      metrics.emailsSent.add(1, { provider: "smtp" });
      return { messageId: info.messageId };
    },
    async verify() {
      await transport.verify();
    },
    close: () => transport.close(),
  };
}
