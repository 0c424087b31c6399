import { randomUUID } from "node:crypto";
import { craftToMjml, finalDraft } from "@crafter/email-language";
import { appError, badRequest, type Caller } from "@crafter/kit";
import { instantAt, zoneOrUtc } from "@crafter/time";
import { emailError, normalizeEmail } from "@crafter/validation";
import type { EmailRecipient, NotificationsDeps } from "../deps";
import { type AudienceCount, countAudience, exclusionOf } from "../domain/campaign-audience";
import {
  LOCAL_TIME_SEND_NOW,
  LOCAL_TIME_WITH_AB_TEST,
  type ReleaseProgress,
  releaseProgress,
  SEND_TIME_BY,
  type SendTimeBy,
  startOfSending,
} from "../domain/campaign-release";
import { EDITABLE, MISSING_ADDRESS, readinessErrors, type Stats, statsOf } from "../domain/campaign-rules";
import type { BusinessFooter } from "../domain/email-compose";
import { pausesSending } from "../mail/providers";
import type { AbTestDoc, CampaignStatus, StoredCampaign } from "../store/campaigns.repository";
import { type DeliveryDoc, type FactDoc, FINAL_FACTS } from "../store/email.repository";
import { subjectsInState } from "./approvals";
import { composeUntracked } from "./email-delivery";

/** The approval states the campaigns list filters by. */
const APPROVAL_FILTERS = ["awaiting", "approved", "changes_requested"] as const;

import { getTemplate, renderMjml } from "./templates";

export type Deps = Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now">;

/** A campaign as callers see it. */
export interface CampaignView extends StoredCampaign {
  stats: Stats;
  /** A campaign at each contact's local time, once its recipients are known: how many are released. */
  release: ReleaseProgress | null;
}

export interface CampaignInput {
  name?: string;
  segmentId?: string;
  templateId?: string;
  craftId?: string;
  subject?: string;
  preheader?: string;
  html?: string;
  abTest?: { subjectB: string; share: number; winnerAfterMinutes: number } | null;
  /** Whose wall clock the scheduled time is read on; "" or absent: the business's. */
  sendTimeBy?: string;
}

const LIMITS = { name: 200, id: 64, subject: 300, preheader: 300, html: 1_000_000 };

function checkInput(input: CampaignInput): void {
  const errors: Record<string, string> = {};
  if (input.name !== undefined && input.name.length > LIMITS.name) errors.name = "Name is too long";
  for (const key of ["segmentId", "templateId", "craftId"] as const)
    if ((input[key]?.length ?? 0) > LIMITS.id) errors[key] = `${key} is too long`;
  if ((input.subject?.length ?? 0) > LIMITS.subject) errors.subject = "Subject is too long";
  if ((input.preheader?.length ?? 0) > LIMITS.preheader) errors.preheader = "Preheader is too long";
  if ((input.html?.length ?? 0) > LIMITS.html) errors.html = "The email is too large";
  if (input.abTest) {
    const { share, winnerAfterMinutes, subjectB } = input.abTest;
    if (!Number.isInteger(share) || share < 10 || share > 50) errors["abTest.share"] = "Share is 10 to 50 percent";
    if (!Number.isInteger(winnerAfterMinutes) || winnerAfterMinutes < 0 || winnerAfterMinutes > 10_080)
      errors["abTest.winnerAfterMinutes"] = "Choose the winner within a week";
    if (subjectB.length > LIMITS.subject) errors["abTest.subjectB"] = "Subject B is too long";
  }
  if (input.sendTimeBy && !SEND_TIME_BY.includes(input.sendTimeBy as SendTimeBy))
    errors.sendTimeBy = "Send at the business's time or at each contact's local time";
  else if (input.abTest && input.sendTimeBy === "contact") errors.sendTimeBy = LOCAL_TIME_WITH_AB_TEST;
  if (Object.keys(errors).length > 0) throw badRequest(errors);
}

function sendTimeByOf(value: string | undefined): SendTimeBy {
  return value === "contact" ? "contact" : "business";
}

function abTestOf(input: CampaignInput["abTest"]): AbTestDoc | null {
  return input
    ? { subjectB: input.subjectB, share: input.share, winnerAfterMinutes: input.winnerAfterMinutes, winner: "" }
    : null;
}

/** The campaign's counts from its deliveries and facts. */
export async function statsOfCampaign(deps: Pick<Deps, "stores">, campaign: StoredCampaign): Promise<Stats> {
  if (!campaign.materialized)
    return statsOf({
      recipients: 0,
      sent: 0,
      delivered: 0,
      bounced: 0,
      complained: 0,
      opened: 0,
      clicked: 0,
      failed: 0,
      skipped: 0,
      possibleDuplicates: 0,
    });
  const counts = await deps.stores.email.countFacts(campaign._id);
  return statsOf({
    recipients: campaign.recipients,
    sent: counts.sent ?? 0,
    delivered: counts.delivered ?? 0,
    bounced: counts.bounced ?? 0,
    complained: counts.complained ?? 0,
    opened: counts.opened ?? 0,
    clicked: counts.clicked ?? 0,
    failed: counts.failed ?? 0,
    skipped: counts.skipped ?? 0,
    possibleDuplicates: counts.resent ?? 0,
  });
}

async function view(deps: Pick<Deps, "stores" | "now">, campaign: StoredCampaign): Promise<CampaignView> {
  const [stats, release] = await Promise.all([
    statsOfCampaign(deps, campaign),
    campaign.sendTimeBy === "contact" && campaign.materialized
      ? deps.stores.email.releases(campaign._id).then((releases) => releaseProgress(releases, deps.now()))
      : null,
  ]);
  return { ...campaign, stats, release };
}

async function mustGet(deps: Pick<Deps, "stores">, caller: Caller, campaignId: string): Promise<StoredCampaign> {
  if (campaignId.length > LIMITS.id) throw appError("NOT_FOUND", "Campaign not found");
  const campaign = await deps.stores.campaigns.get(caller.userId, campaignId);
  if (!campaign) throw appError("NOT_FOUND", "Campaign not found");
  return campaign;
}

function locked(): never {
  throw appError("CONFLICT", "Only draft and scheduled campaigns can be changed");
}

/** 1-based page and size within bounds (size 1..100, default 20). */
export function paging(page: number, pageSize: number): { page: number; pageSize: number } {
  return {
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, 100_000) : 1,
    pageSize: Number.isInteger(pageSize) && pageSize >= 1 ? Math.min(pageSize, 100) : 20,
  };
}

export async function listCampaigns(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; status: string; page: number; pageSize: number; approval?: string },
): Promise<{ items: CampaignView[]; count: number; page: number; pageSize: number }> {
  const { page, pageSize } = paging(input.page, input.pageSize);
  const projectId = input.projectId.slice(0, LIMITS.id);
  if (input.approval) {
    if (!APPROVAL_FILTERS.includes(input.approval as (typeof APPROVAL_FILTERS)[number]))
      throw badRequest({ approval: "approval is awaiting, approved or changes_requested" });
    // The shared campaigns are few: narrowed by the project's links, then paged here.
    const ids = await subjectsInState(
      deps,
      caller.userId,
      projectId,
      "campaign",
      input.approval as (typeof APPROVAL_FILTERS)[number],
    );
    const shared = ids.size > 0 ? await deps.stores.campaigns.byIds(caller.userId, [...ids]) : [];
    const matching = shared
      .filter((c) => c.projectId === projectId && (!input.status || c.status === input.status))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const items = matching.slice((page - 1) * pageSize, page * pageSize);
    return { items: await Promise.all(items.map((c) => view(deps, c))), count: matching.length, page, pageSize };
  }
  const { items, count } = await deps.stores.campaigns.list(
    caller.userId,
    projectId,
    input.status.slice(0, 20),
    page,
    pageSize,
  );
  return { items: await Promise.all(items.map((c) => view(deps, c))), count, page, pageSize };
}

/**
 * The campaign's content from its template when it names one and brings no HTML of its own: the
 * template's rendered HTML (smart values are filled per recipient at send) and, when the campaign has
 * none, its subject. @throws NOT_FOUND for a template that is not the caller's or shipped.
 */
async function withTemplateContent(deps: Deps, caller: Caller, input: CampaignInput): Promise<CampaignInput> {
  if (!input.templateId || input.html?.trim()) return input;
  const template = await getTemplate(deps, caller, { id: input.templateId });
  return { ...input, html: template.html, subject: input.subject?.trim() ? input.subject : (template.subject ?? "") };
}

/** The workflow whose crafts are emails a campaign can send. */
export const EMAIL_CRAFT_WORKFLOW = "EmailWriter";

/**
 * The campaign's content from its email craft when it names one and brings no HTML of its own: the
 * craft's final draft (its Subject and Preheader lines, then the body) poured into a one-column
 * email and rendered to HTML; the draft's subject and preheader fill the campaign's when it has none.
 * The sender's footer (address, unsubscribe) is added to every email when it is composed.
 * @throws NOT_FOUND for a craft that is not the caller's; CR_ERR_BAD_REQUEST (`craftId`) for a craft
 * of another workflow or one whose email is not written yet.
 */
async function withCraftContent(deps: Deps, caller: Caller, input: CampaignInput): Promise<CampaignInput> {
  if (!input.craftId || input.html?.trim()) return input;
  const craft = await deps.email.crafts.craft(caller, input.craftId);
  if (!craft) throw appError("NOT_FOUND", "Email craft not found");
  if (craft.workflowName !== EMAIL_CRAFT_WORKFLOW) throw badRequest({ craftId: "Choose an email craft" });
  const draft = finalDraft(craft.steps);
  if (!draft) throw badRequest({ craftId: "The email craft has no email yet: write it first" });
  const poured = craftToMjml(draft, { footer: false });
  const { html } = await renderMjml(poured.mjml);
  if (!html) throw badRequest({ craftId: "The email craft's draft could not be rendered" });
  return {
    ...input,
    html,
    subject: input.subject?.trim() ? input.subject : poured.subject,
    preheader: input.preheader?.trim() ? input.preheader : poured.preheader,
  };
}

/** The content of a template or an email craft, when the input names one (see both); never both. */
async function withContent(deps: Deps, caller: Caller, input: CampaignInput): Promise<CampaignInput> {
  if (input.templateId && input.craftId) throw badRequest({ craftId: "Choose a template or an email craft, not both" });
  return withCraftContent(deps, caller, await withTemplateContent(deps, caller, input));
}

/** A new draft. */
export async function createCampaign(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; campaign: CampaignInput },
): Promise<CampaignView> {
  checkInput(input.campaign);
  if (input.projectId.length > LIMITS.id) throw badRequest({ projectId: "projectId is too long" });
  const now = deps.now();
  const c = await withContent(deps, caller, input.campaign);
  const doc: StoredCampaign = {
    _id: randomUUID(),
    userId: caller.userId,
    projectId: input.projectId,
    name: c.name?.trim() || "Untitled campaign",
    status: "draft",
    segmentId: c.segmentId ?? "",
    templateId: c.templateId ?? "",
    craftId: c.craftId ?? "",
    subject: c.subject ?? "",
    preheader: c.preheader ?? "",
    html: c.html ?? "",
    abTest: abTestOf(c.abTest),
    scheduledAt: null,
    sendTimeBy: sendTimeByOf(c.sendTimeBy),
    timeZone: "",
    startsAt: null,
    sentAt: null,
    finishedAt: null,
    waiting: null,
    waitingCheckedAt: null,
    materialized: false,
    recipients: 0,
    business: { name: "", address: "" },
    createdAt: now,
    updatedAt: now,
  };
  await deps.stores.campaigns.insert(doc);
  return view(deps, doc);
}

export async function getCampaign(deps: Deps, caller: Caller, campaignId: string): Promise<CampaignView> {
  return view(deps, await mustGet(deps, caller, campaignId));
}

/** Changes the fields given (all when `fields` is empty) of a draft or scheduled campaign. */
export async function updateCampaign(
  deps: Deps,
  caller: Caller,
  input: { campaignId: string; campaign: CampaignInput; fields: string[] },
): Promise<CampaignView> {
  checkInput(input.campaign);
  const current = await mustGet(deps, caller, input.campaignId);
  if (!EDITABLE.includes(current.status)) locked();
  const all = input.fields.length === 0;
  const fields = new Set(input.fields);
  const has = (field: keyof CampaignInput) => all || fields.has(field);
  // A new template or email craft brings its content along, unless HTML is given with it.
  const c = has("templateId") || has("craftId") ? await withContent(deps, caller, input.campaign) : input.campaign;
  if (c.html !== input.campaign.html) fields.add("html");
  if (c.subject !== input.campaign.subject) fields.add("subject");
  if (c.preheader !== input.campaign.preheader) fields.add("preheader");
  const set: Partial<StoredCampaign> = {};
  if (has("name")) set.name = c.name?.trim() || current.name;
  if (has("segmentId")) set.segmentId = c.segmentId ?? "";
  if (has("templateId")) set.templateId = c.templateId ?? "";
  if (has("craftId")) set.craftId = c.craftId ?? "";
  if (has("subject")) set.subject = c.subject ?? "";
  if (has("preheader")) set.preheader = c.preheader ?? "";
  if (has("html")) set.html = c.html ?? "";
  if (has("abTest")) set.abTest = abTestOf(c.abTest);
  if (has("sendTimeBy")) {
    set.sendTimeBy = sendTimeByOf(c.sendTimeBy);
    if (current.scheduledAt)
      set.startsAt = startOfSending(current.scheduledAt, current.timeZone || "UTC", set.sendTimeBy);
  }
  if ((set.abTest ?? (has("abTest") ? null : current.abTest)) && (set.sendTimeBy ?? current.sendTimeBy) === "contact")
    throw badRequest({ sendTimeBy: LOCAL_TIME_WITH_AB_TEST });
  // One content source: choosing a craft drops the template, and the other way round.
  if (set.craftId) set.templateId = "";
  else if (set.templateId) set.craftId = "";
  const updated = await deps.stores.campaigns.transition(current._id, EDITABLE, set, deps.now());
  if (!updated) locked();
  return view(deps, updated);
}

export async function deleteCampaign(deps: Deps, caller: Caller, campaignId: string): Promise<void> {
  const current = await mustGet(deps, caller, campaignId);
  if (!EDITABLE.includes(current.status)) locked();
  // A deleted scheduled campaign leaves the calendar through campaignsForCalendar (no longer found).
  if (!(await deps.stores.campaigns.remove(current._id, EDITABLE))) locked();
}

function ensureReady(campaign: StoredCampaign): void {
  const errors = readinessErrors(campaign);
  if (Object.keys(errors).length > 0) throw badRequest(errors);
}

/**
 * The business footer for a send, refused without a postal address: CAN-SPAM requires a valid
 * physical postal address in every commercial email, so a campaign without one is not sent or
 * scheduled (a test send to the user is). @throws CR_ERR_BAD_REQUEST (`businessAddress`).
 */
async function senderFooter(deps: Deps, caller: Caller, campaign: StoredCampaign): Promise<BusinessFooter> {
  const business = await deps.email.business.footer(caller.userId, campaign.projectId, caller.token);
  if (!business.address.trim()) throw badRequest({ businessAddress: MISSING_ADDRESS });
  return business;
}

/** Starts sending now: the dispatcher takes the segment's subscribed contacts on its next round. */
export async function sendCampaign(deps: Deps, caller: Caller, campaignId: string): Promise<CampaignView> {
  const current = await mustGet(deps, caller, campaignId);
  if (!EDITABLE.includes(current.status)) locked();
  ensureReady(current);
  if (current.sendTimeBy === "contact") throw badRequest({ sendTimeBy: LOCAL_TIME_SEND_NOW });
  const business = await senderFooter(deps, caller, current);
  const event =
    current.status === "scheduled"
      ? deps.email.events.campaignScheduled({
          userId: current.userId,
          projectId: current.projectId,
          campaignId: current._id,
          name: current.name,
          at: "",
        })
      : undefined;
  const updated = await deps.stores.campaigns.transition(
    current._id,
    EDITABLE,
    { status: "sending", sentAt: deps.now(), scheduledAt: null, startsAt: null, business },
    deps.now(),
    event,
  );
  if (!updated) locked();
  if (event) deps.email.kick();
  return view(deps, updated);
}

/**
 * Schedules a draft or reschedules a scheduled campaign at `at` (ISO 8601, in the future) or at
 * `localTime` ("YYYY-MM-DDTHH:mm" on the business's wall clock, in its time zone), or unschedules
 * it (both empty: back to draft). Publishes CampaignScheduled (at the business's instant: the
 * calendar shows it on the business's day). Keeps the business's zone; a campaign at each
 * contact's local time starts sending when the first zone reaches that wall-clock time.
 */
export async function scheduleCampaign(
  deps: Deps & Pick<NotificationsDeps, "zones">,
  caller: Caller,
  input: { campaignId: string; at: string; localTime?: string },
): Promise<CampaignView> {
  const current = await mustGet(deps, caller, input.campaignId);
  if (!EDITABLE.includes(current.status)) locked();
  let at: Date | null = null;
  const zone = zoneOrUtc(await deps.zones.zoneOf(current.userId, current.projectId));
  if (input.localTime) {
    at = input.localTime.length <= 20 ? instantAt(input.localTime, zone) : null;
    if (!at) throw badRequest({ localTime: "Give a date and time (YYYY-MM-DDTHH:mm)" });
    if (at.getTime() <= deps.now().getTime()) throw badRequest({ localTime: "Choose a time in the future" });
    ensureReady(current);
  } else if (input.at !== "") {
    at = new Date(input.at);
    if (Number.isNaN(at.getTime()) || input.at.length > 40) throw badRequest({ at: "Give a date and time" });
    if (at.getTime() <= deps.now().getTime()) throw badRequest({ at: "Choose a time in the future" });
    ensureReady(current);
  }
  const business = at ? await senderFooter(deps, caller, current) : current.business;
  const event = deps.email.events.campaignScheduled({
    userId: current.userId,
    projectId: current.projectId,
    campaignId: current._id,
    name: current.name,
    at: at ? at.toISOString() : "",
  });
  const updated = await deps.stores.campaigns.transition(
    current._id,
    EDITABLE,
    {
      status: at ? "scheduled" : "draft",
      scheduledAt: at,
      timeZone: at ? zone : "",
      startsAt: at ? startOfSending(at, zone, current.sendTimeBy ?? "business") : null,
      business,
    },
    deps.now(),
    event,
  );
  if (!updated) locked();
  deps.email.kick();
  return view(deps, updated);
}

export async function pauseCampaign(deps: Deps, caller: Caller, campaignId: string): Promise<CampaignView> {
  const current = await mustGet(deps, caller, campaignId);
  const updated = await deps.stores.campaigns.transition(current._id, ["sending"], { status: "paused" }, deps.now());
  if (!updated) throw appError("CONFLICT", "Only a campaign that is sending can be paused");
  return view(deps, updated);
}

export async function resumeCampaign(deps: Deps, caller: Caller, campaignId: string): Promise<CampaignView> {
  const current = await mustGet(deps, caller, campaignId);
  const updated = await deps.stores.campaigns.transition(
    current._id,
    ["paused"],
    { status: "sending", waitingCheckedAt: null },
    deps.now(),
  );
  if (!updated) throw appError("CONFLICT", "Only a paused campaign can be resumed");
  return view(deps, updated);
}

/** One test email to `email`: no consent, no tracking, not counted against the plan. */
export async function sendTestEmail(
  deps: Deps,
  caller: Caller,
  input: { campaignId: string; email: string },
): Promise<{ messageId: string }> {
  const campaign = await mustGet(deps, caller, input.campaignId);
  const invalid = emailError(input.email);
  if (invalid) throw badRequest({ email: invalid });
  const email = normalizeEmail(input.email);
  if (!campaign.html.trim()) throw badRequest({ html: "The email has no content" });
  const business = await deps.email.business.footer(caller.userId, campaign.projectId, caller.token);
  const renderId = `test-${randomUUID()}`;
  const composed = await composeUntracked(deps, campaign, { id: renderId, business, email, subjectPrefix: "[Test] " });
  const { provider } = await deps.email.providers.providerFor(caller.userId, campaign.projectId).catch((error) => {
    if (pausesSending(error)) throw appError("CONFLICT", error.message);
    throw error;
  });
  const sender = await deps.email.senders?.resolve(caller.userId, campaign.projectId, business.name);
  try {
    return await provider.send({
      to: email,
      subject: composed.subject,
      html: composed.html,
      text: composed.text,
      headers: composed.headers,
      messageId: `<${renderId}@${new URL(deps.publicOrigin).hostname}>`,
      deliveryId: renderId,
      ...(sender ? { sender } : {}),
    });
  } catch (error) {
    if (pausesSending(error)) throw appError("CONFLICT", error.message);
    throw appError(
      "UNAVAILABLE",
      `The test email could not be sent: ${error instanceof Error ? error.message : error}`,
    );
  }
}

export interface RecipientView {
  contactId: string;
  email: string;
  status: "queued" | "sent" | "failed" | "skipped" | "bounced" | "complained";
  variant: string;
  sentAt: Date | null;
  openedAt: Date | null;
  clickedAt: Date | null;
  error: string;
  /** Sent again after an attempt that expired without an outcome: may have received it twice. */
  possibleDuplicate: boolean;
}

/** The recipient's status from its facts (a bounce or complaint outranks sent). */
export function recipientOf(delivery: DeliveryDoc, facts: FactDoc[]): RecipientView {
  const at = (kind: FactDoc["kind"]) => facts.find((f) => f.kind === kind);
  const final = facts.find((f) => FINAL_FACTS.includes(f.kind));
  const status: RecipientView["status"] = at("complained")
    ? "complained"
    : at("bounced")
      ? "bounced"
      : ((final?.kind as RecipientView["status"] | undefined) ?? "queued");
  return {
    contactId: delivery.contactId,
    email: delivery.email,
    status,
    variant: delivery.variant,
    sentAt: at("sent")?.at ?? null,
    openedAt: at("opened")?.at ?? null,
    clickedAt: at("clicked")?.at ?? null,
    error: at("failed")?.detail ?? at("skipped")?.detail ?? "",
    possibleDuplicate: at("resent") !== undefined,
  };
}

export async function listRecipients(
  deps: Deps,
  caller: Caller,
  input: { campaignId: string; status: string; page: number; pageSize: number },
): Promise<{ items: RecipientView[]; count: number; page: number; pageSize: number }> {
  const campaign = await mustGet(deps, caller, input.campaignId);
  const { page, pageSize } = paging(input.page, input.pageSize);
  const [deliveries, facts] = await Promise.all([
    deps.stores.email.campaignDeliveries(campaign._id),
    deps.stores.email.campaignFacts(campaign._id, [
      "sent",
      "failed",
      "skipped",
      "opened",
      "clicked",
      "bounced",
      "complained",
      "resent",
    ]),
  ]);
  const byDelivery = new Map<string, FactDoc[]>();
  for (const fact of facts) byDelivery.set(fact.deliveryId, [...(byDelivery.get(fact.deliveryId) ?? []), fact]);
  const all = deliveries
    .map((d) => recipientOf(d, byDelivery.get(d._id) ?? []))
    .filter((r) => !input.status || r.status === input.status)
    .sort((a, b) => a.email.localeCompare(b.email));
  return { items: all.slice((page - 1) * pageSize, page * pageSize), count: all.length, page, pageSize };
}

export const CAMPAIGN_STATUSES: readonly CampaignStatus[] = [
  "draft",
  "scheduled",
  "sending",
  "paused",
  "sent",
  "failed",
];

/** Recipients a preview offers to render the email for instead of the first one. */
const PREVIEW_CHOICES = 20;

export interface CampaignPreview {
  subject: string;
  preheader: string;
  html: string;
  text: string;
  contact: { contactId: string; email: string; firstName: string; lastName: string } | null;
  members: number;
  recipients: number;
  excluded: { reason: string; count: number }[];
  choices: { contactId: string; email: string; firstName: string; lastName: string }[];
}

/**
 * The campaign as one member of its segment would get it (`contactId`, else the first recipient,
 * else the first member): smart values filled, the footer with the business's address and the
 * contact's own unsubscribe link, no tracking; with who in the segment gets it (subscribed, with
 * an address) and how many do not, by reason. Sends nothing, records nothing.
 * @throws NOT_FOUND for another user's campaign or an unknown segment.
 */
export async function previewCampaign(
  deps: Deps,
  caller: Caller,
  input: { campaignId: string; contactId: string },
): Promise<CampaignPreview> {
  const campaign = await mustGet(deps, caller, input.campaignId);
  let audience: AudienceCount = { members: 0, recipients: 0, excluded: [] };
  const seen = new Set<string>();
  const choices: EmailRecipient[] = [];
  let chosen: EmailRecipient | null = null;
  let firstMember: EmailRecipient | null = null;
  for await (const page of deps.email.contacts.segmentMembers(caller.userId, campaign.projectId, campaign.segmentId)) {
    audience = countAudience(page, audience, seen);
    for (const member of page) {
      firstMember ??= member;
      if (input.contactId && member.contactId === input.contactId) chosen = member;
      if (exclusionOf(member) === null && choices.length < PREVIEW_CHOICES) choices.push(member);
    }
  }
  const contact = chosen ?? choices[0] ?? firstMember;
  const business = await deps.email.business.footer(caller.userId, campaign.projectId, caller.token);
  const composed = await composeUntracked(deps, campaign, { id: `preview-${randomUUID()}`, business, contact });
  const person = (c: EmailRecipient) => ({
    contactId: c.contactId,
    email: c.email,
    firstName: c.firstName,
    lastName: c.lastName,
  });
  return {
    subject: composed.subject,
    preheader: campaign.preheader,
    html: composed.html,
    text: composed.text,
    contact: contact ? person(contact) : null,
    members: audience.members,
    recipients: audience.recipients,
    excluded: audience.excluded,
    choices: choices.map(person),
  };
}
