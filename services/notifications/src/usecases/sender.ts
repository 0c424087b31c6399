import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import {
  appError,
  badRequest,
  type Caller,
  emailError,
  type KeyRing,
  type Logger,
  openSecret,
  sealSecret,
} from "@crafter/kit";
import {
  type DnsRecord,
  dkimHost,
  dkimStatus,
  dmarcStatus,
  normalDomain,
  type RecordCheck,
  recordsFor,
  selectorFor,
  spfStatus,
  type TxtAnswer,
} from "../domain/dkim";
import {
  type DkimSigning,
  domainOf,
  headerDisplayName,
  LIMITS,
  type MailAddress,
  normalAddress,
  type ResolvedSender,
  resolveSender,
  signAddressToken,
  verifyAddressToken,
} from "../domain/sender";
import { renderSenderAddressEmail, tokenLink } from "../domain/templates";
import type { Mailer } from "../mail/mailer";
import {
  domainId,
  type SenderIdentityDoc,
  type SenderRepository,
  type SendingDomainDoc,
} from "../store/sender.repository";

/** A TXT lookup (mail/dns.ts over node:dns `Resolver`). */
export type TxtLookup = (name: string) => Promise<TxtAnswer>;

/** The projects service, as sender settings use it: whether the caller may work in a project, and its name. */
export interface SenderProjectsPort {
  /** The project's title when the caller's token reaches it; null otherwise. */
  project(caller: Caller, projectId: string): Promise<{ title: string } | null>;
}

/** What sender identities and sending domains need; built once in main.ts. */
export interface SenderDeps {
  store: SenderRepository;
  projects: SenderProjectsPort;
  /** The business profile's name of a project ("" when unknown). */
  businessName(userId: string, projectId: string, token?: string): Promise<string>;
  /** The platform's From (MAIL_FROM / EMAIL_FROM). */
  platform: MailAddress;
  /** HMAC key of confirmation links. */
  linkSecret: string;
  /** How long a confirmation link works, in ms. */
  linkTtlMs: number;
  /** Least time between two confirmation links to one project, in ms. */
  linkCooldownMs: number;
  /** SECRETS_KEYS; undefined: DKIM keys cannot be made or used. */
  keys: KeyRing | undefined;
  dns: TxtLookup;
  /** The SPF include every sending domain publishes (SENDER_SPF_INCLUDE). */
  spfInclude: string;
  /** Where DMARC aggregate reports go ("" = none). */
  dmarcReport: string;
  /** The platform's own mailer (the confirmation email goes from the platform). */
  mailer: Mailer;
  publicOrigin: string;
  logger: Logger;
  now: () => Date;
  /** How long a resolved sender is reused per project, in ms (a campaign resolves once per email). */
  cacheMs: number;
}

/** A project's sender identity as the settings page shows it. */
export interface SenderIdentityView {
  projectId: string;
  fromName: string;
  fromAddress: string;
  replyTo: string;
  /** unset (no from address), pending (a link is out), verified. */
  addressStatus: "unset" | "pending" | "verified";
  linkSentAt: string;
  /** What campaigns and automations' emails carry now. */
  effectiveFrom: MailAddress;
  effectiveReplyTo: string;
  /** Whether they are signed with the from domain's DKIM key now. */
  dkimActive: boolean;
  platformAddress: string;
}

/** A sending domain as the settings page shows it (never its private key). */
export interface SendingDomainView {
  domain: string;
  selector: string;
  records: Array<DnsRecord & { status: RecordCheck["status"]; found: string[]; reason: string }>;
  checkedAt: string;
  /** Whether its DKIM record checked as verified (so mail from its addresses is signed). */
  dkimVerified: boolean;
}

const sealOwner = (projectId: string, domain: string) => domainId(projectId, domain);

/** @throws NOT_FOUND unless the caller's token reaches the project (a member's only in their project). */
async function mustReach(deps: SenderDeps, caller: Caller, projectId: string): Promise<{ title: string }> {
  if (!projectId || projectId.length > 64) throw badRequest({ projectId: "projectId is required" });
  if (caller.delegatedProjectId && caller.delegatedProjectId !== projectId)
    throw appError("NOT_FOUND", "No such project.");
  const project = await deps.projects.project(caller, projectId);
  if (!project) throw appError("NOT_FOUND", "No such project.");
  return project;
}

/** The DKIM key of a domain when its record checked as verified; null otherwise (or when it does not open). */
function signingOf(deps: Pick<SenderDeps, "keys" | "logger">, doc: SendingDomainDoc | null): DkimSigning | null {
  if (!doc || !deps.keys) return null;
  if (!doc.checks.some((check) => check.kind === "dkim" && check.status === "verified")) return null;
  try {
    return {
      domainName: doc.domain,
      keySelector: doc.selector,
      privateKey: openSecret(deps.keys, doc.privateKeySealed, sealOwner(doc.projectId, doc.domain)),
    };
  } catch (error) {
    // Never the key itself: only that it did not open (SECRETS_KEYS lost its key).
    deps.logger.error({ domain: doc.domain, err: (error as Error).message }, "a DKIM key does not open");
    return null;
  }
}

/**
 * The sender of a project's email now (domain/sender.ts resolveSender): its verified from address
 * (DKIM-signed when the address's domain has a key whose DNS record checked as verified), or the
 * platform's address with the business's name and its address as Reply-To.
 * @param businessName the business profile's name, the display name when the identity has none.
 */
export async function senderOfProject(
  deps: Pick<SenderDeps, "store" | "platform" | "keys" | "logger">,
  projectId: string,
  businessName: string,
): Promise<ResolvedSender> {
  const settings = projectId ? await deps.store.identity(projectId) : null;
  const address = settings ? normalAddress(settings.fromAddress) : "";
  const verified = settings ? await deps.store.isVerified(projectId, address) : false;
  const domain = verified ? await deps.store.domain(projectId, domainOf(address)) : null;
  return resolveSender({ settings, verified, businessName, platform: deps.platform, dkim: signingOf(deps, domain) });
}

/**
 * `senderOfProject`, reused per project for `cacheMs` (a campaign asks once per email). A change in
 * Settings is seen by other sends within `cacheMs`; by this process's next send at once (`forget`).
 */
export function cachedSenders(deps: Pick<SenderDeps, "store" | "platform" | "keys" | "logger" | "cacheMs">) {
  const cache = new Map<string, { sender: Promise<ResolvedSender>; at: number }>();
  return {
    resolve(_userId: string, projectId: string, businessName: string): Promise<ResolvedSender> {
      const key = `${projectId}\n${businessName}`;
      const hit = cache.get(key);
      if (hit && Date.now() - hit.at < deps.cacheMs) return hit.sender;
      if (cache.size > 5_000) cache.clear();
      const sender = senderOfProject(deps, projectId, businessName);
      cache.set(key, { sender, at: Date.now() });
      sender.catch(() => cache.delete(key));
      return sender;
    },
    forget(projectId: string) {
      for (const key of cache.keys()) if (key.startsWith(`${projectId}\n`)) cache.delete(key);
    },
  };
}

export type SenderCache = ReturnType<typeof cachedSenders>;

async function viewOf(
  deps: SenderDeps,
  projectId: string,
  doc: SenderIdentityDoc | null,
  businessName: string,
): Promise<SenderIdentityView> {
  const address = doc ? normalAddress(doc.fromAddress) : "";
  const verified = await deps.store.isVerified(projectId, address);
  const sender = await senderOfProject(deps, projectId, businessName);
  return {
    projectId,
    fromName: doc?.fromName ?? "",
    fromAddress: address,
    replyTo: doc?.replyTo ?? "",
    addressStatus: !address ? "unset" : verified ? "verified" : "pending",
    linkSentAt: doc?.linkSentAt ? new Date(doc.linkSentAt).toISOString() : "",
    effectiveFrom: sender.from,
    effectiveReplyTo: sender.replyTo ?? "",
    dkimActive: Boolean(sender.dkim),
    platformAddress: deps.platform.address,
  };
}

/** The project's sender identity. @throws NOT_FOUND for a project the caller cannot reach. */
export async function getSenderIdentity(
  deps: SenderDeps,
  caller: Caller,
  projectId: string,
): Promise<SenderIdentityView> {
  await mustReach(deps, caller, projectId);
  const name = await deps.businessName(caller.userId, projectId, caller.token);
  return viewOf(deps, projectId, await deps.store.identity(projectId), name);
}

/**
 * Saves the project's sender identity. A from address not confirmed for this project is kept as
 * pending (mail goes on from the platform's address) and a confirmation link is sent to it.
 * @throws CR_ERR_BAD_REQUEST with fields (fromName, fromAddress, replyTo); NOT_FOUND.
 */
export async function updateSenderIdentity(
  deps: SenderDeps,
  caller: Caller,
  input: { projectId: string; fromName: string; fromAddress: string; replyTo: string },
  senders?: SenderCache,
): Promise<SenderIdentityView> {
  await mustReach(deps, caller, input.projectId);
  const fields: Record<string, string> = {};
  const fromName = headerDisplayName(input.fromName);
  if (input.fromName.length > LIMITS.fromName) fields.fromName = `From name has at most ${LIMITS.fromName} characters`;
  const fromAddress = normalAddress(input.fromAddress);
  if (fromAddress && emailError(fromAddress)) fields.fromAddress = "From address must be an email address";
  const replyTo = normalAddress(input.replyTo);
  if (replyTo && emailError(replyTo)) fields.replyTo = "Reply-to must be an email address";
  if (Object.keys(fields).length > 0) throw badRequest(fields);

  const known = await deps.store.identity(input.projectId);
  const changed = normalAddress(known?.fromAddress ?? "") !== fromAddress;
  const doc: SenderIdentityDoc = {
    _id: input.projectId,
    userId: caller.userId,
    fromName,
    fromAddress,
    replyTo,
    linkSentAt: changed ? null : (known?.linkSentAt ?? null),
    updatedAt: deps.now(),
  };
  await deps.store.saveIdentity(doc);
  senders?.forget(input.projectId);
  const name = await deps.businessName(caller.userId, input.projectId, caller.token);
  if (fromAddress && changed && !(await deps.store.isVerified(input.projectId, fromAddress))) {
    await sendLink(deps, doc, name || fromName);
    doc.linkSentAt = deps.now();
  }
  return viewOf(deps, input.projectId, doc, name);
}

async function sendLink(deps: SenderDeps, doc: SenderIdentityDoc, businessName: string): Promise<void> {
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.linkTtlMs);
  const tokenId = crypto.randomUUID();
  const token = signAddressToken(deps.linkSecret, {
    tokenId,
    projectId: doc._id,
    address: doc.fromAddress,
    expiresAt: expiresAt.getTime(),
  });
  const email = renderSenderAddressEmail({
    businessName,
    address: doc.fromAddress,
    link: tokenLink(deps.publicOrigin, "/confirm-sender", token),
    expiresAt,
    now,
  });
  await deps.mailer.send({
    ...email,
    to: doc.fromAddress,
    messageId: `<${tokenId}.sender-address@${new URL(deps.publicOrigin).hostname}>`,
  });
  await deps.store.markLinkSent(doc._id, now);
}

/**
 * Sends the confirmation link again to the pending from address.
 * @throws CONFLICT (no address, or already verified); RATE_LIMITED within the cooldown; NOT_FOUND.
 */
export async function sendSenderConfirmation(
  deps: SenderDeps,
  caller: Caller,
  projectId: string,
): Promise<SenderIdentityView> {
  await mustReach(deps, caller, projectId);
  const doc = await deps.store.identity(projectId);
  if (!doc?.fromAddress) throw appError("CONFLICT", "Enter a from address first.");
  if (await deps.store.isVerified(projectId, doc.fromAddress))
    throw appError("CONFLICT", "This address is already confirmed.");
  if (doc.linkSentAt && deps.now().getTime() - new Date(doc.linkSentAt).getTime() < deps.linkCooldownMs)
    throw appError("RATE_LIMITED", "A link was sent a moment ago; check the inbox, or try again in a minute.");
  const name = await deps.businessName(caller.userId, projectId, caller.token);
  await sendLink(deps, doc, name || doc.fromName);
  return viewOf(deps, projectId, await deps.store.identity(projectId), name);
}

/**
 * Confirms an address from its link (no session: the link is the proof of the mailbox).
 * @returns the confirmed address. @throws CR_ERR_BAD_REQUEST (`token`) for a link that is invalid,
 *   expired or used.
 */
export async function confirmSenderAddress(
  deps: SenderDeps,
  token: string,
  senders?: SenderCache,
): Promise<{ address: string }> {
  const checked = verifyAddressToken(deps.linkSecret, token, deps.now().getTime());
  if ("error" in checked)
    throw badRequest({
      token:
        checked.error === "expired"
          ? "This link has expired; send a new one from Settings."
          : "This link is not valid.",
    });
  const { claim } = checked;
  const outcome = await deps.store.confirm(claim.projectId, claim.address, claim.tokenId, deps.now());
  if (outcome === "used") throw badRequest({ token: "This link was already used." });
  senders?.forget(claim.projectId);
  return { address: claim.address };
}

// Sending domains and DKIM.

const generate = promisify(generateKeyPair);

function domainView(doc: SendingDomainDoc, deps: Pick<SenderDeps, "spfInclude" | "dmarcReport">): SendingDomainView {
  const records = recordsFor({
    domain: doc.domain,
    selector: doc.selector,
    publicKey: doc.publicKey,
    spfInclude: deps.spfInclude,
    dmarcReport: deps.dmarcReport,
  });
  return {
    domain: doc.domain,
    selector: doc.selector,
    records: records.map((record) => {
      const check = doc.checks.find((c) => c.kind === record.kind);
      return {
        ...record,
        status: check?.status ?? "pending",
        found: check?.found ?? [],
        reason: check?.reason ?? "",
      };
    }),
    checkedAt: doc.checkedAt ? new Date(doc.checkedAt).toISOString() : "",
    dkimVerified: doc.checks.some((c) => c.kind === "dkim" && c.status === "verified"),
  };
}

/** The project's sending domains with their records. @throws NOT_FOUND. */
export async function listSendingDomains(
  deps: SenderDeps,
  caller: Caller,
  projectId: string,
): Promise<SendingDomainView[]> {
  await mustReach(deps, caller, projectId);
  return (await deps.store.domainsOf(projectId)).map((doc) => domainView(doc, deps));
}

const MAX_DOMAINS = 10;

/**
 * Makes a DKIM key pair (RSA 2048) for a domain of the project, under a dated selector; the private
 * key is kept sealed only. Adding a domain that has a key answers the existing one.
 * @throws CR_ERR_BAD_REQUEST (`domain`); UNAVAILABLE without SECRETS_KEYS; CONFLICT past 10 domains.
 */
export async function addSendingDomain(
  deps: SenderDeps,
  caller: Caller,
  input: { projectId: string; domain: string },
): Promise<SendingDomainView> {
  await mustReach(deps, caller, input.projectId);
  const domain = normalDomain(input.domain);
  if (!domain) throw badRequest({ domain: "Enter a domain such as example.com" });
  const keys = deps.keys;
  if (!keys) throw appError("UNAVAILABLE", "Sender authentication is not enabled on this server (SECRETS_KEYS).");
  const known = await deps.store.domain(input.projectId, domain);
  if (known) return domainView(known, deps);
  if ((await deps.store.domainsOf(input.projectId)).length >= MAX_DOMAINS)
    throw appError("CONFLICT", `A project has at most ${MAX_DOMAINS} sending domains.`);
  const { publicKey, privateKey } = await generate("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const now = deps.now();
  const doc: SendingDomainDoc = {
    _id: domainId(input.projectId, domain),
    projectId: input.projectId,
    userId: caller.userId,
    domain,
    selector: selectorFor(now),
    publicKey: publicKey.toString("base64"),
    privateKeySealed: sealSecret(keys, privateKey, sealOwner(input.projectId, domain)),
    createdAt: now,
    checkedAt: null,
    checks: [],
  };
  await deps.store.addDomain(doc);
  const stored = await deps.store.domain(input.projectId, domain);
  return domainView(stored ?? doc, deps);
}

/**
 * Looks the domain's three records up now and keeps their status (verified, pending, wrong).
 * @throws NOT_FOUND for a domain the project does not have.
 */
export async function checkSendingDomain(
  deps: SenderDeps,
  caller: Caller,
  input: { projectId: string; domain: string },
  senders?: SenderCache,
): Promise<SendingDomainView> {
  await mustReach(deps, caller, input.projectId);
  const domain = normalDomain(input.domain) ?? "";
  const doc = domain ? await deps.store.domain(input.projectId, domain) : null;
  if (!doc) throw appError("NOT_FOUND", "This project has no such sending domain.");
  const [dkim, spf, dmarc] = await Promise.all([
    deps.dns(dkimHost(doc.selector, domain)),
    deps.dns(domain),
    deps.dns(`_dmarc.${domain}`),
  ]);
  const checks = [dkimStatus(doc.publicKey, dkim), spfStatus(deps.spfInclude, spf), dmarcStatus(dmarc)];
  const at = deps.now();
  await deps.store.saveChecks(input.projectId, domain, checks, at);
  senders?.forget(input.projectId);
  return domainView({ ...doc, checks, checkedAt: at }, deps);
}

/** Removes a sending domain and its key (mail from it is no longer signed). @throws NOT_FOUND. */
export async function removeSendingDomain(
  deps: SenderDeps,
  caller: Caller,
  input: { projectId: string; domain: string },
  senders?: SenderCache,
): Promise<void> {
  await mustReach(deps, caller, input.projectId);
  const domain = normalDomain(input.domain) ?? "";
  if (!domain || !(await deps.store.removeDomain(input.projectId, domain)))
    throw appError("NOT_FOUND", "This project has no such sending domain.");
  senders?.forget(input.projectId);
}
