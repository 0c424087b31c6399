/// <reference lib="dom" />
import { linkFrom, waitForEmail } from "@crafter/kit/testing";
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
});
