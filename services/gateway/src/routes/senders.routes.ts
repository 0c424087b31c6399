import type { SenderIdentity, SendingDomain } from "@crafter/proto/crafter/notifications/v1/senders_pb";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { emailAddress } from "../http/schemas";
import type { RouteDeps } from "./deps";

// A project's sender identity and sending domains (notifications' SendersService): Settings →
// Sender, for the project's owner and its project admins.

const TAG = "Email sender";
const S = "/api/email/sender";

const text = (name: string, max: number) =>
  z.string({ error: `${name} must be text` }).max(max, `${name} has at most ${max} characters`);
const projectId = text("projectId", 64).optional().meta({ description: "The project; the active one when absent." });
const domainParam = z.object({
  domain: text("domain", 253).min(1, "domain is required").meta({ description: "e.g. example.com" }),
});

const address = z.object({ name: z.string(), address: z.string() });

const DOMAIN_MESSAGE = "Enter a domain such as example.com";
/**
 * A domain as notifications reads it (dkim.ts normalDomain): labels of 1 to 63 letters, digits and
 * inner hyphens, at least two, a last label not all digits, an optional final dot; in patterns the
 * document states (without the spaces around it that the service would also trim).
 */
const sendingDomain = z
  .string({ error: DOMAIN_MESSAGE })
  .max(253, DOMAIN_MESSAGE)
  .regex(
    /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?$/,
    DOMAIN_MESSAGE,
  )
  .regex(/\.[A-Za-z0-9-]*[A-Za-z-][A-Za-z0-9-]*\.?$/, DOMAIN_MESSAGE)
  .meta({ description: "e.g. example.com" });

/** An email address by the kit's rule (as notifications checks it), or "" for none. */
const addressOrNone = (message: string) => z.union([z.literal(""), emailAddress], { error: message }).default("");

export const senderIdentitySchema = z
  .object({
    projectId: z.string(),
    fromName: z.string(),
    fromAddress: z.string().meta({ description: 'The address the business sends from once confirmed; "" for none.' }),
    replyTo: z.string().meta({ description: '"" = replies go to the From address.' }),
    addressStatus: z
      .enum(["unset", "pending", "verified"])
      .meta({ description: "pending: a confirmation link was sent to fromAddress and not yet followed." }),
    linkSentAt: z.string().meta({ description: 'ISO 8601; "" when no link was sent for this address.' }),
    effectiveFrom: address.meta({
      description:
        "What campaigns and automations' emails carry now: fromAddress once verified, else the platform's address with the business's name.",
    }),
    effectiveReplyTo: z.string(),
    dkimActive: z.boolean().meta({ description: "Whether mail from fromAddress is DKIM-signed now." }),
    platformAddress: z.string(),
  })
  .meta({ id: "SenderIdentity" });

const recordSchema = z.object({
  kind: z.enum(["dkim", "spf", "dmarc"]),
  type: z.literal("TXT"),
  host: z.string(),
  value: z.string().meta({ description: "The TXT value to publish at host." }),
  status: z.enum(["verified", "pending", "wrong"]),
  found: z.array(z.string()).meta({ description: "The TXT values found at host that matter to this record." }),
  reason: z.string(),
});

export const sendingDomainSchema = z
  .object({
    domain: z.string(),
    selector: z.string(),
    records: z.array(recordSchema),
    checkedAt: z.string().meta({ description: 'ISO 8601; "" when never checked.' }),
    dkimVerified: z.boolean(),
  })
  .meta({ id: "SendingDomain" });

function toIdentity(identity: SenderIdentity | undefined): z.input<typeof senderIdentitySchema> {
  const status = identity?.addressStatus;
  return {
    projectId: identity?.projectId ?? "",
    fromName: identity?.fromName ?? "",
    fromAddress: identity?.fromAddress ?? "",
    replyTo: identity?.replyTo ?? "",
    addressStatus: status === "pending" || status === "verified" ? status : "unset",
    linkSentAt: identity?.linkSentAt ?? "",
    effectiveFrom: { name: identity?.effectiveFrom?.name ?? "", address: identity?.effectiveFrom?.address ?? "" },
    effectiveReplyTo: identity?.effectiveReplyTo ?? "",
    dkimActive: identity?.dkimActive ?? false,
    platformAddress: identity?.platformAddress ?? "",
  };
}

const KINDS = ["dkim", "spf", "dmarc"] as const;
const STATUSES = ["verified", "pending", "wrong"] as const;

function toDomain(domain: SendingDomain | undefined): z.input<typeof sendingDomainSchema> {
  return {
    domain: domain?.domain ?? "",
    selector: domain?.selector ?? "",
    records: (domain?.records ?? []).map((r) => ({
      kind: KINDS.find((k) => k === r.kind) ?? "dkim",
      type: "TXT" as const,
      host: r.host,
      value: r.value,
      status: STATUSES.find((s) => s === r.status) ?? "pending",
      found: r.found,
      reason: r.reason,
    })),
    checkedAt: domain?.checkedAt ?? "",
    dkimVerified: domain?.dkimVerified ?? false,
  };
}

/** /api/email/sender…: the sender identity, its confirmation link, and sending domains with DKIM. */
export function sendersRoutes({ clients }: RouteDeps): RouteDef[] {
  const senders = clients.senders;
  const settings = { auth: "session", actsInProject: true, projectPermission: "project.settings", tag: TAG } as const;
  return [
    defineRoute({
      ...settings,
      method: "get",
      path: S,
      summary: "The project's sender identity and what its email carries now",
      query: z.object({ projectId }),
      response: senderIdentitySchema,
      handler: async ({ as, project }) =>
        toIdentity((await senders.getSenderIdentity({ projectId: project.projectId }, as)).identity),
    }),
    defineRoute({
      ...settings,
      method: "put",
      path: S,
      summary: "Save the sender identity; a new from address gets a confirmation link and is used once confirmed",
      description:
        "An unconfirmed from address is never used as From: until its link is followed, email goes from the platform's address with the business's name, and the address as Reply-To.",
      query: z.object({ projectId }),
      body: z.object({
        fromName: text("fromName", 100).default(""),
        fromAddress: addressOrNone("From address must be an email address"),
        replyTo: addressOrNone("Reply-to must be an email address"),
      }),
      response: senderIdentitySchema,
      handler: async ({ body, as, project }) =>
        toIdentity((await senders.updateSenderIdentity({ projectId: project.projectId, ...body }, as)).identity),
    }),
    defineRoute({
      ...settings,
      method: "post",
      path: `${S}/confirmation`,
      summary: "Send the from address's confirmation link again (at most once a minute)",
      query: z.object({ projectId }),
      body: z.object({}),
      response: senderIdentitySchema,
      errors: ["CONFLICT", "RATE_LIMITED"],
      handler: async ({ as, project }) =>
        toIdentity((await senders.sendSenderConfirmation({ projectId: project.projectId }, as)).identity),
    }),
    defineRoute({
      method: "post",
      path: `${S}/confirm`,
      summary: "Confirm a from address with the token of its emailed link (signed, expiring, single use)",
      tag: TAG,
      auth: "public",
      body: z.object({ token: text("token", 2048).min(1, "token is required") }),
      response: z.object({ address: z.string() }),
      handler: async ({ body }) => ({
        address: (await clients.sendersAsGateway.confirmSenderAddress({ token: body.token })).address,
      }),
    }),
    defineRoute({
      ...settings,
      method: "get",
      path: `${S}/domains`,
      summary: "The project's sending domains, with the DNS records to publish and their last checked status",
      query: z.object({ projectId }),
      response: z.object({ result: z.array(sendingDomainSchema) }),
      handler: async ({ as, project }) => ({
        result: (await senders.listSendingDomains({ projectId: project.projectId }, as)).domains.map(toDomain),
      }),
    }),
    defineRoute({
      ...settings,
      method: "post",
      path: `${S}/domains`,
      summary: "Add a sending domain: makes its DKIM key pair (RSA 2048); the private key is never answered",
      status: 201,
      query: z.object({ projectId }),
      body: z.object({ domain: sendingDomain }),
      response: sendingDomainSchema,
      errors: ["CONFLICT"],
      handler: async ({ body, as, project }) =>
        toDomain((await senders.addSendingDomain({ projectId: project.projectId, domain: body.domain }, as)).domain),
    }),
    defineRoute({
      ...settings,
      method: "post",
      path: `${S}/domains/{domain}/check`,
      summary: "Look the domain's DKIM, SPF and DMARC records up now: verified, pending or wrong, each",
      params: domainParam,
      query: z.object({ projectId }),
      body: z.object({}),
      response: sendingDomainSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params, as, project }) =>
        toDomain(
          (await senders.checkSendingDomain({ projectId: project.projectId, domain: params.domain }, as)).domain,
        ),
    }),
    defineRoute({
      ...settings,
      method: "delete",
      path: `${S}/domains/{domain}`,
      summary: "Remove a sending domain and its DKIM key (its mail is no longer signed)",
      params: domainParam,
      query: z.object({ projectId }),
      response: z.object({}),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as, project }) => {
        await senders.removeSendingDomain({ projectId: project.projectId, domain: params.domain }, as);
        return {};
      },
    }),
  ];
}
