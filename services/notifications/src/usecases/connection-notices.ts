import type { NotifyDeps } from "./inbox";
import { notify } from "./inbox";

/**
 * The owner's in-app notice that a connection needs reconnecting (account's
 * ConnectionNeedsReconnecting): one per connection, whatever the number of deliveries, keyed by
 * the project, the provider and when it was connected.
 */
export async function noticeConnectionNeedsReconnecting(
  deps: NotifyDeps,
  event: {
    ownerUserId: string;
    projectId: string;
    provider: string;
    providerTitle: string;
    lastError: string;
    connectedAt: Date | null;
  },
): Promise<void> {
  if (!event.ownerUserId) return;
  const title = event.providerTitle || event.provider;
  await notify(deps, {
    userId: event.ownerUserId,
    level: "warning",
    title: `${title} needs reconnecting`,
    body: `${title} stopped accepting Crafter's access${event.lastError ? ` (${event.lastError})` : ""}. What uses it is paused until you connect it again in Settings › Integrations.`,
    link: "/app/settings/integrations",
    key: `connection-needs-reconnecting:${event.projectId}:${event.provider}:${event.connectedAt?.getTime() ?? 0}`,
  });
}

/**
 * The owner's in-app notice of Shopify's mandatory `customers/data_request` webhook (account's
 * ShopifyWebhookReceived): a customer asked the store for their data, and the store must give
 * what Crafter keeps about them. One per request (keyed by its webhook id), linking to the
 * contact found by the email Shopify sent, whose page exports everything Crafter keeps.
 */
export async function noticeShopifyDataRequest(
  deps: NotifyDeps,
  event: { ownerUserId: string; projectId: string; webhookId: string; customerEmail: string },
): Promise<void> {
  if (!event.ownerUserId || !event.webhookId) return;
  const email = event.customerEmail.trim().slice(0, 254);
  await notify(deps, {
    userId: event.ownerUserId,
    level: "warning",
    title: "A Shopify customer asked for their data",
    body: `${email || "A customer"} asked your Shopify store for the data kept about them. Open the contact and use Export data, then send the file to them (Shopify gives you 30 days).`,
    link: email ? `/app/contacts?q=${encodeURIComponent(email)}` : "/app/contacts",
    key: `shopify-data-request:${event.projectId}:${event.webhookId}`,
  });
}
