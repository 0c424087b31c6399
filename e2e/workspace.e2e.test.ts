import { GatewaySession, gatewayUrl, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { browserStep, launchChromium } from "./support";

// The marketer's workspace (issue 12) in Debian's Chromium: create a product and a campaign, craft
// an ad for the product and an email for the campaign and see each on its crafts page, edit the
// business profile, add a review and reply to it, switch projects, and the 390 px menu.

const base = gatewayUrl();
const email = uniqueEmail("workspace");
const password = "a long and honest passphrase";

const business = {
  name: "Spoke & Sprocket Bicycle Repair",
  description: "A family-run bicycle repair shop servicing road, gravel and cargo bikes since 2009.",
  audience: "Commuters and weekend riders",
  keywords: ["bike repair", "wheel building"],
  websiteUrl: "spokeandsprocket.example.com",
};

interface ViewInput {
  name: string;
  kind: string;
  required?: boolean;
  hidden?: boolean;
  defaultValue?: unknown;
}
interface ViewStep {
  name: string;
  state: string;
  inputs?: ViewInput[];
  values?: Record<string, unknown>;
}
interface ViewCraft {
  craftId: string;
  state: string;
  profileId: string;
  currentStep: string | null;
  steps: ViewStep[];
}

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ baseURL: base });
  page = await context.newPage();
  // Generous: the test machine runs several stacks on 2 cores.
  page.setDefaultTimeout(90_000);
});

afterAll(async () => {
  await browser?.close();
});

const step = browserStep("workspace", () => page);

async function craftOf(craftId: string): Promise<ViewCraft> {
  const response = await context.request.get(`/api/workflowsV2/${craftId}`);
  return ((await response.json()) as { result: ViewCraft }).result;
}

function craftIdOf(target: Page): string {
  const id = new URL(target.url()).searchParams.get("craftId");
  if (!id) throw new Error(`No craftId in ${target.url()}`);
  return id;
}

async function until<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    last = await read();
  }
  return last;
}

const blank = (value: unknown) =>
  value === null ||
  value === undefined ||
  (typeof value === "string" && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0);

async function typable(root: Locator): Promise<Locator> {
  const tag = await root.evaluate((node) => node.tagName);
  return tag === "INPUT" || tag === "TEXTAREA" ? root : root.locator("input, textarea").first();
}

/** Fills the required inputs of the open step that have no value yet (prefilled ones are kept). */
async function fillRequired(target: Page, stepView: ViewStep) {
  for (const input of stepView.inputs ?? []) {
    const root = target.getByTestId(`input-${input.name}`);
    if (input.hidden || !input.required || !(await root.isVisible())) continue;
    if (!blank(stepView.values?.[input.name] ?? input.defaultValue)) continue;
    switch (input.kind) {
      case "chipText": {
        const box = await typable(root);
        await box.fill("spring service");
        await box.press("Enter");
        break;
      }
      case "bulletPoint":
        await root.locator("input").first().fill("Free safety check with every service");
        break;
      case "select":
      case "contextSelector":
      case "craftPicker":
        await root.click();
        await target
          .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")
          .first()
          .click();
        break;
      case "radioSelect":
        await root.locator("input[type=radio]").first().check();
        break;
      case "datePicker":
        await (await typable(root)).fill("2026-12-01");
        break;
      case "number":
      case "slider":
        await (await typable(root)).fill("3");
        break;
      default:
        await (await typable(root)).fill("Spring tune-up week: 20% off every service");
    }
  }
}

/** Completes every step of the craft on this page through the UI. */
/**
 * The craft a workflow page stores: opening it stores nothing (a draft, issue 12), so the first
 * step is filled and completed, which stores the craft and puts its id in the URL.
 */
async function storedCraft(target: Page, workflowName: string): Promise<string> {
  await target.waitForURL(new RegExp(`/app/crafts/${workflowName}`));
  if (new URL(target.url()).searchParams.get("craftId")) return craftIdOf(target);
  const response = await context.request.get(`/api/workflowsV2/new?workflowName=${workflowName}`);
  const draft = ((await response.json()) as { result: ViewCraft }).result;
  const first = draft.steps.find((s) => s.name === draft.currentStep) ?? draft.steps[0]!;
  await target.getByTestId(`step-form-${first.name}`).waitFor();
  await fillRequired(target, first);
  await target.getByTestId("complete-step").click();
  await target.waitForURL(/craftId=/, { timeout: 90_000 });
  return craftIdOf(target);
}

async function completeAllSteps(target: Page) {
  const craftId = craftIdOf(target);
  for (let guard = 0; guard < 12; guard += 1) {
    const craft = await craftOf(craftId);
    if (craft.state === "Completed") return craft;
    const current =
      craft.steps.find((s) => s.name === craft.currentStep) ?? craft.steps.find((s) => s.state !== "Completed");
    if (!current) throw new Error("The craft has no open step");
    await target.getByTestId(`step-form-${current.name}`).waitFor();
    await fillRequired(target, current);
    await target.getByTestId("complete-step").click();
    await until(
      async () => (await craftOf(craftId)).steps.find((s) => s.name === current.name)?.state,
      (state) => state === "Completed",
      `${current.name} completed`,
      120_000,
    );
    await target.waitForFunction((name) => !document.querySelector(`[data-testid="step-form-${name}"]`), current.name);
  }
  throw new Error("The craft did not complete within 12 steps");
}

/**
 * Opens a profile area's crafts page until this craft shows in the profile's card (`one` is
 * "product" or "campaign"); the crafts of a profile are recorded from CraftCreated events.
 */
async function seeCraftOn(path: string, one: string, craftId: string) {
  const card = `[data-testid="${one}-crafts"]`;
  await until(
    async () => {
      await page.goto(path);
      // Loaded: the card shows its list or says it is empty.
      await page
        .locator(`${card} [data-testid="${one}-craft-list"], ${card} [data-testid="${one}-crafts-empty"]`)
        .first()
        .waitFor();
      return page.locator(`${card} [data-craft-id="${craftId}"]`).count();
    },
    (count) => count > 0,
    `craft ${craftId} on ${path}`,
    120_000,
  );
}

let productCraft = "";
let campaignCraft = "";

describe("the marketer's workspace", () => {
  step("signs up (API) and signs in (UI)", async () => {
    const session = new GatewaySession(base);
    expect((await session.post("/auth/signup", { email, password, displayName: "Robin" })).status).toBe(200);
    const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
    expect((await session.post("/auth/verify", { token: link.searchParams.get("token") })).status).toBe(200);
    expect((await session.post("/auth/signin", { email, password })).status).toBe(200);
    expect((await session.post("/api/projects/createProject", business)).status).toBe(201);

    await page.goto("/signin");
    await page.getByTestId("signin-email").fill(email);
    await page.getByTestId("signin-password").fill(password);
    await page.getByTestId("signin-submit").click();
    await page.waitForURL("**/app/dashboard");
  });

  step("shows the spec's navigation in order", async () => {
    const main = await page
      .getByTestId("main-navigation")
      .locator("a[data-testid^='nav-']")
      .evaluateAll((links) => links.map((link) => link.getAttribute("data-testid")));
    const order = ["nav-dashboard", "nav-contents", "nav-campaigns", "nav-strategy", "nav-offerings", "nav-business"];
    expect(main.filter((id) => order.includes(id ?? ""))).toEqual(order);
    await page.getByTestId("nav-create").click();
    const create = await page
      .locator(".ant-dropdown:not(.ant-dropdown-hidden) a[data-testid^='nav-create-']")
      .evaluateAll((links) => links.map((link) => link.getAttribute("data-testid")));
    expect(create[0]).toBe("nav-create-campaign");
    expect(create.indexOf("nav-create-email")).toBeLessThan(create.indexOf("nav-create-ad"));
    await page.keyboard.press("Escape");
  });

  step("creates a product with its fields", async () => {
    await page.getByTestId("nav-offerings").click();
    await page.waitForURL("**/app/offerings");
    await page.goto("/app/offerings/product");
    await page.getByTestId("new-product").click();
    await page.getByTestId("profile-field-name").fill("Trail Bike 29");
    await page.getByTestId("profile-field-description").fill("A light aluminium trail bike with 29-inch wheels.");
    await page.getByTestId("profile-field-pageUrl").fill("spokeandsprocket.example.com/trail-bike");
    const features = page.getByTestId("profile-field-featureList").locator("input").first();
    await features.fill("Hydraulic disc brakes");
    await features.press("Enter");
    await page.getByTestId("profile-form-submit").click();
    const card = page.getByTestId("product-card").filter({ hasText: "Trail Bike 29" });
    await card.waitFor();
    // A new product becomes the profile new crafts write for.
    await card.getByText("Writing for").waitFor();
  });

  step("crafts an ad for the product and sees it on the product crafts page", async () => {
    await page.goto("/app/offerings/product/tools");
    await page.getByTestId("tool-AdsWriter").click();
    productCraft = await storedCraft(page, "AdsWriter");
    const craft = await completeAllSteps(page);
    const products = await context.request.get("/api/profiles?profileType=PRODUCT");
    const product = ((await products.json()) as { result: { profiles: { profileId: string }[] } }).result.profiles[0]!;
    expect(craft.profileId).toBe(product.profileId);
    await seeCraftOn("/app/offerings/product/crafts", "product", productCraft);
  });

  step("creates a campaign, crafts an email for it and sees it on the campaign crafts page", async () => {
    await page.getByTestId("nav-campaigns").click();
    await page.waitForURL("**/app/campaign");
    await page.getByTestId("new-campaign").click();
    await page.getByTestId("profile-field-name").fill("Spring tune-up");
    await page.getByTestId("profile-field-objective").fill("Book 80 tune-ups");
    await page.getByTestId("profile-field-message").fill("Get your bike spring-ready");
    await page.getByTestId("profile-field-startDate").fill("2026-03-01");
    await page.getByTestId("profile-field-endDate").fill("2026-04-15");
    await page.getByTestId("profile-form-submit").click();
    await page.getByTestId("campaign-card").filter({ hasText: "Spring tune-up" }).waitFor();

    await page.goto("/app/campaign/tools");
    await page.getByTestId("tool-EmailWriter").click();
    campaignCraft = await storedCraft(page, "EmailWriter");
    await completeAllSteps(page);
    await seeCraftOn("/app/campaign/crafts", "campaign", campaignCraft);
    // Each craft shows under its own profile only.
    expect(await page.locator(`[data-craft-id="${productCraft}"]`).count()).toBe(0);
  });

  step("edits the business profile", async () => {
    await page.getByTestId("nav-business").click();
    await page.waitForURL("**/app/business");
    await page.goto("/app/business/profile");
    const description = page.getByTestId("profile-field-description");
    await description.fill("A family-run bicycle repair shop with same-day puncture repair and hand-built wheels.");
    await page.getByTestId("business-profile-form-submit").click();
    await page.getByText("Business profile saved").waitFor();
    await page.reload();
    await expect(page.getByTestId("profile-field-description").inputValue()).resolves.toContain(
      "same-day puncture repair",
    );
  });

  step("adds a review and replies to it with a drafted reply", async () => {
    await page.goto("/app/business/reviews");
    await page.getByTestId("review-add").click();
    await page.getByTestId("review-author").fill("Ann Lee");
    await page.getByTestId("review-text").fill("They trued my wheel while I waited. Great service!");
    await page.getByTestId("review-submit").click();
    const card = page.getByTestId("review-card").filter({ hasText: "Ann Lee" });
    await card.waitFor();
    await card.getByTestId("reply-draft").click();
    await until(
      () => card.getByTestId("reply-text").inputValue(),
      (text) => text.includes("Ann"),
      "a drafted reply",
    );
    await card.getByTestId("reply-note").waitFor();
    await card.getByTestId("reply-save").click();
    await page.getByTestId("review-card").filter({ hasText: "Ann Lee" }).getByTestId("reply-saved").waitFor();
  });

  step("creates a second project and switches between projects", async () => {
    await page.getByTestId("project-switcher").click();
    await page.getByTestId("nav-projects").click();
    await page.waitForURL("**/app/projects");
    await page.getByTestId("project-new").click();
    await page.getByTestId("project-name").fill("Pedal Café");
    await page.getByTestId("project-description").fill("A café for cyclists with a workshop corner.");
    await page.getByTestId("project-submit").click();
    const row = page.getByTestId("project-row").filter({ hasText: "Pedal Café" });
    await row.waitFor();
    await row.getByTestId("project-switch").click();
    await page.getByTestId("project-title").filter({ hasText: "Pedal Café" }).waitFor();
    await row.getByTestId("project-active").waitFor();
    // Everything follows the switch: the new project has no products yet.
    await page.goto("/app/offerings/product");
    await page.getByTestId("product-empty").waitFor();

    await page.getByTestId("project-switcher").click();
    await page.locator("[data-testid^='switch-project-']").filter({ hasText: business.name }).click();
    await page.getByTestId("project-title").filter({ hasText: business.name }).waitFor();
    await page.getByTestId("product-card").filter({ hasText: "Trail Bike 29" }).waitFor();
  });

  step("opens the help of the page and searches it", async () => {
    await page.goto("/app/business/reviews");
    await page.getByTestId("help-link").click();
    await page.waitForURL("**/app/help/business-reviews");
    await page.getByTestId("help-article").getByText("Import CSV").first().waitFor();
    await page.getByTestId("help-search").fill("slug");
    await page.getByTestId("help-topic-offerings-product").waitFor();
  });

  step("folds the menu into a drawer at 390 px", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/app/dashboard");
    await page.getByTestId("nav-drawer-open").click();
    await page.getByTestId("nav-drawer").getByTestId("nav-business").click();
    await page.waitForURL("**/app/business");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
