/// <reference lib="dom" />
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type GatewaySession, gatewayUrl, repoRoot } from "@crafter/kit/testing";
import { addDays, dayIn, instantAt, wallClockIn } from "@crafter/time";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { browserStep, launchChromium, signedInContext } from "./support";

// Issue 13's calendar story in Chromium: schedule a post from its craft page, see it on the
// calendar, drag it to another day and see the move persist after a reload; the bell shows the
// day's due notification.

let browser: Browser;
let page: Page | undefined;
let session: GatewaySession;
let craftId: string;
const step = browserStep("calendar", () => page);

/** The local calendar day `days` from today, "YYYY-MM-DD" (FullCalendar's data-date). */
function localDay(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Two days ahead in one month view: tomorrow and the day after next, or, in a month's last three
 * days, the next month's 2nd and 4th. Never past days: a post scheduled in the past turns due at
 * once and puts its own notice on the bell the last step counts.
 */
const [fromDay, toDay] = (() => {
  const today = new Date();
  const last = new Date(today.getFullYear(), today.getMonth() + 1, 0).getDate();
  if (today.getDate() + 3 <= last) return [localDay(1), localDay(3)];
  const toSecond = last - today.getDate() + 2;
  return [localDay(toSecond), localDay(toSecond + 2)];
})();

beforeAll(async () => {
  browser = await launchChromium();
  const signedIn = await signedInContext(browser, "calendar-e2e");
  page = signedIn.page;
  session = signedIn.session;
  const project = await session.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
  });
  expect(project.status).toBe(201);
  const craft = await session.post("/api/workflowsV2", { workflowName: "SocialMediaPostWriter" });
  expect(craft.status).toBe(201);
  craftId = craft.body.result.craftId;
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("the content calendar", () => {
  step("schedules a post from its craft page", async () => {
    const p = page!;
    await p.goto(`/app/crafts/SocialMediaPostWriter?craftId=${craftId}`);
    await p.getByTestId("schedule-craft").click();
    await p.getByTestId("schedule-when").fill(`${fromDay}T10:00`);
    await p.getByRole("button", { name: "Schedule", exact: true }).last().click();
    await p.getByText("Scheduled", { exact: true }).waitFor();
  });

  step("shows it on the calendar, coloured as a social post", async () => {
    const p = page!;
    await p.goto(`/app/calendar?date=${fromDay}`);
    const event = p.locator(`td.fc-daygrid-day[data-date="${fromDay}"] [data-testid="calendar-event"]`);
    await event.first().waitFor();
    expect(await event.count()).toBe(1);
    await expect(event.first().evaluate((el) => el.classList.contains("crafter-cal-social"))).resolves.toBe(true);
  });

  step("drags it to another day, and the move persists", async () => {
    const p = page!;
    // A business without a time zone: the page says its times are UTC until one is set. The notice
    // comes in once the profile is read and moves the grid down, so the drag starts after it, with
    // both days scrolled into the window (a person drags what they see; the month is taller than it).
    await p.getByTestId("time-zone-unset").waitFor();
    const event = p.locator(`td.fc-daygrid-day[data-date="${fromDay}"] [data-testid="calendar-event"]`).first();
    const target = p.locator(`td.fc-daygrid-day[data-date="${toDay}"] .fc-daygrid-day-frame`);
    await p
      .locator(`td.fc-daygrid-day[data-date="${fromDay}"]`)
      .evaluate((cell) => cell.scrollIntoView({ block: "center" }));
    const from = (await event.boundingBox())!;
    const to = (await target.boundingBox())!;
    await p.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await p.mouse.down();
    await p.mouse.move(from.x + from.width / 2 + 5, from.y + from.height / 2 + 5, { steps: 5 });
    await p.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
    await p.mouse.up();
    await p.getByText("Moved", { exact: true }).waitFor();

    await p.reload();
    await p.locator(`td.fc-daygrid-day[data-date="${toDay}"] [data-testid="calendar-event"]`).first().waitFor();
    expect(await p.locator(`td.fc-daygrid-day[data-date="${fromDay}"] [data-testid="calendar-event"]`).count()).toBe(0);
    const list = await session.get("/api/calendar/list");
    expect(list.body.result.result).toHaveLength(1);
    const moved = new Date(list.body.result.result[0].dateTime);
    expect(wallClockIn(moved, "UTC")).toBe(`${toDay}T10:00:00`);
  });

  step("the bell shows a post that is due", async () => {
    const p = page!;
    const blog = await session.post("/api/workflowsV2", { workflowName: "BlogWriter" });
    const due = await session.post("/api/calendar", {
      craftId: blog.body.result.craftId,
      dateTime: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(due.body.result.status).toBe("due");
    await p.reload();
    const unread = (n: string) =>
      p.waitForFunction(
        (v) => document.querySelector('[data-testid="inbox-bell"]')?.getAttribute("data-unread") === v,
        n,
      );
    await unread("1");
    await p.getByTestId("inbox-bell").click();
    const item = p.getByTestId("inbox-item").filter({ hasText: "1 post is due today" });
    await item.waitFor();
    await p.getByTestId("inbox-read-all").click();
    await unread("0");
  });

  step("at 390 px the page opens on the list, and the bell fits the header", async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, baseURL: gatewayUrl() });
    try {
      await phone.context().addCookies(await page!.context().cookies());
      await phone.addInitScript(
        (marker) => {
          for (const [key, value] of Object.entries(marker)) window.localStorage.setItem(key, value);
        },
        await page!.evaluate(() => ({ ...window.localStorage })),
      );
      await phone.goto("/app/calendar");
      await phone.getByTestId("calendar-list").waitFor();
      await phone
        .getByRole("link", { name: /Blog|Social|Untitled|post/i })
        .first()
        .waitFor();
      const bell = (await phone.getByTestId("inbox-bell").boundingBox())!;
      expect(bell.x + bell.width).toBeLessThanOrEqual(390);
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth);
      expect(overflow).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });
});

// The business's time zone, not the browser's: a Los Angeles business seen from a browser in London.
describe("the calendar in the business's time zone", () => {
  const LA = "America/Los_Angeles";
  let tzPage: Page | undefined;
  let tzSession: GatewaySession;
  const tzStep = browserStep("calendar-tz", () => tzPage);
  const shots = join(repoRoot, ".data/e2e-artifacts");
  // 23:30 in Los Angeles two days from now: already the next morning in London.
  const day = addDays(dayIn(new Date(), LA), 2);
  const late = instantAt(`${day}T23:30`, LA)!;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const signedIn = await signedInContext(browser, "calendar-tz", {
      viewport: { width: 1366, height: 850 },
      timezoneId: "Europe/London",
    });
    tzPage = signedIn.page;
    tzSession = signedIn.session;
  }, 120_000);

  afterAll(async () => {
    await tzPage?.context().close();
  });

  tzStep("onboarding offers the browser's zone, and the business picks its own", async () => {
    const p = tzPage!;
    await p.goto("/app/welcome");
    const zone = p.getByTestId("welcome-time-zone");
    await expect(zone.textContent()).resolves.toContain("Europe/London");
    await p.getByTestId("welcome-name").fill("Pacific Bikes");
    await p.getByTestId("welcome-description").fill("Bike rentals and guided rides along the Santa Monica coast.");
    await zone.click();
    await p.keyboard.type("Los Angeles");
    await p.keyboard.press("Enter");
    await expect(zone.textContent()).resolves.toContain("America/Los Angeles");
    await p.getByTestId("welcome-submit").click();
    await p.waitForURL("**/app/dashboard");
    const active = await tzSession.get("/api/projects/active-project");
    expect(active.body.result.profile.fields.timeZone).toBe(LA);
  });

  tzStep("shows a post at 23:30 Los Angeles time on its Los Angeles day", async () => {
    const p = tzPage!;
    const craft = await tzSession.post("/api/workflowsV2", { workflowName: "SocialMediaPostWriter" });
    const placed = await tzSession.post("/api/calendar", {
      craftId: craft.body.result.craftId,
      dateTime: late.toISOString(),
    });
    expect(placed.status).toBe(201);
    await p.goto(`/app/calendar?date=${day}`);
    await expect(p.getByTestId("calendar-time-zone").textContent()).resolves.toContain("America/Los Angeles");
    await p.locator(`td.fc-daygrid-day[data-date="${day}"] [data-testid="calendar-event"]`).first().waitFor();
    expect(
      await p.locator(`td.fc-daygrid-day[data-date="${addDays(day, 1)}"] [data-testid="calendar-event"]`).count(),
    ).toBe(0);
    await p.screenshot({ path: join(shots, "calendar-tz-1366.png"), fullPage: true });
  });

  tzStep("a drag to the next day keeps 23:30 Los Angeles time", async () => {
    const p = tzPage!;
    const event = p.locator(`td.fc-daygrid-day[data-date="${day}"] [data-testid="calendar-event"]`).first();
    const target = p.locator(`td.fc-daygrid-day[data-date="${addDays(day, 1)}"] .fc-daygrid-day-frame`);
    const from = (await event.boundingBox())!;
    const to = (await target.boundingBox())!;
    await p.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await p.mouse.down();
    await p.mouse.move(from.x + from.width / 2 + 5, from.y + from.height / 2 + 5, { steps: 5 });
    await p.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
    await p.mouse.up();
    await p.getByText("Moved", { exact: true }).waitFor();
    const list = await tzSession.get("/api/calendar/list");
    const moved = new Date(list.body.result.result[0].dateTime);
    expect(wallClockIn(moved, LA)).toBe(`${addDays(day, 1)}T23:30:00`);
  });

  tzStep("at 390 px the list shows Los Angeles times and nothing scrolls sideways", async () => {
    const p = tzPage!;
    await p.setViewportSize({ width: 390, height: 844 });
    await p.goto("/app/calendar");
    await p.getByTestId("calendar-list").waitFor();
    await p.getByText(/23:30/).first().waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await p.screenshot({ path: join(shots, "calendar-tz-390.png"), fullPage: true });
  });
});
