import { createHash } from "node:crypto";
import { appError, badRequest, type Caller, isAppError } from "@crafter/kit";
import type { ContactsDeps } from "../deps";
import { type ContactFields, checkContactFields, isConsentStatus } from "../domain/contact";
import {
  asValueErrors,
  checkLeadForm,
  DEFAULT_LEAD_FORM,
  fillEmptyFields,
  type LeadFormContent,
  submissionFields,
} from "../domain/lead-form";
import { CONFIRM_TTL_S, confirmLink, contactLinks, signLinkToken, verifyLinkToken } from "../domain/links";
import type { Scope, StoredContact } from "../store/contact.repository";
import type { LeadFormDoc, StoredSubmission } from "../store/lead.repository";
import { newContactDoc, profileRoom, recordInteraction, saveFields, setConsent, stateOf } from "./contacts";
import { customDefinitions, paging, scopeOf } from "./scope";

type Deps = Pick<ContactsDeps, "stores" | "events" | "kick" | "now" | "plans" | "links" | "logger">;

const refOf = (doc: Pick<StoredContact, "_id" | "userId" | "projectId" | "email">) => ({
  userId: doc.userId,
  projectId: doc.projectId,
  contactId: doc._id,
  email: doc.email,
});

/** The interaction type a lead-form submission is recorded as on its contact's timeline. */
export const FORM_INTERACTION = "form";

const notFoundForm = () => appError("NOT_FOUND", "This form does not exist or is no longer open.");
const invalidLink = () => appError("CONTACT_LINK_INVALID");

/** The project's lead form (created with defaults on first read). */
export async function getLeadForm(deps: Pick<Deps, "stores" | "now">, caller: Caller, input: { projectId: string }) {
  return deps.stores.leads.formOf(scopeOf(caller, input.projectId), DEFAULT_LEAD_FORM, deps.now());
}

/**
 * Saves the project's lead form: fields are contact fields or the project's custom fields; email is
 * always there and required. @throws CR_ERR_BAD_REQUEST per field.
 */
export async function saveLeadForm(
  deps: Pick<Deps, "stores" | "now">,
  caller: Caller,
  input: { projectId: string; form: LeadFormContent },
): Promise<LeadFormDoc> {
  const scope = scopeOf(caller, input.projectId);
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const checked = checkLeadForm(input.form, customDefinitions(settings));
  if (!checked.ok) throw badRequest(checked.fields);
  const form = await deps.stores.leads.formOf(scope, DEFAULT_LEAD_FORM, deps.now());
  const saved = await deps.stores.leads.save(form._id, checked.value, deps.now());
  if (!saved) throw appError("NOT_FOUND", "No lead form.");
  return saved;
}

/** One page of the project's form submissions, newest first. */
export async function listSubmissions(
  deps: Pick<Deps, "stores" | "now">,
  caller: Caller,
  input: { projectId: string; page: number; pageSize: number },
): Promise<{ items: StoredSubmission[]; count: number; page: number; totalPages: number }> {
  const form = await getLeadForm(deps, caller, input);
  const { page, pageSize } = paging(input.page, input.pageSize);
  const { items, count } = await deps.stores.leads.page(form._id, page, pageSize);
  return { items, count, page, totalPages: Math.max(1, Math.ceil(count / pageSize)) };
}

/** The form a visitor fills in. @throws NOT_FOUND */
export async function getPublicForm(deps: Pick<Deps, "stores">, formId: string): Promise<LeadFormDoc> {
  const form = formId.length <= 64 ? await deps.stores.leads.byId(formId) : null;
  if (!form) throw notFoundForm();
  return form;
}

/**
 * Creates a contact (source "lead form", consent pending) or updates the one with that email, or,
 * for a contact the plan has no room for, refuses (LEAD_CAPTURE_FULL). Shared by the form and the
 * assistant. `contactId`: the id a new contact gets (a submission's own, so that settling it again
 * finds the contact it made instead of making another). @returns the contact and whether it is new.
 */
export async function captureContact(
  deps: Deps,
  scope: Scope,
  fields: ContactFields,
  source: "lead form" | "lead assistant",
  signal?: AbortSignal,
  contactId?: string,
): Promise<{ contact: StoredContact; created: boolean }> {
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const custom = customDefinitions(settings);
  const existing = await deps.stores.contacts.byEmail(scope, fields.email);
  if (existing) {
    // A contact this submission made before a crash: its consent change may be missing (keyed, so appended once).
    if (contactId && existing._id === contactId) await appendCaptureConsent(deps, scope, existing, source);
    // Anyone who knows the email can post it: only the fields the contact has empty are filled;
    // names, tags, type and consent stay as the owner or the contact left them.
    const fill = fillEmptyFields(stateOf(existing), fields);
    if (Object.keys(fill).length === 0) return { contact: existing, created: false };
    const merged = checkContactFields(fill, { customFields: custom, contactTypes: [] }, stateOf(existing));
    if (!merged.ok) throw badRequest(asValueErrors(merged.fields));
    const contact = await saveFields(deps, scope, existing, merged.value, custom);
    return { contact, created: false };
  }
  const { room } = await profileRoom(deps, scope.userId, signal);
  if (room <= 0) throw appError("LEAD_CAPTURE_FULL");
  const now = deps.now();
  const doc = {
    ...newContactDoc(scope, fields, source, "pending", now, custom),
    ...(contactId ? { _id: contactId } : {}),
  };
  if (!(await deps.stores.contacts.insert(doc, deps.events.created(refOf(doc), source, "pending")))) {
    // Another submission with this email won the insert (or this one's, before a crash): update that one instead.
    return captureContact(deps, scope, fields, source, signal, contactId);
  }
  await appendCaptureConsent(deps, scope, doc, source);
  deps.kick();
  return { contact: doc, created: true };
}

/** The consent change of a captured contact, keyed by the contact (appended again, it adds nothing). */
async function appendCaptureConsent(
  deps: Deps,
  scope: Scope,
  contact: Pick<StoredContact, "_id" | "createdAt">,
  source: string,
): Promise<void> {
  await deps.stores.timeline.appendConsents([
    {
      _id: `capture:${contact._id}`,
      ...scope,
      contactId: contact._id,
      status: "pending",
      source,
      at: contact.createdAt,
    },
  ]);
}

/** A UUID (v5-shaped) derived from `parts`: the same parts, the same id. */
function derivedId(...parts: string[]): string {
  const hex = createHash("sha256").update(parts.join("\u0000")).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A visitor's submission: values checked against the form (errors as `values.<key>`, nothing stored
 * on an error), then recorded as received before anything else, then settled (`settleSubmission`):
 * the contact made or updated, the interaction, the double opt-in. `submissionKey` (the request's
 * Idempotency-Key) makes a retry the same submission: a retry after a failure settles the one
 * stored, and never makes a second. A crash at any step leaves a received submission that a retry
 * or the sweep (`settleUnsettled`) settles, each step applied once.
 * @throws NOT_FOUND, CR_ERR_BAD_REQUEST, LEAD_CAPTURE_FULL.
 */
export async function submitLeadForm(
  deps: Deps,
  input: { formId: string; values: Record<string, unknown>; submissionKey?: string },
): Promise<{ thankYouMessage: string }> {
  const form = await getPublicForm(deps, input.formId);
  const scope = { userId: form.userId, projectId: form.projectId };
  const given = submissionFields(form.fields, input.values);
  if (!given.ok) throw badRequest(given.fields);
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const checked = checkContactFields(given.value, { customFields: customDefinitions(settings), contactTypes: [] });
  if (!checked.ok) throw badRequest(asValueErrors(checked.fields));
  const submission = await deps.stores.leads.receive({
    _id: input.submissionKey ? derivedId("lead-submission", form._id, input.submissionKey) : crypto.randomUUID(),
    formId: form._id,
    ...scope,
    email: checked.value.email,
    values: given.values,
    fields: checked.value as unknown as Record<string, unknown>,
    createdAt: deps.now(),
  });
  await settleSubmission(deps, submission, form);
  return { thankYouMessage: form.thankYouMessage };
}

/**
 * Settles a received submission, each step idempotent: the contact (a new one gets an id derived
 * from the submission; an existing one only has its empty fields filled), the interaction (its id
 * derived from the submission), then the submission itself, once, with ContactConsentRequested
 * (an id derived from the submission) unless the contact has consent already. A settled one is
 * left as it is. A contact over the plan's limit: the submission is dropped, LEAD_CAPTURE_FULL.
 */
export async function settleSubmission(deps: Deps, submission: StoredSubmission, form: LeadFormDoc): Promise<void> {
  if (submission.status !== "received") return;
  const scope = { userId: submission.userId, projectId: submission.projectId };
  const fields = restoreFields(submission.fields ?? { email: submission.email });
  let contact: StoredContact;
  try {
    ({ contact } = await captureContact(
      deps,
      scope,
      fields,
      "lead form",
      undefined,
      derivedId("lead-contact", submission._id),
    ));
  } catch (error) {
    if (isAppError(error) && error.code === "LEAD_CAPTURE_FULL") await deps.stores.leads.drop(submission._id);
    throw error;
  }
  await recordInteraction(
    deps,
    scope,
    contact._id,
    FORM_INTERACTION,
    `Submitted the form "${form.title}"`,
    submission.createdAt,
    derivedId("lead-interaction", submission._id),
  );
  const needsConfirm = contact.consent !== "subscribed" && contact.consent !== "complained";
  const events = [];
  if (needsConfirm) {
    const token = signLinkToken(deps.links.secret, {
      kind: "confirm",
      submissionId: submission._id,
      exp: Math.floor(deps.now().getTime() / 1000) + CONFIRM_TTL_S,
    });
    const event = deps.events.consentRequested(
      refOf(contact),
      contact.firstName,
      { confirmUrl: confirmLink(deps.links.origin, token), preferencesUrl: preferencesOf(deps, contact) },
      form.title,
    );
    events.push({ ...event, id: derivedId("lead-consent-requested", submission._id) });
  }
  if (await deps.stores.leads.settle(submission._id, contact._id, needsConfirm ? "pending" : "confirmed", events)) {
    if (needsConfirm) deps.kick();
  }
}

/** The checked contact fields as stored in a submission (dates come back as dates or strings). */
function restoreFields(stored: Record<string, unknown>): ContactFields {
  const fields = { ...stored } as unknown as ContactFields;
  if (typeof stored.customerSince === "string") fields.customerSince = new Date(stored.customerSince);
  return fields;
}

/** Settles what a crash left received for over `olderThanMs` (at most 100 a call). @returns how many it settled. */
export async function settleUnsettled(deps: Deps, olderThanMs = 30_000): Promise<number> {
  const waiting = await deps.stores.leads.unsettled(new Date(deps.now().getTime() - olderThanMs), 100);
  let settled = 0;
  for (const submission of waiting) {
    const form = await deps.stores.leads.byId(submission.formId);
    try {
      if (!form) await deps.stores.leads.drop(submission._id);
      else await settleSubmission(deps, submission, form);
      settled++;
    } catch (error) {
      if (!isAppError(error) || error.code !== "LEAD_CAPTURE_FULL")
        deps.logger.warn({ err: error, submissionId: submission._id }, "lead submission not settled; retried later");
    }
  }
  return settled;
}

/** The contact's sealed preference centre link (expires after CONTACT_LINK_TTL_S). */
export function preferencesOf(deps: Pick<Deps, "links">, contact: StoredContact): string {
  const token = signLinkToken(deps.links.secret, {
    kind: "contact",
    userId: contact.userId,
    projectId: contact.projectId,
    contactId: contact._id,
  });
  return contactLinks(deps.links.origin, token).preferencesUrl;
}

/** The payload of a genuine token of `kind`. @throws CONTACT_LINK_INVALID */
function openToken<K extends "confirm" | "contact">(deps: Pick<Deps, "links" | "now">, token: string, kind: K) {
  const verified = verifyLinkToken(deps.links.secret, token, Math.floor(deps.now().getTime() / 1000));
  if (!verified.ok || verified.payload.kind !== kind) throw invalidLink();
  return verified.payload as Extract<typeof verified.payload, { kind: K }>;
}

/**
 * The double opt-in: sets the contact `subscribed` (source "lead form") and publishes LeadCaptured,
 * once per submission (a second click answers the same and publishes nothing). The link of an "Ask
 * for permission" email names the ask instead: it subscribes the contact (source "double opt-in")
 * unless it is subscribed already.
 * @returns the consent, and whose contact it is (the page shows that business's brand).
 * @throws CONTACT_LINK_INVALID (forged, expired, or its contact is gone).
 */
export async function confirmConsent(
  deps: Deps,
  token: string,
): Promise<{ consent: string; userId: string; projectId: string }> {
  const { submissionId } = openToken(deps, token, "confirm");
  const submission = await deps.stores.leads.submission(submissionId);
  if (!submission) return confirmAsk(deps, submissionId);
  const scope = { userId: submission.userId, projectId: submission.projectId };
  const contact = await deps.stores.contacts.get(scope, submission.contactId);
  if (!contact) throw invalidLink();
  if (submission.status === "confirmed") return { consent: contact.consent, ...scope };
  const updated = await setConsent(deps, scope, contact, "subscribed", "lead form");
  await deps.stores.leads.confirm(
    submission._id,
    deps.now(),
    deps.events.leadCaptured(refOf(contact), "lead form", submission.formId),
  );
  deps.kick();
  return { consent: updated.consent, ...scope };
}

/** The confirm link of an "Ask for permission" email. @throws CONTACT_LINK_INVALID */
async function confirmAsk(deps: Deps, askId: string): Promise<{ consent: string; userId: string; projectId: string }> {
  const ask = await deps.stores.consentAsks.get(askId);
  if (!ask) throw invalidLink();
  const scope = { userId: ask.userId, projectId: ask.projectId };
  const contact = await deps.stores.contacts.get(scope, ask.contactId);
  if (!contact) throw invalidLink();
  if (contact.consent === "subscribed") return { consent: contact.consent, ...scope };
  const updated = await setConsent(deps, scope, contact, "subscribed", "double opt-in");
  return { consent: updated.consent, ...scope };
}

/** The contact a preference/unsubscribe token names. @throws CONTACT_LINK_INVALID */
async function contactOfToken(deps: Deps, token: string): Promise<{ scope: Scope; contact: StoredContact }> {
  const { userId, projectId, contactId } = openToken(deps, token, "contact");
  const scope = { userId, projectId };
  const contact = await deps.stores.contacts.get(scope, contactId);
  if (!contact) throw invalidLink();
  return { scope, contact };
}

/** The preference centre: the contact's email and consent. */
export async function getPreferences(deps: Deps, token: string): Promise<{ email: string; consent: string }> {
  const { contact } = await contactOfToken(deps, token);
  return { email: contact.email, consent: contact.consent };
}

/**
 * The contact's own choice in the preference centre (source "preferences"). Subscribing again is
 * the contact's explicit opt-in from a link only they received.
 * @throws CR_ERR_BAD_REQUEST (consent is subscribed or unsubscribed), CONTACT_LINK_INVALID.
 */
export async function setPreferences(
  deps: Deps,
  input: { token: string; consent: string },
): Promise<{ email: string; consent: string }> {
  if (input.consent !== "subscribed" && input.consent !== "unsubscribed")
    throw badRequest({ consent: "consent is subscribed or unsubscribed" });
  const { scope, contact } = await contactOfToken(deps, input.token);
  if (contact.consent === input.consent) return { email: contact.email, consent: contact.consent };
  const updated = await setConsent(deps, scope, contact, input.consent, "preferences");
  return { email: updated.email, consent: updated.consent };
}

/** RFC 8058 one-click unsubscribe (source "unsubscribe link"); idempotent. */
export async function unsubscribe(deps: Deps, token: string): Promise<{ email: string; consent: string }> {
  const { scope, contact } = await contactOfToken(deps, token);
  if (contact.consent === "unsubscribed") return { email: contact.email, consent: contact.consent };
  const updated = await setConsent(deps, scope, contact, "unsubscribed", "unsubscribe link");
  return { email: updated.email, consent: updated.consent };
}

/** The user named by a service caller, or the caller themselves. @throws CR_ERR_BAD_REQUEST */
export function actingUser(caller: Caller, userId: string): string {
  const id = caller.service ? userId : caller.userId;
  if (!id) throw badRequest({ userId: "userId is required" });
  if (id.length > 64) throw badRequest({ userId: "userId is too long" });
  return id;
}

/** The contact's sealed email links (expire after CONTACT_LINK_TTL_S). @throws NOT_FOUND */
export async function getContactLinks(
  deps: Pick<Deps, "stores" | "links">,
  caller: Caller,
  input: { userId: string; contactId: string },
): Promise<ReturnType<typeof contactLinks>> {
  const userId = actingUser(caller, input.userId);
  const contact = input.contactId.length <= 64 ? await deps.stores.contacts.ofUser(userId, input.contactId) : null;
  if (!contact) throw appError("NOT_FOUND", "No such contact.");
  const token = signLinkToken(deps.links.secret, {
    kind: "contact",
    userId,
    projectId: contact.projectId,
    contactId: contact._id,
  });
  return contactLinks(deps.links.origin, token);
}

/** A service's consent change naming the user (bounces, complaints). */
export function checkConsent(status: string): asserts status is Parameters<typeof setConsent>[3] {
  if (!isConsentStatus(status))
    throw badRequest({ consent: "Consent is pending, subscribed, unsubscribed, bounced or complained" });
}
