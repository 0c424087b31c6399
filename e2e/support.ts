/// <reference lib="dom" />
// Shared pieces of the end-to-end tests: Debian's Chromium, a verified signed-in browser context,
// and test steps that leave a screenshot and the page's text when they fail.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type GatewaySession, gatewayUrl, repoRoot, verifiedSession } from "@crafter/kit/testing";
import { it } from "@jest/globals";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { EXPIRY_KEY, SESSION_TTL_MS } from "../web/src/api/client";

/**
 * Debian's Chromium (CHROMIUM_PATH overrides), headless, with the flags this closed network needs;
 * `extraArgs` adds more (e.g. `--host-resolver-rules` for a local provider's host name).
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // Reduced motion: the app then turns antd's animations off (web/src/app/theme.tsx), so a click
    // never lands on a menu or dialog that is still sliding into place on a loaded machine.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--force-prefers-reduced-motion",
      ...extraArgs,
    ],
  });
}

/**
 * A browser context signed in as a fresh, verified user (sign-up, the Mailpit link, sign-in through
 * the gateway): the session cookies and the dashboard's expiry marker (web/src/api/client.ts), the
 * state a browser holds after signing in, so the first page opens inside the app.
 * @returns the context, a page on it (30 s default timeout), the user's email (password "password-123")
 *   and the gateway session the cookies came from (for API set-up calls).
 */
export async function signedInContext(
  browser: Browser,
  prefix = "e2e",
  options: { viewport?: { width: number; height: number }; timezoneId?: string } = {},
): Promise<{ context: BrowserContext; page: Page; email: string; session: GatewaySession }> {
  const base = gatewayUrl();
  const { session, email } = await verifiedSession(prefix);
  const url = new URL(base);
  const context = await browser.newContext({
    baseURL: base,
    ...options,
    storageState: {
      cookies: [...session.cookies].map(([name, value]) => ({
        name,
        value,
        domain: url.hostname,
        path: name === "crafter_rt" ? "/auth" : "/",
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: "Lax" as const,
      })),
      origins: [
        { origin: url.origin, localStorage: [{ name: EXPIRY_KEY, value: String(Date.now() + SESSION_TTL_MS) }] },
      ],
    },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page, email, session };
}

/** Signs in through the sign-in page as a person does, and waits for the app. */
export async function signInThroughPage(page: Page, email: string, password = "password-123"): Promise<void> {
  await page.goto("/signin");
  await page.getByTestId("signin-email").fill(email);
  await page.getByTestId("signin-password").fill(password);
  await page.getByTestId("signin-submit").click();
  await page.waitForURL("**/app/**");
}

const artifacts = join(repoRoot, ".data/e2e-artifacts");

/**
 * `it` for one step of a browser story: on failure it saves a full-page screenshot to
 * .data/e2e-artifacts/<prefix>-<name>.png and adds the URL and the page's text to the error.
 */
export function browserStep(prefix: string, page: () => Page | undefined) {
  return (name: string, fn: () => Promise<void>, timeout = 180_000) =>
    it(
      name,
      async () => {
        try {
          await fn();
        } catch (error) {
          const current = page();
          if (!current) throw error;
          mkdirSync(artifacts, { recursive: true });
          const file = join(artifacts, `${prefix}-${name.replace(/[^a-z0-9]+/gi, "-")}.png`);
          await current.screenshot({ path: file, fullPage: true }).catch(() => undefined);
          const text = await current
            .locator("body")
            // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a person reads it.
            .innerText()
            .catch(() => "");
          throw new Error(
            `${(error as Error).message}\nURL: ${current.url()}\nScreenshot: ${file}\nPage text: ${text.slice(0, 1500)}`,
          );
        }
      },
      timeout,
    );
}

/**
 * How far the page scrolls sideways, in CSS pixels (0 when it fits), read once its layout has
 * settled: right after a viewport change antd's breakpoint listeners re-render a frame or more
 * later, and a reading taken before that measures the old width's layout. Polls every 100 ms until
 * two readings agree (at most 3 s) and returns the last.
 */
export async function sidewaysScroll(page: Page): Promise<number> {
  const read = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  let last = await read();
  for (let waited = 0; waited < 3000; waited += 100) {
    await page.waitForTimeout(100);
    const next = await read();
    if (next === last) return next;
    last = next;
  }
  return last;
}

/** Picks the option labelled `label` in the antd Select with this test id. */
export async function choose(page: Page, testId: string, label: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page
    .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: label })
    .first()
    .click();
}

/**
 * Screenshots of the page at 1366×850 and at 390×844, saved as
 * .data/e2e-artifacts/<name>-<width>.png; fails when the page scrolls sideways at either width.
 * Leaves the page at 1366×850.
 */
export async function atBothWidths(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  for (const [width, height] of [
    [1366, 850],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    const sideways = await sidewaysScroll(page);
    await page.screenshot({ path: join(artifacts, `${name}-${width}.png`), fullPage: true });
    if (sideways > 0) {
      await page.setViewportSize({ width: 1366, height: 850 });
      throw new Error(`${name} scrolls ${sideways} px sideways at ${width} px`);
    }
  }
  await page.setViewportSize({ width: 1366, height: 850 });
}
