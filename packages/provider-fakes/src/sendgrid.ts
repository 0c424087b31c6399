import { createSign, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local SendGrid for tests, speaking the v3 Web API on its paths (base URL: the test stack's
 * SENDGRID_API_URL / SENDGRID_BASE_URL, port 28025 + STACK_PORT_OFFSET):
 *
 * - `POST /v3/mail/send` (scope `mail.send`): checks personalizations, `from`, a subject and
 *   content; 202 with `X-Message-Id`; 400 with SendGrid's `{"errors":[{message, field, help}]}`;
 * - `GET /v3/scopes`: the key's scopes (`{"scopes":[…]}`), whatever they are;
 * - `GET /v3/verified_senders?limit=&lastSeenID=&id=` (`{"results":[…]}`, ascending ids);
 * - the multiple Event Webhooks API (scopes `user.webhooks.event.settings.read` / `.update`):
 *   `POST /v3/user/webhooks/event/settings`, `GET …/settings/all`, `GET|PATCH|DELETE …/settings/{id}`,
 *   the legacy `GET|PATCH …/settings` (the oldest webhook), and `GET|PATCH …/settings/signed/{id}`,
 *   which makes a P-256 key pair on enabling and answers `{id, public_key}` (base64 DER SPKI);
 * - every call needs `Authorization: Bearer <key>`: an unknown or revoked key answers 401, a key
 *   without the endpoint's scope 403, both in SendGrid's error shape.
 *
 * It sends the account's events: `sendEvents(messageId, kinds)` posts a JSON array (delivered,
 * bounce, spamreport, open, click; `custom_args` at the top level of each event, as SendGrid does)
 * to every enabled webhook of the key's account that takes the kind, signed (ECDSA P-256, SHA-256
 * over `timestamp + payload`, base64 DER in `X-Twilio-Email-Event-Webhook-Signature`, the Unix
 * time in `X-Twilio-Email-Event-Webhook-Timestamp`) when the webhook's signing is enabled.
 */
export interface SendgridKeyOptions {
  /** The key's scopes; default: mail.send, the webhook settings and sender verification ones. */
  scopes?: string[];
  /** The SendGrid account the key belongs to; default "default". */
  account?: string;
}

/** A sender identity of an account (the Sender Verification API's shape). */
export interface SendgridSender {
  id: number;
  nickname: string;
  from_email: string;
  from_name: string;
  reply_to: string;
  reply_to_name: string;
  address: string;
  city: string;
  country: string;
  verified: boolean;
  locked: boolean;
}

/** An Event Webhook of an account, as the API answers it (plus its signing key pair). */
interface Webhook {
  id: string;
  enabled: boolean;
  url: string;
  friendly_name: string;
  events: Record<string, boolean>;
  created_date: string;
  updated_date: string;
  keys: { publicKey: KeyObject; privateKey: KeyObject } | null;
}

interface Account {
  senders: SendgridSender[];
  webhooks: Webhook[];
}

/** A message the server accepted. */
export interface SendgridMail {
  messageId: string;
  key: string;
  account: string;
  body: {
    personalizations: { to: { email: string; name?: string }[]; custom_args?: Record<string, string> }[];
    from: { email: string; name?: string };
    subject: string;
    content: { type: string; value: string }[];
    headers?: Record<string, string>;
  };
}

/** One event webhook post and its receiver's answer. */
export interface SendgridEventPost {
  url: string;
  status: number;
  signed: boolean;
  events: Record<string, unknown>[];
}

export const SENDGRID_FULL_SCOPES = [
  "mail.send",
  "user.webhooks.event.settings.read",
  "user.webhooks.event.settings.update",
  "sender_verification_eligible",
];

const EVENT_FLAGS = [
  "bounce",
  "click",
  "deferred",
  "delivered",
  "dropped",
  "group_resubscribe",
  "group_unsubscribe",
  "open",
  "processed",
  "spam_report",
  "unsubscribe",
] as const;

/** Which webhook flag carries an event kind (the flag is `spam_report`, the event `spamreport`). */
const FLAG_OF: Record<string, string> = { spamreport: "spam_report" };

const sendgridError = (message: string, field: string | null = null, help: string | null = null) => ({
  errors: [{ message, field, help }],
});

export class LocalSendgridServer {
  private server: Server | undefined;
  private readonly keys = new Map<string, { scopes: string[]; account: string; revoked: boolean }>();
  private readonly accounts = new Map<string, Account>();
  private nextWebhook = 1;
  /** What the server saw, for tests to assert. */
  readonly seen = {
    mail: [] as SendgridMail[],
    /** Calls answered 401 or 403, by key. */
    refused: [] as { key: string; path: string; status: number }[],
    scopeChecks: 0,
    webhookChanges: 0,
    eventPosts: [] as SendgridEventPost[],
  };

  constructor(options: { keys?: Record<string, SendgridKeyOptions> } = {}) {
    for (const [key, value] of Object.entries(options.keys ?? {})) this.addKey(key, value);
  }

  /** Listens on `host`:`port` (0: any). @returns the port. */
  async start(port = 0, host = "127.0.0.1"): Promise<number> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        if (!res.headersSent) json(res, 500, sendgridError(error.message));
      });
    });
    this.server.listen(port, host);
    await once(this.server, "listening");
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Makes (or replaces) an API key of `account`. */
  addKey(key: string, options: SendgridKeyOptions = {}): void {
    const account = options.account ?? "default";
    this.keys.set(key, { scopes: options.scopes ?? [...SENDGRID_FULL_SCOPES], account, revoked: false });
    this.account(account);
  }

  /** Revokes a key at SendGrid: every call with it answers 401 from now on. */
  revoke(key: string): void {
    const entry = this.keys.get(key);
    if (entry) entry.revoked = true;
  }

  /** Adds a sender identity to an account. @returns it. */
  addSender(account: string, sender: Partial<SendgridSender> & { from_email: string }): SendgridSender {
    const senders = this.account(account).senders;
    const full: SendgridSender = {
      id: (senders.at(-1)?.id ?? 1000) + 1,
      nickname: sender.from_email,
      from_name: "",
      reply_to: sender.from_email,
      reply_to_name: "",
      address: "1 Mill Lane",
      city: "Bristol",
      country: "GBR",
      verified: true,
      locked: false,
      ...sender,
    };
    senders.push(full);
    return full;
  }

  /** An account's event webhooks (for assertions): id, url, enabled, whether signed, its events. */
  webhooksOf(account: string) {
    return this.account(account).webhooks.map((w) => ({
      id: w.id,
      url: w.url,
      enabled: w.enabled,
      signed: w.keys !== null,
      events: { ...w.events },
    }));
  }

  /**
   * Posts events about an accepted message to its account's enabled webhooks (those whose flag for
   * the kind is on), signed when the webhook's signing is on. `extra` adds fields (a bounce's
   * `reason`, a click's `url`). @returns each post with its receiver's status.
   */
  async sendEvents(
    messageId: string,
    kinds: string[],
    extra: Record<string, unknown> = {},
    options: { timestamp?: number } = {},
  ): Promise<SendgridEventPost[]> {
    const mail = this.seen.mail.find((m) => m.messageId === messageId);
    if (!mail) throw new Error(`no message ${messageId}`);
    const personalization = mail.body.personalizations[0];
    const time = options.timestamp ?? Math.floor(Date.now() / 1000);
    const posts: SendgridEventPost[] = [];
    for (const webhook of this.account(mail.account).webhooks) {
      if (!webhook.enabled) continue;
      const events = kinds
        .filter((kind) => webhook.events[FLAG_OF[kind] ?? kind])
        .map((kind) => ({
          email: personalization?.to[0]?.email ?? "",
          timestamp: time,
          "smtp-id": `<${messageId}@local.sendgrid>`,
          event: kind,
          sg_event_id: randomBytes(16).toString("base64url"),
          sg_message_id: `${messageId}.filter0001.local.0`,
          ...(kind === "bounce" ? { type: "bounce", status: "5.1.1", reason: "550 5.1.1 User unknown" } : {}),
          ...(personalization?.custom_args ?? {}),
          ...extra,
        }));
      if (events.length === 0) continue;
      const payload = JSON.stringify(events);
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (webhook.keys) {
        const timestamp = String(time);
        const signer = createSign("sha256");
        signer.update(timestamp + payload);
        headers["x-twilio-email-event-webhook-signature"] = signer.sign(webhook.keys.privateKey).toString("base64");
        headers["x-twilio-email-event-webhook-timestamp"] = timestamp;
      }
      const status = await fetch(webhook.url, { method: "POST", headers, body: payload }).then(
        async (response) => {
          await response.body?.cancel();
          return response.status;
        },
        () => 0,
      );
      const post = { url: webhook.url, status, signed: webhook.keys !== null, events };
      this.seen.eventPosts.push(post);
      posts.push(post);
    }
    return posts;
  }

  private account(name: string): Account {
    let account = this.accounts.get(name);
    if (!account) {
      account = { senders: [], webhooks: [] };
      this.accounts.set(name, account);
    }
    return account;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const url = new URL(req.url ?? "/", "http://local");
    const path = url.pathname.replace(/\/+$/, "");
    const method = req.method ?? "GET";
    const raw = await readBody(req);
    const route = ROUTES.find((r) => r.method === method && r.pattern.test(path));
    if (!route) return json(res, 404, sendgridError("resource not found"));
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const entry = this.keys.get(key);
    if (!entry || entry.revoked) {
      this.seen.refused.push({ key, path, status: 401 });
      return json(res, 401, sendgridError("The provided authorization grant is invalid, expired, or revoked"));
    }
    if (route.scope && !entry.scopes.includes(route.scope)) {
      this.seen.refused.push({ key, path, status: 403 });
      return json(res, 403, sendgridError("access forbidden"));
    }
    let body: Record<string, unknown> = {};
    if (raw.length > 0) {
      try {
        const parsed = JSON.parse(raw) as unknown;
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
        body = parsed as Record<string, unknown>;
      } catch {
        return json(res, 400, sendgridError("Bad Request", null, null));
      }
    }
    const match = route.pattern.exec(path) ?? [];
    const account = this.account(entry.account);
    const context = { key, entry, account, body, url, id: match[1] ?? "" };
    return route.handle.call(this, context, res);
  }

  /** @internal a route's handler. */
  mailSend(ctx: Context, res: ServerResponse) {
    const body = ctx.body as Partial<SendgridMail["body"]>;
    const bad = (message: string, field: string) => json(res, 400, sendgridError(message, field, null));
    const personalizations = Array.isArray(body.personalizations) ? body.personalizations : [];
    if (personalizations.length === 0)
      return bad(
        "The personalizations field is required and must have at least one personalization.",
        "personalizations",
      );
    for (const [i, p] of personalizations.entries()) {
      const to = Array.isArray(p?.to) ? p.to : [];
      if (to.length === 0 || !to.every((r) => typeof r?.email === "string" && /^[^@\s]+@[^@\s]+$/.test(r.email)))
        return bad("Does not contain a valid address.", `personalizations.${i}.to`);
    }
    if (typeof body.from?.email !== "string" || !body.from.email.includes("@"))
      return bad("The from object must be provided for every email send.", "from");
    if (typeof body.subject !== "string" || body.subject.length === 0)
      return bad(
        "The subject is required. You can get around this requirement if you use a template with a subject defined or if every personalization has a subject defined.",
        "subject",
      );
    const content = Array.isArray(body.content) ? body.content : [];
    if (content.length === 0 || !content.every((c) => typeof c?.type === "string" && typeof c?.value === "string"))
      return bad("Unless a valid template_id is provided, the content parameter is required.", "content");
    const messageId = randomBytes(16).toString("base64url").slice(0, 22);
    this.seen.mail.push({ messageId, key: ctx.key, account: ctx.entry.account, body: body as SendgridMail["body"] });
    res.writeHead(202, { "x-message-id": messageId }).end();
  }

  /** @internal a route's handler. */
  scopes(ctx: Context, res: ServerResponse) {
    this.seen.scopeChecks += 1;
    json(res, 200, { scopes: ctx.entry.scopes });
  }

  /** @internal a route's handler. */
  verifiedSenders(ctx: Context, res: ServerResponse) {
    const q = ctx.url.searchParams;
    const limit = Math.min(Math.max(Number(q.get("limit") ?? 100) || 100, 1), 100);
    const lastSeen = Number(q.get("lastSeenID") ?? 0) || 0;
    const id = Number(q.get("id") ?? 0) || 0;
    const results = ctx.account.senders.filter((s) => (id ? s.id === id : s.id > lastSeen)).slice(0, limit);
    json(res, 200, { results });
  }

  /** @internal a route's handler. */
  createWebhook(ctx: Context, res: ServerResponse) {
    if (ctx.account.webhooks.length >= 5) return json(res, 400, sendgridError("maximum webhooks reached", null));
    const webhook = this.newWebhook();
    const error = this.applySettings(webhook, ctx.body, true);
    if (error) return json(res, 400, sendgridError(error, "url"));
    ctx.account.webhooks.push(webhook);
    this.seen.webhookChanges += 1;
    json(res, 201, view(webhook));
  }

  /** @internal a route's handler. */
  allWebhooks(ctx: Context, res: ServerResponse) {
    json(res, 200, { max_allowed: 5, webhooks: ctx.account.webhooks.map(view) });
  }

  /** @internal a route's handler. */
  getWebhook(ctx: Context, res: ServerResponse) {
    const webhook = this.find(ctx);
    if (!webhook) return json(res, 404, sendgridError("webhook not found", "id"));
    json(res, 200, view(webhook));
  }

  /** @internal a route's handler. */
  patchWebhook(ctx: Context, res: ServerResponse) {
    let webhook = this.find(ctx);
    // The legacy path edits the oldest webhook, making one when the account has none.
    if (!webhook && !ctx.id) {
      webhook = this.newWebhook();
      ctx.account.webhooks.push(webhook);
    }
    if (!webhook) return json(res, 404, sendgridError("webhook not found", "id"));
    const error = this.applySettings(webhook, ctx.body, false);
    if (error) return json(res, 400, sendgridError(error, "url"));
    this.seen.webhookChanges += 1;
    json(res, 200, view(webhook));
  }

  /** @internal a route's handler. */
  deleteWebhook(ctx: Context, res: ServerResponse) {
    const index = ctx.account.webhooks.findIndex((w) => w.id === ctx.id);
    if (index < 0) return json(res, 404, sendgridError("webhook not found", "id"));
    ctx.account.webhooks.splice(index, 1);
    this.seen.webhookChanges += 1;
    res.writeHead(204).end();
  }

  /** @internal a route's handler. */
  getSigned(ctx: Context, res: ServerResponse) {
    const webhook = this.find(ctx);
    if (!webhook) return json(res, 404, sendgridError("webhook not found", "id"));
    json(res, 200, { id: webhook.id, public_key: publicKeyOf(webhook) });
  }

  /** @internal a route's handler. */
  patchSigned(ctx: Context, res: ServerResponse) {
    const webhook = this.find(ctx);
    if (!webhook) return json(res, 404, sendgridError("webhook not found", "id"));
    if (typeof ctx.body.enabled !== "boolean") return json(res, 400, sendgridError("enabled is required", "enabled"));
    if (ctx.body.enabled && !webhook.keys) webhook.keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
    if (!ctx.body.enabled) webhook.keys = null;
    this.seen.webhookChanges += 1;
    json(res, 200, { id: webhook.id, public_key: publicKeyOf(webhook) });
  }

  /** The webhook named by the path, or the account's oldest for the legacy paths. */
  private find(ctx: Context): Webhook | undefined {
    return ctx.id ? ctx.account.webhooks.find((w) => w.id === ctx.id) : ctx.account.webhooks[0];
  }

  private newWebhook(): Webhook {
    const now = new Date().toISOString();
    return {
      id: `wh-${String(this.nextWebhook++).padStart(6, "0")}-${randomBytes(4).toString("hex")}`,
      enabled: false,
      url: "",
      friendly_name: "",
      events: Object.fromEntries(EVENT_FLAGS.map((flag) => [flag, false])),
      created_date: now,
      updated_date: now,
      keys: null,
    };
  }

  /** @returns an error message, or null when applied. */
  private applySettings(webhook: Webhook, body: Record<string, unknown>, creating: boolean): string | null {
    const url = body.url ?? (creating ? undefined : webhook.url);
    if (typeof url !== "string" || !/^https?:\/\/[^\s]+$/.test(url)) return "url is required and must be a valid URL";
    webhook.url = url;
    if (typeof body.enabled === "boolean") webhook.enabled = body.enabled;
    if (typeof body.friendly_name === "string") webhook.friendly_name = body.friendly_name.slice(0, 100);
    for (const flag of EVENT_FLAGS) if (typeof body[flag] === "boolean") webhook.events[flag] = body[flag] as boolean;
    webhook.updated_date = new Date().toISOString();
    return null;
  }
}

interface Context {
  key: string;
  entry: { scopes: string[]; account: string };
  account: Account;
  body: Record<string, unknown>;
  url: URL;
  id: string;
}

type Handler = (this: LocalSendgridServer, ctx: Context, res: ServerResponse) => unknown;

const READ = "user.webhooks.event.settings.read";
const UPDATE = "user.webhooks.event.settings.update";
const h = (name: keyof LocalSendgridServer): Handler => LocalSendgridServer.prototype[name] as Handler;
const ROUTES: { method: string; pattern: RegExp; scope?: string; handle: Handler }[] = [
  { method: "POST", pattern: /^\/v3\/mail\/send$/, scope: "mail.send", handle: h("mailSend") },
  { method: "GET", pattern: /^\/v3\/scopes$/, handle: h("scopes") },
  { method: "GET", pattern: /^\/v3\/verified_senders$/, handle: h("verifiedSenders") },
  { method: "GET", pattern: /^\/v3\/user\/webhooks\/event\/settings\/all$/, scope: READ, handle: h("allWebhooks") },
  {
    method: "GET",
    pattern: /^\/v3\/user\/webhooks\/event\/settings\/signed(?:\/([\w-]+))?$/,
    scope: READ,
    handle: h("getSigned"),
  },
  {
    method: "PATCH",
    pattern: /^\/v3\/user\/webhooks\/event\/settings\/signed(?:\/([\w-]+))?$/,
    scope: UPDATE,
    handle: h("patchSigned"),
  },
  { method: "POST", pattern: /^\/v3\/user\/webhooks\/event\/settings$/, scope: UPDATE, handle: h("createWebhook") },
  {
    method: "GET",
    pattern: /^\/v3\/user\/webhooks\/event\/settings(?:\/([\w-]+))?$/,
    scope: READ,
    handle: h("getWebhook"),
  },
  {
    method: "PATCH",
    pattern: /^\/v3\/user\/webhooks\/event\/settings(?:\/([\w-]+))?$/,
    scope: UPDATE,
    handle: h("patchWebhook"),
  },
  {
    method: "DELETE",
    pattern: /^\/v3\/user\/webhooks\/event\/settings\/([\w-]+)$/,
    scope: UPDATE,
    handle: h("deleteWebhook"),
  },
];

function publicKeyOf(webhook: Webhook): string {
  return webhook.keys ? webhook.keys.publicKey.export({ type: "spki", format: "der" }).toString("base64") : "";
}

function view(webhook: Webhook) {
  return {
    id: webhook.id,
    enabled: webhook.enabled,
    url: webhook.url,
    friendly_name: webhook.friendly_name,
    ...webhook.events,
    oauth_client_id: "",
    oauth_token_url: "",
    public_key: publicKeyOf(webhook),
    created_date: webhook.created_date,
    updated_date: webhook.updated_date,
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
