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
