/// <reference lib="dom" />
import { type GatewaySession, gatewayUrl, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { browserStep, launchChromium, signedInContext } from "./support";

// Team members (issue 14) in Chromium: the owner invites from /app/projects, the invited person
// opens the emailed link signed in, sees the project with their role, switches to it and sees the
// owner's contacts; the owner removes them (confirmed) and the project leaves their list.

jest.setTimeout(300_000);

let browser: Browser;
let owner: { context: BrowserContext; page: Page };
let member: { context: BrowserContext; page: Page; email: string };
let current: Page | undefined;
let ownerSession: GatewaySession;
let projectId: string;
const step = browserStep("team-members", () => current);

const rowOf = (page: Page) => page.getByTestId("project-row").filter({ hasText: "Harbour Bakery" });

beforeAll(async () => {
  browser = await launchChromium();
  const [o, m] = await Promise.all([
    signedInContext(browser, "team-e2e-owner"),
    signedInContext(browser, "team-e2e-member"),
  ]);
  const created = await o.session.post("/api/projects/createProject", {
    name: "Harbour Bakery",
    description: "A small bakery by the harbour, baking sourdough and pastries every morning since 2012.",
  });
  expect(created.status).toBe(201);
  // The owner's contact, which the member sees once they work in the project (issue 14).
  const contact = await o.session.post(`/api/contacts?projectId=${created.body.result.project.projectId}`, {
    firstName: "Marina",
    lastName: "Keel",
    email: "marina.keel@harbour.example",
  });
  expect(contact.status).toBe(201);
  // The member has a business of their own (the app's onboarding asks for one first).
  const own = await m.session.post("/api/projects/createProject", {
    name: "Corner Florist",
    description: "A florist on the corner selling seasonal bouquets and plants for the neighbourhood.",
  });
  expect(own.status).toBe(201);
  owner = { context: o.context, page: o.page };
  ownerSession = o.session;
  projectId = created.body.result.project.projectId;
  member = { context: m.context, page: m.page, email: m.email };
});

afterAll(async () => {
  await browser?.close();
});

describe("team members", () => {
  step("the owner invites someone as manager from the project's team dialog", async () => {
    const { page } = owner;
    current = page;
    await page.goto("/app/projects");
    await rowOf(page).getByTestId("project-members").click();
    await page.getByTestId("member-email").fill(member.email);
    await page.getByTestId("member-invite").click();
    await page.getByTestId("invite-row").filter({ hasText: member.email }).waitFor();
    await page.keyboard.press("Escape");
  });

  step("the invited person opens the emailed link signed in and works in the project", async () => {
    const { page } = member;
    current = page;
    const link = linkFrom(await waitForEmail(member.email, "You are invited to a project on Crafter"), "/app/invite");
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByTestId("invite-accepted").waitFor();
    expect(await page.getByTestId("invite-accepted").textContent()).toContain("You joined Harbour Bakery");
    // They have a project of their own, which stays the active one.
    await page.getByTestId("invite-accepted").getByText("Switch to it from your projects.").waitFor();
    await page.goto("/app/projects");
    const row = rowOf(page);
    expect(await row.getByTestId("project-role").textContent()).toBe("Manager");
    expect(await row.getByTestId("project-delete").count()).toBe(0);
    await row.getByTestId("project-switch").click();
    await row.getByTestId("project-active").waitFor();
    // The dashboard opens on the shared project.
    await page.goto("/app/dashboard");
    await page.getByText("Harbour Bakery").first().waitFor();
    expect(await page.getByText("Oops, there is an error!").count()).toBe(0);
    // The owner's contacts are the project's: the member sees them.
    await page.goto("/app/contacts");
    await page.getByTestId("contacts-table").getByText("Marina Keel").waitFor();
  });

  step("the owner removes the member after a confirmation, and the project leaves their list", async () => {
    const { page } = owner;
    current = page;
    await page.goto("/app/projects");
    await rowOf(page).getByTestId("project-members").click();
    const memberRow = page.getByTestId("member-row").filter({ hasText: member.email.toLowerCase() });
    await memberRow.getByTestId("member-remove").click();
    await page.getByTestId("confirm-remove-member").click();
    await memberRow.waitFor({ state: "detached" });

    current = member.page;
    await member.page.goto("/app/projects");
    await member.page.getByTestId("project-row").filter({ hasText: "Corner Florist" }).waitFor();
    expect(await rowOf(member.page).count()).toBe(0);
  });

  step("someone without an account signs up from the invitation link and comes back to accept it", async () => {
    const newcomer = uniqueEmail("team-e2e-newcomer");
    const sent = await ownerSession.post(`/api/projects/${projectId}/invites`, {
      email: newcomer,
      role: "projectAdmin",
    });
    expect(sent.status).toBe(201);
    const link = linkFrom(await waitForEmail(newcomer, "You are invited to a project on Crafter"), "/app/invite");
    // On a phone: the sign-up and the acceptance must fit 390 px.
    const context = await browser.newContext({ baseURL: gatewayUrl(), viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    current = page;
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    // Signed out: the guard sends them to sign in, with the invitation as the way back.
    await page.goto(`${link.pathname}${link.search}`);
    await page.waitForURL("**/signin?callbackUrl=*");
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.waitForURL("**/signup?callbackUrl=*");
    await page.getByTestId("signup-submit").waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByTestId("signup-email").fill(newcomer);
    await page.getByTestId("signup-password").fill("password-123");
    await page.getByTestId("signup-submit").click();
    await page.getByTestId("signup-success").waitFor();
    // The verification link from the email, in the same browser.
    const verify = linkFrom(await waitForEmail(newcomer, "Verify your email"), "/verify");
    await page.goto(`${verify.pathname}${verify.search}`);
    await page.getByTestId("verify-success").waitFor();
    await page.getByTestId("verify-signin-link").click();
    await page.waitForURL("**/signin?callbackUrl=*");
    await page.getByTestId("signin-email").fill(newcomer);
    await page.getByTestId("signin-password").fill("password-123");
    // Signed in without a project of their own: the app asks nothing it cannot answer (the header's
    // context selector asked for the profiles of no project, and "Could not load data" covered it).
    const failed: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname.startsWith("/api/")) {
        failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
      }
    });
    await page.getByTestId("signin-submit").click();
    await page.getByTestId("invite-accepted").waitFor();
    expect(await page.getByTestId("invite-accepted").textContent()).toContain("You joined Harbour Bakery");
    // With no project of their own, the joined one is their active project, and the page says so.
    await page.getByTestId("invite-accepted").getByText("It is your active project now.").waitFor();
    await page.waitForLoadState("networkidle");
    expect(failed).toEqual([]);
    expect(await page.locator(".ant-notification-notice").count()).toBe(0);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await context.close();
  });
});
