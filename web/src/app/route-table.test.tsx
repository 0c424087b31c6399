import { ROLES } from "@crafter/roles";
import { describe, expect, it } from "@jest/globals";
import { Suspense } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { arrangeMenu, menuEntries, type Viewer } from "../routing/access";
import { GUEST_PAGES } from "../routing/guard";
import { Gate } from "../routing/RouteGate";
import type { MenuPlacement } from "../routing/route-types";
import { APP_SHELL, LazyRouteGate, toRoute } from "./route-objects";
import { ROUTES } from "./routes";

/** Every flag the table names, enabled: the menus as a fully-flagged account sees them. */
const ALL_FLAGS = {
  enabledFeatures: ROUTES.flatMap((route) => (route.flag ? [route.flag] : [])),
  disabledFeatures: [],
};
const owner: Viewer = { role: "owner", flags: ALL_FLAGS, projectRole: "owner" };
const ids = (placement: MenuPlacement, viewer: Viewer) =>
  menuEntries(ROUTES, placement, viewer).map((entry) => entry.testId);

/** The page's HTML as the gate renders it for `viewer`; a page that starts to load shows "page-loading". */
function gated(path: string, viewer: Viewer): string {
  const entry = ROUTES.find((route) => route.path === path)!;
  const { Component } = entry;
  return renderToStaticMarkup(
    <MemoryRouter>
      <Suspense fallback={<span>page-loading</span>}>
        <Gate entry={entry} viewer={viewer}>
          <Component />
        </Gate>
      </Suspense>
    </MemoryRouter>,
  );
}

describe("the route table drives the menus", () => {
  it("orders the Create menu as the spec does, each entry opening its page", () => {
    const entries = menuEntries(ROUTES, "create", owner);
    expect(entries.map((entry) => [entry.label, entry.to])).toEqual([
      ["Campaign strategy", "/app/crafts/Campaign"],
      ["Contact", "/app/contacts/add"],
      ["Automation (from templates)", "/app/automation/templates"],
      ["Email", "/app/create/email"],
      ["Social media post", "/app/create/social-media-post"],
      ["Blog post", "/app/crafts/BlogWriter"],
      ["Podcast", "/app/crafts/PodcastWriter"],
      ["Ad", "/app/crafts/AdsWriter"],
      ["Web page", "/app/crafts/WebPageWriter"],
      ["Smart document", "/app/crafts/SmartEditor?standalone=1"],
    ]);
  });

  it("orders the main menu as the spec does, Contacts' children nested, the other pages after", () => {
    const items = arrangeMenu(menuEntries(ROUTES, "main", owner));
    expect(items.map((item) => item.entry.testId)).toEqual([
      "nav-dashboard",
      "nav-contents",
      "nav-content-calendar",
      "nav-campaigns",
      "nav-automation",
      "nav-contacts",
      "nav-strategy",
      "nav-offerings",
      "nav-business",
      "nav-assets",
    ]);
    const children = Object.fromEntries(items.map((item) => [item.entry.testId, item.children.map((c) => c.testId)]));
    expect(children["nav-contacts"]).toEqual(["nav-segments", "nav-lead-form", "nav-lead-assistant"]);
    expect(children["nav-campaigns"]).toEqual(["nav-email-templates", "nav-email-campaigns"]);
  });

  it("leaves out what a flag turns off, and stands a child alone when its parent is off", () => {
    const flags = { enabledFeatures: ["segment_view"], disabledFeatures: [] };
    const main = ids("main", { ...owner, flags });
    expect(main).not.toContain("nav-contacts");
    expect(main).not.toContain("nav-content-calendar");
    expect(main).not.toContain("nav-automation");
    expect(ids("create", { ...owner, flags })).not.toContain("nav-create-contact");
    expect(arrangeMenu(menuEntries(ROUTES, "main", { ...owner, flags })).map((i) => i.entry.testId)).toContain(
      "nav-segments",
    );
  });

  it("shows Admin in the user menu to superadmin and admin only", () => {
    expect(ids("user", owner)).toEqual(["nav-settings", "nav-subscription", "nav-payment-history"]);
    expect(ids("user", { ...owner, role: "admin" })).toEqual([
      "nav-settings",
      "nav-subscription",
      "nav-admin",
      "nav-payment-history",
    ]);
    for (const role of ROLES) {
      expect(ids("user", { ...owner, role }).includes("nav-admin")).toBe(role === "admin" || role === "superadmin");
    }
  });

  it("gives each entry its own test id and, within a placement, its own order", () => {
    const all = ROUTES.flatMap((route) => route.menu ?? []);
    expect(new Set(all.map((entry) => entry.testId)).size).toBe(all.length);
    for (const placement of ["main", "create", "user", "settings"] as const) {
      const orders = all.filter((entry) => entry.placement === placement).map((entry) => entry.order);
      expect(new Set(orders).size).toBe(orders.length);
    }
  });
});

describe("the route table drives the guard", () => {
  it("has one entry per path, every /app page is an app route and only they are", () => {
    const paths = ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const route of ROUTES) expect(route.access === "app").toBe(route.path.startsWith("/app/"));
  });

  it("opens only the welcome page and a team invitation before the user has a project", () => {
    const open = ROUTES.filter((route) => route.withoutProject).map((route) => route.path);
    expect(open.sort()).toEqual(["/app/invite", "/app/welcome"]);
    for (const route of ROUTES.filter((entry) => entry.withoutProject)) expect(route.access).toBe("app");
  });

  it("has as guest routes exactly the pages the callbackUrl check refuses", () => {
    const guests = ROUTES.filter((route) => route.access === "guest").map((route) => route.path);
    expect([...guests].sort()).toEqual([...GUEST_PAGES].sort());
  });

  it("puts every app page behind its gate in the router", () => {
    for (const route of ROUTES) {
      const element = toRoute(route).element as { type?: unknown; props?: { entry?: unknown } } | undefined;
      expect(element?.type === LazyRouteGate).toBe(route.access === "app");
      if (route.access === "app") expect(element?.props?.entry).toBe(route);
      expect(toRoute(route).handle).toBe(route);
    }
    expect(APP_SHELL).toEqual({ access: "app" });
  });

  it("never renders /app/admin for a non-admin: the not-available page, the page not even loaded", () => {
    for (const role of ["owner", "manager", "projectAdmin", "tester", "guest", null]) {
      const html = gated("/app/admin", { ...owner, role });
      expect(html).toContain('data-testid="page-not-available"');
      expect(html).toContain('data-reason="role"');
      expect(html).not.toContain("page-loading");
    }
    for (const role of ["admin", "superadmin"]) {
      const html = gated("/app/admin", { ...owner, role });
      expect(html).toContain("page-loading");
      expect(html).not.toContain("page-not-available");
    }
  });

  it("renders the not-available page for a flag that is off, and for a missing project permission", () => {
    const html = gated("/app/contacts", { ...owner, flags: { enabledFeatures: [], disabledFeatures: [] } });
    expect(html).toContain('data-reason="flag"');
    expect(html).not.toContain("page-loading");
    expect(gated("/app/contacts", owner)).toContain("page-loading");
    expect(gated("/app/settings/sender", { ...owner, projectRole: "manager" })).toContain('data-reason="project"');
    expect(gated("/app/settings/sender", { ...owner, projectRole: "projectAdmin" })).toContain("page-loading");
    // While the project role loads, the page waits instead of refusing.
    const waiting = gated("/app/settings/sender", { ...owner, projectRole: undefined });
    expect(waiting).not.toContain("page-not-available");
    expect(waiting).not.toContain("page-loading");
  });
});
