import { isDuplicateKey, OutboundError, type ShopGrant, ShopifyApiError } from "@crafter/kit";
import type { ContactsDeps } from "../deps";
import { type ContactFields, emptyContactFields } from "../domain/contact";
import {
  CUSTOMER_QUERY,
  CUSTOMERS_PAGE,
  CUSTOMERS_QUERY,
  type CustomersPage,
  consentSource,
  customerContactId,
  customerValues,
  mergeTags,
  nextConsent,
  type ShopifyCustomer,
  shopifyConsent,
} from "../domain/shopify-customers";
import type { ContactDoc, Scope, StoredContact } from "../store/contact.repository";
import type { ShopifyCustomerDoc } from "../store/shopify-customer.repository";
import { newContactDoc, planUpdate, profileRoom, removeContact } from "./contacts";
import { customDefinitions } from "./scope";

// A project's Shopify customers as contacts, kept in sync: a full import when the store is
// installed or the owner asks ("Sync now"), one customer at a time from webhooks (read again from
// the store, so a late delivery writes the current state). Account owns the connection; its
// events (account.connection.v1) drive both.

type Deps = Pick<ContactsDeps, "stores" | "events" | "kick" | "now" | "plans" | "shopify" | "logger">;

/** Pages read at most in one import (100 customers each). */
const MAX_PAGES = 500;

/**
 * Customers of a page saved side by side (each holds a FerretDB connection at a time): distinct
 * customers touch distinct contacts (Shopify keeps one customer per email).
 */
const SAVE_CONCURRENCY = 4;

const SOURCE = "Shopify";

/** How many more contacts the plan allows, read once per import and counted down as contacts are made. */
interface Room {
  left: number;
}

type Outcome = "written" | "unchanged" | "no_email" | "over_limit";

type CustomFields = ReturnType<typeof customDefinitions>;

async function consentHistory(deps: Deps, scope: Scope, contactId: string, status: string, at: Date, source: string) {
  // Keyed by the change itself: a redelivered webhook or a second import appends nothing.
  await deps.stores.timeline.appendConsents([
    {
      _id: `${contactId}:shopify:${status}:${at.toISOString()}`,
      userId: scope.userId,
      projectId: scope.projectId,
      contactId,
      status: status as ContactDoc["consent"],
      source,
      at,
    },
  ]);
}

/** Makes the contact of a customer no contact has yet (its `_id` derived from project and customer). */
async function createFor(
  deps: Deps,
  scope: Scope,
  customer: ShopifyCustomer,
  id: string,
  customFields: CustomFields,
): Promise<StoredContact | null> {
  const values = customerValues(customer)!;
  const consent = shopifyConsent(customer);
  const first = nextConsent(null, undefined, consent, deps.now())!;
  const fields: ContactFields = {
    ...emptyContactFields(),
    email: values.email,
    firstName: values.firstName,
    lastName: values.lastName,
    phone: values.phone,
    tags: values.tags,
    customerSince: values.customerSince,
  };
  const doc = {
    ...newContactDoc(scope, fields, SOURCE, first.status, deps.now(), customFields, first.at),
    _id: id,
    orderCount: values.orderCount,
    totalSpent: values.totalSpent,
    spentCurrency: values.currency,
  };
  const ref = { userId: scope.userId, projectId: scope.projectId, contactId: id, email: doc.email };
  if (!(await deps.stores.contacts.insert(doc, deps.events.created(ref, SOURCE, first.status)))) return null;
  await consentHistory(deps, scope, id, first.status, first.at, consentSource(consent));
  return doc;
}

/**
 * Writes one customer to its contact: found by its link, else by the id a created contact gets,
 * else by its email (a contact the business had: adopted, its own fields kept), else created
 * (within the plan's limit). Names and phone follow the store when it has them; tags are merged
 * (the store's last ones replaced); orders and total spent are the store's; consent follows
 * `nextConsent`. A customer without an email is no contact.
 */
async function saveCustomer(
  deps: Deps,
  scope: Scope,
  customer: ShopifyCustomer,
  room: Room | null,
  customFields: CustomFields,
): Promise<Outcome> {
  const values = customerValues(customer);
  const id = customerContactId(scope.projectId, customer.id);
  const link = await deps.stores.shopifyCustomers.get(id);
  if (!values) {
    if (link) await forget(deps, scope, id);
    return "no_email";
  }
  let contact = link ? await deps.stores.contacts.get(scope, link.contactId) : null;
  contact ??= await deps.stores.contacts.get(scope, id);
  contact ??= await deps.stores.contacts.byEmail(scope, values.email);
  const now = deps.now();
  if (!contact) {
    const left = room ?? { left: (await profileRoom(deps, scope.userId)).room };
    if (left.left <= 0) return "over_limit";
    // Taken before the insert (customers are saved side by side): the limit holds exactly.
    left.left -= 1;
    const made = await createFor(deps, scope, customer, id, customFields);
    if (made) {
      await putLink(deps, scope, customer.id, made._id, values.tags, made.consentAt, now);
      return "written";
    }
    left.left += 1;
    // The email became a contact meanwhile (this customer's, made by a concurrent sync, or a
    // form's, an import's): that one is the customer's.
    contact = await deps.stores.contacts.byEmail(scope, values.email);
    if (!contact) return "unchanged";
  }
  const outcome = await updateFrom(deps, scope, contact, customer, link, customFields);
  const linked =
    link !== null &&
    link.contactId === contact._id &&
    same(link.tags, values.tags) &&
    link.consentAt?.getTime() === (outcome.consentAt ?? link.consentAt)?.getTime();
  if (!linked)
    await putLink(deps, scope, customer.id, contact._id, values.tags, outcome.consentAt ?? link?.consentAt, now);
  return outcome.changed ? "written" : "unchanged";
}

async function putLink(
  deps: Deps,
  scope: Scope,
  customerGid: string,
  contactId: string,
  tags: string[],
  consentAt: Date | undefined,
  at: Date,
): Promise<void> {
  const doc: ShopifyCustomerDoc = {
    _id: customerContactId(scope.projectId, customerGid),
    userId: scope.userId,
    projectId: scope.projectId,
    customerGid,
    contactId,
    // Only a contact the sync made has the customer's derived id.
    created: contactId === customerContactId(scope.projectId, customerGid),
    tags,
    ...(consentAt ? { consentAt } : {}),
    updatedAt: at,
  };
  await deps.stores.shopifyCustomers.put(doc);
}

const same = (a: readonly string[], b: readonly string[]) => a.join("\n") === b.join("\n");

/** The store's fields on a contact that exists; nothing written when they are already there. */
async function updateFrom(
  deps: Deps,
  scope: Scope,
  contact: StoredContact,
  customer: ShopifyCustomer,
  link: ShopifyCustomerDoc | null,
  customFields: CustomFields,
): Promise<{ changed: boolean; consentAt?: Date }> {
  const values = customerValues(customer)!;
  const consent = shopifyConsent(customer);
  const now = deps.now();
  let email = contact.email;
  if (values.email !== contact.email) {
    const taken = await deps.stores.contacts.byEmail(scope, values.email);
    if (!taken) email = values.email;
    else deps.logger.info({ contactId: contact._id }, "a Shopify customer's new email is another contact's; kept");
  }
  const fields: ContactFields = {
    firstName: values.firstName || contact.firstName,
    lastName: values.lastName || contact.lastName,
    email,
    phone: values.phone || contact.phone,
    company: contact.company,
    customerKind: contact.customerKind as ContactFields["customerKind"],
    contactType: contact.contactType,
    tags: mergeTags(contact.tags ?? [], link?.tags ?? [], values.tags),
    custom: contact.custom ?? {},
    customerSince: contact.customerSince ?? values.customerSince,
    timeZone: contact.timeZone ?? "",
  };
  const next = nextConsent({ status: contact.consent, at: contact.consentAt }, link?.consentAt, consent, now);
  const extra: Partial<ContactDoc> = {
    orderCount: values.orderCount,
    totalSpent: values.totalSpent,
    spentCurrency: values.currency,
    ...(next ? { consent: next.status, consentAt: next.at } : {}),
  };
  const unchanged =
    fields.firstName === contact.firstName &&
    fields.lastName === contact.lastName &&
    fields.email === contact.email &&
    fields.phone === contact.phone &&
    same(fields.tags, contact.tags ?? []) &&
    fields.customerSince?.getTime() === contact.customerSince?.getTime() &&
    contact.orderCount === values.orderCount &&
    contact.totalSpent === values.totalSpent &&
    contact.spentCurrency === values.currency &&
    !next;
  if (unchanged) return { changed: false };
  const plan = planUpdate(deps, contact, fields, customFields, extra);
  const ref = { userId: scope.userId, projectId: scope.projectId, contactId: contact._id, email: fields.email };
  if (next?.status === "unsubscribed" && contact.consent !== "unsubscribed")
    plan.events.push(deps.events.unsubscribed(ref, consentSource(consent), next.at));
  try {
    await deps.stores.contacts.update(scope, contact._id, plan.set, plan.events);
  } catch (error) {
    // The new email became another contact's between the check and the write.
    if (!isDuplicateKey(error)) throw error;
    return { changed: false };
  }
  if (next) await consentHistory(deps, scope, contact._id, next.status, next.at, consentSource(consent));
  return { changed: true, consentAt: next?.at };
}

/**
 * Removes what the store gave a contact (customers/delete, customers/redact, shop/redact, a
 * customer gone from the store): a contact the sync created is deleted (tombstone with
 * ContactDeleted first, then its consent history and interactions); one the business had keeps
 * its own fields and consent, losing the store's tags, orders and total spent. Then the link.
 */
async function forget(deps: Deps, scope: Scope, linkId: string): Promise<boolean> {
  const link = await deps.stores.shopifyCustomers.get(linkId);
  const contact = await deps.stores.contacts.get(scope, link?.contactId ?? linkId);
  if (contact) {
    if (contact._id === linkId) await removeContact(deps, scope, contact);
    else {
      const old = new Set((link?.tags ?? []).map((tag) => tag.toLowerCase()));
      const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
      const plan = planUpdate(
        deps,
        contact,
        {
          firstName: contact.firstName,
          lastName: contact.lastName,
          email: contact.email,
          phone: contact.phone,
          company: contact.company,
          customerKind: contact.customerKind as ContactFields["customerKind"],
          contactType: contact.contactType,
          tags: (contact.tags ?? []).filter((tag) => !old.has(tag.toLowerCase())),
          custom: contact.custom ?? {},
          customerSince: contact.customerSince,
          timeZone: contact.timeZone ?? "",
        },
        customDefinitions(settings),
        { orderCount: null, totalSpent: null, spentCurrency: null },
      );
      await deps.stores.contacts.update(scope, contact._id, plan.set, plan.events);
    }
  }
  if (link) await deps.stores.shopifyCustomers.remove(linkId);
  return contact !== null;
}

const failureText = (error: unknown) =>
  error instanceof ShopifyApiError || error instanceof OutboundError
    ? error.message.slice(0, 300)
    : "The import stopped on an unexpected error.";

/**
 * Imports every customer of the project's store, a page of 100 at a time (cursor pagination,
 * waiting whenever Shopify answers THROTTLED), as contacts (see saveCustomer), within the plan's
 * contact limit; contacts of customers no longer in the store lose the store's data (`forget`).
 * Reports the outcome to account. Idempotent: an import run twice writes nothing the second time.
 * @returns how many customers are contacts after it; null when the store is not connected.
 */
export async function importShopifyCustomers(
  deps: Deps,
  input: { projectId: string; ownerUserId: string },
): Promise<number | null> {
  const grant = await deps.shopify.grant(input.projectId);
  if (!grant) return null;
  const scope: Scope = { userId: input.ownerUserId, projectId: input.projectId };
  const customFields = customDefinitions(await deps.stores.settings.get(scope.userId, scope.projectId));
  const room: Room = { left: (await profileRoom(deps, scope.userId)).room };
  const seen = new Set<string>();
  let after: string | null = null;
  let synced = 0;
  let overLimit = 0;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const data: CustomersPage = await deps.shopify.query<CustomersPage>(grant, CUSTOMERS_QUERY, {
        first: CUSTOMERS_PAGE,
        after,
      });
      const nodes = data.customers.nodes;
      for (let at = 0; at < nodes.length; at += SAVE_CONCURRENCY) {
        const slice = nodes.slice(at, at + SAVE_CONCURRENCY);
        const outcomes = await Promise.all(
          slice.map((customer) => saveCustomer(deps, scope, customer, room, customFields)),
        );
        outcomes.forEach((outcome, index) => {
          if (outcome === "over_limit") overLimit += 1;
          if (outcome === "written" || outcome === "unchanged") {
            seen.add(customerContactId(scope.projectId, slice[index]!.id));
            synced += 1;
          }
        });
      }
      if (!data.customers.pageInfo.hasNextPage || !data.customers.pageInfo.endCursor) {
        for (const id of await deps.stores.shopifyCustomers.idsOf(scope.projectId))
          if (!seen.has(id)) await forget(deps, scope, id);
        break;
      }
      after = data.customers.pageInfo.endCursor;
    }
  } catch (error) {
    if (!(error instanceof ShopifyApiError || error instanceof OutboundError)) throw error;
    deps.logger.warn({ projectId: input.projectId, err: error.message }, "the Shopify customers import stopped");
    deps.kick();
    await deps.shopify.report(input.projectId, "customers", synced, failureText(error));
    return synced;
  }
  deps.kick();
  await deps.shopify.report(
    input.projectId,
    "customers",
    synced,
    overLimit > 0
      ? `The plan's contact limit was reached: ${overLimit} customer${overLimit === 1 ? " was" : "s were"} not imported.`
      : "",
  );
  return synced;
}

/**
 * One customer the store announced (customers/create, customers/update: read again from the store,
 * so a late or repeated webhook writes the current state; customers/delete, customers/redact, or
 * gone: the store's data removed) or a whole shop to forget (shop/redact).
 */
export async function syncShopifyCustomer(
  deps: Deps,
  input: { projectId: string; ownerUserId: string; topic: string; customerGid: string },
): Promise<void> {
  const scope: Scope = { userId: input.ownerUserId, projectId: input.projectId };
  if (input.topic === "shop/redact") {
    for (const id of await deps.stores.shopifyCustomers.idsOf(scope.projectId)) await forget(deps, scope, id);
    deps.kick();
    return;
  }
  if (!/^gid:\/\/shopify\/Customer\/\d{1,20}$/.test(input.customerGid)) return;
  const id = customerContactId(scope.projectId, input.customerGid);
  if (input.topic === "customers/delete" || input.topic === "customers/redact") {
    await forget(deps, scope, id);
    deps.kick();
    return;
  }
  if (input.topic !== "customers/create" && input.topic !== "customers/update") return;
  const grant: ShopGrant | null = await deps.shopify.grant(input.projectId);
  if (!grant) return;
  let customer: ShopifyCustomer | null;
  try {
    customer = (
      await deps.shopify.query<{ customer: ShopifyCustomer | null }>(grant, CUSTOMER_QUERY, { id: input.customerGid })
    ).customer;
  } catch (error) {
    // The app was uninstalled meanwhile: app/uninstalled ends the connection.
    if (error instanceof ShopifyApiError && error.code === "UNAUTHORIZED") return;
    throw error;
  }
  if (!customer) await forget(deps, scope, id);
  else {
    const customFields = customDefinitions(await deps.stores.settings.get(scope.userId, scope.projectId));
    await saveCustomer(deps, scope, customer, null, customFields);
  }
  deps.kick();
}
