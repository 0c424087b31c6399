// Mailpit's HTTP API (https://mailpit.axllent.org/docs/api-v1/) for the end-to-end tests: what the
// stack sent, searched, waited for and read whole (HTML, text, headers, raw source). One message
// by recipient and subject, and the links in it: waitForEmail and linkFrom of @crafter/kit/testing.
import { stackEnv } from "@crafter/kit/testing";

const api = () => stackEnv().MAILPIT_API_URL ?? process.env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";

/** One message of a search: who it went to and its subject. */
export interface MailSummary {
  ID: string;
  From: { Name: string; Address: string };
  To: { Name: string; Address: string }[];
  Subject: string;
}

/** A whole message. */
export interface MailMessage extends MailSummary {
  ReplyTo: { Name: string; Address: string }[];
  Text: string;
  HTML: string;
}

/** The messages matching a Mailpit search (`to:"a@b"`, `subject:"…"`, a bare domain…), newest first. */
export async function searchMail(query: string): Promise<MailSummary[]> {
  const response = await fetch(`${api()}/api/v1/search?query=${encodeURIComponent(query)}`);
  if (!response.ok) throw new Error(`Mailpit search ${query}: ${response.status}`);
  return ((await response.json()) as { messages: MailSummary[] }).messages;
}

/**
 * Polls the search every 250 ms until it finds at least `count` messages.
 * @throws after `timeoutMs` (default 30 s), naming what it found.
 */
export async function waitForMail(query: string, count = 1, timeoutMs = 30_000): Promise<MailSummary[]> {
  const deadline = Date.now() + timeoutMs;
  let found: MailSummary[] = [];
  while (Date.now() < deadline) {
    found = await searchMail(query);
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `Mailpit: ${found.length} of ${count} messages for ${query} within ${timeoutMs} ms: ${JSON.stringify(found.map((m) => m.Subject))}`,
  );
}

/** The whole message with this Mailpit id. */
export async function mailMessage(id: string): Promise<MailMessage> {
  return (await (await fetch(`${api()}/api/v1/message/${id}`)).json()) as MailMessage;
}

/** The message's headers, each name with its values. */
export async function mailHeaders(id: string): Promise<Record<string, string[]>> {
  return (await (await fetch(`${api()}/api/v1/message/${id}/headers`)).json()) as Record<string, string[]>;
}

/** The message as it was received (RFC 5322 source), e.g. to verify its DKIM-Signature. */
export async function mailSource(id: string): Promise<string> {
  return await (await fetch(`${api()}/api/v1/message/${id}/raw`)).text();
}
