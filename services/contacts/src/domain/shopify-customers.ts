/**
 * A Shopify store's customers as contacts: the Admin GraphQL queries Crafter sends, a customer's
 * fields as a contact's, and its email marketing consent mapped to Crafter's consent. Pure.
 * Shapes: https://shopify.dev/docs/api/admin-graphql/2025-01/objects/Customer and
 * https://shopify.dev/docs/api/admin-graphql/2025-01/objects/CustomerEmailMarketingConsentState
 */
import { createHash } from "node:crypto";
import { emailError, normalizeEmail } from "@crafter/kit";
import { cleanTags, MAX_TAG_LENGTH, MAX_TAGS } from "./contact";
import type { ConsentStatus } from "./fields";

/** Customers per page: 100 × 3 points (the customer, its money, its consent) + 2 ≈ 302 of a 2,000-point bucket. */
export const CUSTOMERS_PAGE = 100;

const CUSTOMER_FIELDS = `id firstName lastName email phone tags numberOfOrders createdAt updatedAt
  amountSpent { amount currencyCode }
  emailMarketingConsent { marketingState marketingOptInLevel consentUpdatedAt }`;

/** One page of the store's customers, oldest id first. */
export const CUSTOMERS_QUERY = `query Customers($first: Int!, $after: String) {
  customers(first: $first, after: $after, sortKey: ID) {
    nodes { ${CUSTOMER_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** One customer by its GraphQL id. */
export const CUSTOMER_QUERY = `query Customer($id: ID!) {
  customer(id: $id) { ${CUSTOMER_FIELDS} }
}`;

/** Shopify's email marketing states (CustomerEmailMarketingState). */
export type MarketingState = "NOT_SUBSCRIBED" | "PENDING" | "SUBSCRIBED" | "UNSUBSCRIBED" | "REDACTED" | "INVALID";

/** A customer as CUSTOMERS_QUERY and CUSTOMER_QUERY read it. */
export interface ShopifyCustomer {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  tags: string[];
  /** UnsignedInt64, which Shopify writes as a string. */
  numberOfOrders: string | number;
  createdAt: string;
  updatedAt: string;
  amountSpent: { amount: string; currencyCode: string } | null;
  /** null when the customer has no email. */
  emailMarketingConsent: {
    marketingState: MarketingState;
    marketingOptInLevel: "SINGLE_OPT_IN" | "CONFIRMED_OPT_IN" | "UNKNOWN" | null;
    consentUpdatedAt: string | null;
  } | null;
}

export interface CustomersPage {
  customers: { nodes: ShopifyCustomer[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

/** The contact fields the store owns; every other field stays the owner's. */
export interface CustomerValues {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  /** The customer's tags (cleaned, at most MAX_TAGS, each at most MAX_TAG_LENGTH). */
  tags: string[];
  /** Orders placed (numberOfOrders). */
  orderCount: number;
  /** Total spent (amountSpent.amount) in `currency`. */
  totalSpent: number;
  currency: string;
  /** When the customer was created in the store. */
  customerSince?: Date;
}

const cut = (text: string | null | undefined, max: number) => (text ?? "").trim().slice(0, max);

const dateOf = (text: string | null | undefined): Date | undefined => {
  const time = Date.parse(text ?? "");
  return Number.isNaN(time) ? undefined : new Date(time);
};

/**
 * A customer's fields as a contact's: names, email (normalised), phone, tags, order count, total
 * spent and customer since, each within the contact's limits.
 * @returns null when the customer has no usable email (a contact is keyed by its email).
 */
export function customerValues(customer: ShopifyCustomer): CustomerValues | null {
  if (!customer.email || emailError(customer.email)) return null;
  const phone = cut(customer.phone, 41);
  const orders = Number(customer.numberOfOrders);
  const spent = Number(customer.amountSpent?.amount);
  return {
    email: normalizeEmail(customer.email),
    firstName: cut(customer.firstName, 100),
    lastName: cut(customer.lastName, 100),
    phone: phone.length > 40 ? "" : phone,
    tags: cleanTags((customer.tags ?? []).filter((tag) => tag.trim().length <= MAX_TAG_LENGTH)).slice(0, MAX_TAGS),
    orderCount: Number.isSafeInteger(orders) && orders >= 0 ? orders : 0,
    totalSpent: Number.isFinite(spent) && spent >= 0 ? Math.round(spent * 100) / 100 : 0,
    currency: /^[A-Z]{3}$/.test(customer.amountSpent?.currencyCode ?? "") ? customer.amountSpent!.currencyCode : "",
    customerSince: dateOf(customer.createdAt),
  };
}

/** What Shopify says of a customer's email marketing consent, as Crafter's status with its evidence. */
export interface ShopifyConsent {
  /** SUBSCRIBED → subscribed; PENDING → pending; NOT_SUBSCRIBED, UNSUBSCRIBED, REDACTED, INVALID → unsubscribed. */
  status: Extract<ConsentStatus, "subscribed" | "pending" | "unsubscribed">;
  /** consentUpdatedAt; null when Shopify has none. */
  at: Date | null;
  state: MarketingState;
  level: string | null;
}

/** A customer's consent: only SUBSCRIBED subscribes; no consent record (no email) is not subscribed. */
export function shopifyConsent(customer: Pick<ShopifyCustomer, "emailMarketingConsent">): ShopifyConsent {
  const consent = customer.emailMarketingConsent;
  const state: MarketingState = consent?.marketingState ?? "NOT_SUBSCRIBED";
  return {
    status: state === "SUBSCRIBED" ? "subscribed" : state === "PENDING" ? "pending" : "unsubscribed",
    at: dateOf(consent?.consentUpdatedAt) ?? null,
    state,
    level: consent?.marketingOptInLevel ?? null,
  };
}

const words = (value: string) => value.toLowerCase().replace(/_/g, " ");

/** The consent history's source of a change Shopify made: "Shopify: subscribed, confirmed opt-in". */
export function consentSource(consent: ShopifyConsent): string {
  const level =
    consent.status === "subscribed" && consent.level ? `, ${words(consent.level).replace("opt in", "opt-in")}` : "";
  return `Shopify: ${words(consent.state)}${level}`;
}

/**
 * The consent a contact gets from Shopify's, or null to keep its own:
 * - a new contact takes Shopify's (a missing consentUpdatedAt reads as `now`);
 * - bounced and complained stay (what the mail servers said outranks the store);
 * - a pending contact (no decision yet), or one whose consent Shopify set last (`fromShopifyAt`
 *   is the contact's `consentAt`), takes Shopify's;
 * - otherwise Crafter's own decision (a confirmed double opt-in, an unsubscribe link) stands
 *   unless Shopify's is newer: an unsubscribed contact is subscribed again only by a SUBSCRIBED
 *   record dated after its unsubscribe.
 * Only Shopify's SUBSCRIBED ever yields `subscribed`.
 */
export function nextConsent(
  current: { status: ConsentStatus; at: Date | undefined } | null,
  fromShopifyAt: Date | undefined,
  shopify: ShopifyConsent,
  now: Date,
): { status: ConsentStatus; at: Date } | null {
  const take = { status: shopify.status, at: shopify.at ?? now };
  if (!current) return take;
  if (current.status === "bounced" || current.status === "complained") return null;
  if (current.status === shopify.status) return null;
  if (current.status === "pending") return take;
  if (fromShopifyAt && current.at && fromShopifyAt.getTime() === current.at.getTime()) return take;
  if (shopify.at && (!current.at || shopify.at.getTime() > current.at.getTime())) return take;
  return null;
}

/**
 * A contact's tags after a sync: its own tags kept, the tags Shopify gave last time (`before`)
 * replaced by Shopify's current ones, compared case-insensitively; at most MAX_TAGS.
 */
export function mergeTags(current: readonly string[], before: readonly string[], next: readonly string[]): string[] {
  const old = new Set(before.map((tag) => tag.toLowerCase()));
  return cleanTags([...current.filter((tag) => !old.has(tag.toLowerCase())), ...next]).slice(0, MAX_TAGS);
}

/**
 * The id of a customer in a project: a UUID derived from both. The link (customer → contact) is
 * stored under it, and a contact the sync creates gets it as its `_id`, so an import, a webhook and
 * a redelivery all find the one contact and no lookup comes first.
 */
export function customerContactId(projectId: string, customerGid: string): string {
  const hex = createHash("sha256").update(`shopify-customer|${projectId}|${customerGid}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
