/// <reference lib="dom" />
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type GatewaySession, gatewayUrl, repoRoot } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type RouteRow, routeTable } from "./route-table";
import { launchChromium, signedInContext } from "./support";

// How every page of the dashboard's route table looks in Chromium, at a laptop's 1366×850 and a
// phone's 390×844: the page's own layout rules are applied (computed styles of its landmarks: a
// stylesheet that stops parsing halfway drops them silently), nothing scrolls sideways, and no
// visible control is cut off at the screen's edge or by a clipping container. Public and auth pages
// are seen by a visitor, app pages by one signed-up user with a project and one of each thing a
// parameterised page shows. A screenshot of each page and width is kept in test-results/visual/.

const VIEWPORTS = [
  { name: "desktop", width: 1366, height: 850 },
  { name: "phone", width: 390, height: 844 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

const shots = join(repoRoot, "test-results/visual");
const routes = await routeTable();

let browser: Browser;
let visitor: { context: BrowserContext; page: Page };
let member: { context: BrowserContext; page: Page; session: GatewaySession };
/** The value of each route parameter, made in beforeAll (a path with an unknown parameter fails). */
const params: Record<string, string> = {
  workflowName: "BlogWriter",
  slug: "dashboard",
  token: "not-a-real-token",
};

async function ok<T = any>(label: string, call: Promise<{ status: number; body: any }>): Promise<T> {
  const response = await call;
  if (response.status >= 300) throw new Error(`${label}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.result as T;
}

const suiteStart = Date.now();

beforeAll(async () => {
  const started = Date.now();
  browser = await launchChromium();
  const signedIn = await signedInContext(browser, "visual", { viewport: VIEWPORTS[0] });
  member = signedIn;
  const { session } = signedIn;
  const project = await ok(
    "createProject",
    session.post("/api/projects/createProject", {
      name: "Spoke & Sprocket",
      description: "A bicycle repair shop in Leeds: road, gravel and cargo bikes.",
    }),
  );
  const projectId = project.project.projectId as string;
  const q = `projectId=${projectId}`;
  const contact = await ok(
    "contact",
    session.post(`/api/contacts?${q}`, { email: "ann@visual.test", firstName: "Ann", tags: ["regulars"] }),
  );
  params.contactId = contact.id;
  const segment = await ok(
    "segment",
    session.post(`/api/segments?${q}`, {
      name: "Regulars",
      query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: "regulars" }] },
    }),
  );
  params.segmentId = segment.id;
  const campaign = await ok(
    "campaign",
    session.post(`/api/email/campaigns?${q}`, { name: "Spring service", segmentId: segment.id, subject: "Spring" }),
  );
  params.id = campaign.id;
  const [template] = await ok<{ id: string }[]>("automation templates", session.get(`/api/automations/templates?${q}`));
  const automation = await ok(
    "automation",
    session.post(`/api/automations/from-template?${q}`, { templateId: template!.id }),
  );
  params.automationId = automation.id;
  params.formId = (await ok("lead form", session.get(`/api/leads/form?${q}`))).id;
  // A paged list: the envelope's result holds `result` and `meta`.
  const firstTemplate = async (kind: string) =>
    (await ok<{ result: { id: string }[] }>(kind, session.get(`/api/email/templates?kind=${kind}&${q}`))).result[0]!.id;
  params.emailTemplateId = await firstTemplate("email");
  params.socialTemplateId = await firstTemplate("social");
  const context = await browser.newContext({ baseURL: gatewayUrl(), viewport: VIEWPORTS[0] });
  visitor = { context, page: await context.newPage() };
  visitor.page.setDefaultTimeout(30_000);
  mkdirSync(shots, { recursive: true });
  console.log(`visual: set-up in ${Date.now() - started} ms, ${routes.length} routes`);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  console.log(
    `visual: ${routes.length} routes × ${VIEWPORTS.length} widths in ${Math.round((Date.now() - suiteStart) / 1000)} s`,
  );
});

/** The route's path with its parameters filled in. */
function concrete(route: RouteRow): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const key = name === "templateId" ? (route.path.includes("social") ? "socialTemplateId" : "emailTemplateId") : name;
    const value = params[key];
    if (!value) throw new Error(`${route.path}: no value for :${name} (add one to the visual test's params)`);
    return encodeURIComponent(value);
  });
}

/**
 * Opens a path: the first time with a full load, then as the router's own navigation (history
 * push and popstate), which is what a click on a link does. The router keeps the previous page on
 * screen while the next one loads, so this waits for the route's title (or a redirect elsewhere) and
 * the `ready` element, then until no spinner or skeleton has been on screen for 300 ms (45 s at most).
 */
async function open(
  page: Page,
  path: string,
  title: string,
  ready: string,
  first: boolean,
  business: boolean,
): Promise<string | null> {
  if (first) await page.goto(path);
  else {
    await page.evaluate((to) => {
      history.pushState(null, "", to);
      dispatchEvent(new PopStateEvent("popstate"));
    }, path);
  }
  return page.evaluate(
    async ({ path, title, ready, business }) => {
      const deadline = Date.now() + 45_000;
      // A business-framed page is titled "<page>" until the business is known, then "<page> · <business>".
      const titled = () =>
        business
          ? document.title !== "" && !document.title.endsWith(" · Crafter")
          : document.title === `${title} · Crafter`;
      const arrived = () =>
        (titled() || location.pathname !== new URL(path, location.href).pathname) &&
        document.querySelector(ready) !== null;
      const spinner = () =>
        [...document.querySelectorAll<HTMLElement>(".ant-spin-spinning, .ant-skeleton-active")].find(
          (el) => el.offsetParent !== null,
        );
      const busy = () => !arrived() || spinner() !== undefined;
      let calmSince = 0;
      while (Date.now() < deadline) {
        if (busy()) calmSince = 0;
        else if (!calmSince) calmSince = Date.now();
        else if (Date.now() - calmSince >= 300) return null;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const shown = spinner();
      return arrived()
        ? `still loading after 45 s: ${shown?.outerHTML.slice(0, 200)}`
        : `not shown after 45 s (title "${document.title}", ${ready} ${document.querySelector(ready) ? "present" : "absent"})`;
    },
    { path, title, ready, business },
  );
}

/** What one page shows at one width: scroll width, clipped controls, and its landmarks' computed styles. */
interface Inspection {
  innerWidth: number;
  scrollWidth: number;
  cut: string[];
  styles: Record<string, Record<string, string> | null>;
}

/** The landmarks each kind of page must show, with the computed values its stylesheet gives them. */
function expectations(route: RouteRow, viewport: Viewport): Record<string, Record<string, string | RegExp> | null> {
  const desktop = viewport.width > 900;
  if (route.access === "app") {
    return {
      ".crafter-shell__header": { display: "flex", justifyContent: "space-between" },
      ".crafter-shell__content": { maxWidth: "1280px" },
      // The sider on a laptop; on a phone a drawer opened from the header.
      ".crafter-shell__sider": desktop ? { width: "232px" } : null,
      '[data-testid="nav-drawer-open"]': desktop ? null : { display: /flex|block/ },
      // The project's name keeps room for a dozen characters on a phone, not one.
      '[data-testid="project-title"]': { width: /^([89]\d|[1-9]\d\d)px$/ },
      // A page the member's role (owner) may not open shows the not-available page in the shell.
      ...(route.roles && !route.roles.includes("owner") ? { '[data-testid="page-not-available"]': {} } : {}),
      ...(route.path === "/app/settings"
        ? { ".crafter-settings-links": { display: "grid", columns: desktop ? /^[3-9]$/ : "1" } }
        : {}),
    };
  }
  // The lead form (hosted and embedded in other sites' iframes) and the double opt-in page are the
  // business's: no header of ours; the form, whose business is known, shows the business's name.
  if (route.frame === "business") {
    return {
      ".crafter-public__header": null,
      ".crafter-public__content": {},
      ...(route.path.startsWith("/f/") ? { '[data-testid="business-brand"]': { display: /flex|block/ } } : {}),
    };
  }
  const shell = { ".crafter-public__header": { display: "flex", justifyContent: "space-between" } };
  if (route.access === "auth" || route.access === "guest")
    return { ...shell, ".crafter-auth__card": { maxWidth: "440px" } };
  if (!/^\/(features|usecases|why-us|pricing|integrations\/shopify|FAQ)$/.test(route.path)) return shell;
  const grid =
    route.path === "/FAQ"
      ? ".crafter-faq"
      : route.path === "/pricing"
        ? ".crafter-pricing"
        : ".crafter-marketing__grid";
  return {
    ...shell,
    ".crafter-marketing": { maxWidth: "1080px" },
    ".crafter-site-nav ul": { display: "flex", flexWrap: "wrap" },
    [grid]: {
      display: "grid",
      // The FAQ is one column everywhere; the card grids two or more on a laptop, one on a phone.
      columns: route.path === "/FAQ" || !desktop ? "1" : /^[2-9]$/,
    },
  };
}

function inspect(page: Page, selectors: string[]): Promise<Inspection> {
  return page.evaluate((landmarks) => {
    const width = innerWidth;
    const cut: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="tab"], [role="switch"], [role="combobox"]',
    );
    const name = (el: HTMLElement) =>
      (
        el.getAttribute("data-testid") ??
        el.getAttribute("aria-label") ??
        el.textContent?.trim().slice(0, 40) ??
        el.tagName
      ).replace(/\s+/g, " ");
    for (const el of controls) {
      const box = el.getBoundingClientRect();
      if (box.width < 1 || box.height < 1 || getComputedStyle(el).visibility === "hidden") continue;
      if (el.closest('[aria-hidden="true"], .ant-tabs-nav-list, .ant-select-selection-search')) continue;
      // The part left visible by the ancestors that clip without scrolling, and by the screen.
      let left = Math.max(box.left, 0);
      let right = Math.min(box.right, width);
      let top = box.top;
      let bottom = box.bottom;
      let reachable = false;
      for (let parent = el.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX !== "visible") {
          // A container that scrolls sideways keeps what it clips within reach.
          if (/auto|scroll/.test(style.overflowX) && parent.scrollWidth > parent.clientWidth) {
            reachable = true;
            break;
          }
          const clip = parent.getBoundingClientRect();
          left = Math.max(left, clip.left);
          right = Math.min(right, clip.right);
        }
        if (style.overflowY !== "visible") {
          const clip = parent.getBoundingClientRect();
          top = Math.max(top, clip.top);
          bottom = Math.min(bottom, clip.bottom);
        }
        if (style.position === "fixed") break;
      }
      if (reachable || bottom - top < 1) continue;
      const shown = Math.max(0, right - left);
      if (shown < box.width - 1) {
        cut.push(
          `${el.tagName.toLowerCase()} "${name(el)}": ${Math.round(shown)} of ${Math.round(box.width)} px shown`,
        );
      }
    }
    // A table's actions column stays on screen while the table scrolls sideways inside its container.
    for (const cell of document.querySelectorAll<HTMLElement>("td.crafter-table-actions")) {
      const box = cell.getBoundingClientRect();
      if (box.width >= 1 && (box.left < -1 || box.right > width + 1)) {
        cut.push(`table actions "${name(cell)}": at ${Math.round(box.left)}–${Math.round(box.right)} px of ${width}`);
      }
    }
    const styles: Inspection["styles"] = {};
    for (const selector of landmarks) {
      const el = [...document.querySelectorAll<HTMLElement>(selector)].find((e) => e.getClientRects().length > 0);
      if (!el) {
        styles[selector] = null;
        continue;
      }
      const style = getComputedStyle(el);
      styles[selector] = {
        display: style.display,
        justifyContent: style.justifyContent,
        flexWrap: style.flexWrap,
        maxWidth: style.maxWidth,
        width: `${Math.round(el.getBoundingClientRect().width)}px`,
        columns: String(style.gridTemplateColumns.split(" ").filter((c) => c !== "none").length),
      };
    }
    return { innerWidth: width, scrollWidth: document.documentElement.scrollWidth, cut, styles };
  }, selectors);
}

const slug = (path: string) => path.replace(/^\//, "").replace(/[^A-Za-z0-9]+/g, "_") || "home";

describe.each(VIEWPORTS)("every page at $width×$height", (viewport) => {
  let first = { visitor: true, member: true };
  beforeAll(async () => {
    await visitor.page.setViewportSize(viewport);
    await member.page.setViewportSize(viewport);
    first = { visitor: true, member: true };
  });

  it.each(routes.map((route) => [route.path, route] as const))(
    "%s",
    async (_path, route) => {
      const who = route.access === "app" ? "member" : "visitor";
      const { page } = who === "member" ? member : visitor;
      const path = concrete(route);
      const problems: string[] = [];
      const expected = expectations(route, viewport);
      const ready = route.access === "app" ? ".crafter-shell__content" : ".crafter-public__content";
      const loading = await open(page, path, route.title, ready, first[who], route.frame === "business");
      first[who] = false;
      if (loading) problems.push(loading);
      await page.screenshot({ path: join(shots, `${viewport.name}-${slug(route.path)}.png`), fullPage: true });
      const seen = await inspect(page, Object.keys(expected));
      if (seen.scrollWidth > seen.innerWidth) {
        problems.push(`scrolls sideways: scrollWidth ${seen.scrollWidth} > ${seen.innerWidth}`);
      }
      problems.push(...seen.cut.map((control) => `cut off: ${control}`));
      for (const [selector, rules] of Object.entries(expected)) {
        const actual = seen.styles[selector];
        if (rules === null) {
          if (actual) problems.push(`${selector} is shown but should not be`);
          continue;
        }
        if (!actual) {
          problems.push(`${selector} is missing`);
          continue;
        }
        for (const [property, want] of Object.entries(rules)) {
          const got = actual[property] ?? "";
          if (typeof want === "string" ? got !== want : !want.test(got)) {
            problems.push(`${selector} ${property} is ${got}, expected ${want}`);
          }
        }
      }
      expect({ path, url: new URL(page.url()).pathname, problems }).toEqual({
        path,
        url: expect.any(String),
        problems: [],
      });
    },
    90_000,
  );
});
