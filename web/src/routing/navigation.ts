import type { MenuEntry, MenuGroup } from "./route-types";

/**
 * The spec's navigation (section 2), by menu testId: the Create menu, the main entries and the
 * user menu, each in the spec's order. Entries declared by the route table are shown in this order;
 * an entry whose page is not built yet is simply absent, and entries the spec does not list
 * (another branch's page) follow after the spec's ones, in table order.
 */
export const NAV_ORDER: Record<MenuGroup, string[]> = {
  create: [
    "nav-create-campaign",
    "nav-create-contact",
    "nav-create-automation",
    "nav-create-email",
    "nav-create-social-media-post",
    "nav-create-blog-post",
    "nav-create-podcast",
    "nav-create-ad",
    "nav-create-web-page",
    "nav-create-smart-document",
  ],
  main: [
    "nav-dashboard",
    "nav-contents",
    "nav-content-calendar",
    "nav-campaigns",
    "nav-automation",
    "nav-contacts",
    "nav-segments",
    "nav-lead-form",
    "nav-lead-assistant",
    "nav-strategy",
    "nav-offerings",
    "nav-business",
  ],
  user: ["nav-settings", "nav-subscription", "nav-admin"],
};

export interface NavItem<E extends MenuEntry = MenuEntry> {
  entry: E;
  children: E[];
}

/**
 * Orders a group's entries by NAV_ORDER and puts each child under its parent (`parent` = the
 * parent's testId). A child whose parent is absent (its page or flag is off) stands on its own.
 */
export function arrangeMenu<E extends MenuEntry>(group: MenuGroup, entries: E[]): NavItem<E>[] {
  const order = NAV_ORDER[group];
  const rank = (entry: E) => {
    const at = order.indexOf(entry.testId);
    return at === -1 ? order.length : at;
  };
  const sorted = entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry) - rank(b.entry) || a.index - b.index)
    .map(({ entry }) => entry);
  const present = new Set(sorted.map((entry) => entry.testId));
  const items: NavItem<E>[] = [];
  for (const entry of sorted) {
    if (entry.parent && present.has(entry.parent)) continue;
    items.push({ entry, children: sorted.filter((child) => child.parent === entry.testId) });
  }
  return items;
}
