/// <reference lib="dom" />

import { randomUUID } from "node:crypto";
import { gatewayUrl, stackEnv, verifiedSession } from "@crafter/kit/testing";
import { type GoogleAccount, LocalGoogleOidc } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, jest } from "@jest/globals";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { atBothWidths, browserStep, launchChromium } from "./support";

// Sign in with Google in Chromium, as a person does it, through the gateway, the auth service and
// the local OpenID provider standing in for Google (GOOGLE_OIDC_ISSUER of the test stack), with its
// login form: a fresh browser signs up with Google and lands in the app; the only way into that
// account cannot be unlinked; it signs out and in again with Google; a password account of the same
// verified email is linked only by its password sign-in, shown in Settings, and unlinked there.
jest.setTimeout(60_000);

const env = stackEnv();
const origin = env.PUBLIC_ORIGIN ?? gatewayUrl();
const issuer = new URL(env.GOOGLE_OIDC_ISSUER ?? "http://google-oidc.crafter.test:28050");
const google = new LocalGoogleOidc({
  clientId: env.GOOGLE_CLIENT_ID ?? "",
  clientSecret: env.GOOGLE_CLIENT_SECRET ?? "",
  redirectUris: [`${origin}/auth/google/callback`],
  host: issuer.hostname,
});

const googleAccount = (email: string, name: string): GoogleAccount => ({
  sub: `g-${randomUUID()}`,
  email,
  email_verified: true,
  name,
});
const newcomer = googleAccount(`ada-${randomUUID().slice(0, 8)}@gmail.example`, "Ada Lovelace");

let browser: Browser;
let context: BrowserContext;
let page: Page;
const step = browserStep("google-signin", () => page);

/** At the local Google's login form: types the email and goes on. */
async function atGoogle(email: string): Promise<void> {
  await page.waitForURL(`${issuer.origin}/interaction/**`);
  await page.getByLabel("Email or phone").fill(email);
  await page.getByRole("button", { name: "Next" }).click();
}

/** Signs out from the user menu; Google's own session is left too (the next sign-in shows its form). */
async function signOut(): Promise<void> {
  await page.getByTestId("user-menu").click();
  await page.getByTestId("nav-signout").click();
  await page.waitForURL((url) => !url.pathname.startsWith("/app"));
  await context.clearCookies({ domain: issuer.hostname });
}

async function openSignInMethods(): Promise<void> {
  await page.goto("/app/settings/change-password");
  await page.getByTestId("signin-methods-list").waitFor();
}

beforeAll(async () => {
  await google.start(Number(issuer.port));
  google.showLoginForm();
  google.addAccount(newcomer);
  browser = await launchChromium([`--host-resolver-rules=MAP ${issuer.hostname} 127.0.0.1`]);
  // A fresh browser: no cookies, no session marker.
  context = await browser.newContext({ baseURL: origin, viewport: { width: 1366, height: 850 } });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await google.stop();
});

describe("Sign in with Google", () => {
  step("signs up with Google from /signup, from the keyboard, and lands in the app signed in", async () => {
    await page.goto("/signup");
    const button = page.getByRole("link", { name: "Sign up with Google" });
    await button.waitFor();
    // Google's button: white, its dark grey wording, and the mark beside it.
    expect(
      await button.evaluate((element) => {
        const style = getComputedStyle(element);
        return {
          background: style.backgroundColor,
          color: style.color,
          height: element.getBoundingClientRect().height,
        };
      }),
    ).toEqual({ background: "rgb(255, 255, 255)", color: "rgb(31, 31, 31)", height: 40 });
    expect(await button.locator("svg path").count()).toBe(4);
    await atBothWidths(page, "google-signup");
    await button.focus();
    await page.keyboard.press("Enter");
    await atGoogle(newcomer.email);
    // A new account starts at the welcome page, greeted by its Google name, and sets up its business.
    await page.waitForURL("**/app/welcome");
    await page.getByText(`Welcome, ${newcomer.name}!`).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("crafter.expiresAt"))).toBeTruthy();
    await page.getByTestId("welcome-name").fill("Ada's Analytical Bakery");
    await page.getByTestId("welcome-description").fill("Bread baked by engine, in Marylebone");
    await page.getByTestId("welcome-submit").click();
    await page.waitForURL("**/app/dashboard");
  });

  step("lists Google as the account's only way in, and refuses to unlink it before a password is set", async () => {
    await openSignInMethods();
    const googleRow = page.getByTestId("signin-method-google");
    expect(await googleRow.getAttribute("data-linked")).toBe("true");
    expect(await page.getByTestId("signin-method-google-details").textContent()).toContain(newcomer.email);
    expect(await page.getByTestId("signin-method-password").getAttribute("data-linked")).toBe("false");
    await page.getByTestId("signin-method-unlink-google").click();
    await page.getByRole("button", { name: "Unlink", exact: true }).last().click();
    const refused = page.getByTestId("signin-methods-refused");
    await refused.waitFor();
    expect(await refused.textContent()).toContain("Set a password first");
    expect(await refused.textContent()).toContain("only way to sign in");
    expect(await googleRow.getAttribute("data-linked")).toBe("true");
    await atBothWidths(page, "google-signin-methods-refused");
  });

  step("signs out, is told when it cancels at Google, then signs in with Google again", async () => {
    await signOut();
    await page.goto("/signin");
    await page.getByRole("link", { name: "Sign in with Google" }).click();
    await page.waitForURL(`${issuer.origin}/interaction/**`);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL("**/signin?error=google_denied");
    expect(await page.getByTestId("google-error").textContent()).toContain("Google sign-in was cancelled");
    await atBothWidths(page, "google-signin-cancelled");

    await page.getByRole("link", { name: "Sign in with Google" }).click();
    await atGoogle(newcomer.email);
    await page.waitForURL((url) => url.pathname.startsWith("/app"));
    await openSignInMethods();
    expect(await page.getByTestId("signin-method-google-details").textContent()).toContain(newcomer.email);
  });

  step("links Google to a password account of the same email only at its password sign-in", async () => {
    await signOut();
    const { session, email } = await verifiedSession("google-link-e2e");
    expect(
      (await session.post("/api/projects/createProject", { name: "Hopper Compilers", description: "Compilers" }))
        .status,
    ).toBe(201);
    google.addAccount(googleAccount(email, "Grace Hopper"));
    await page.goto("/signin");
    await page.getByRole("link", { name: "Sign in with Google" }).click();
    await atGoogle(email);
    await page.waitForURL("**/signin?google=link*");
    const notice = page.getByTestId("signin-google-link");
    expect(await notice.textContent()).toContain(email);
    // Not signed in, and nothing linked, by Google alone.
    expect(await page.evaluate(() => localStorage.getItem("crafter.expiresAt"))).toBeNull();
    expect((await session.get("/api/user/identities")).body.result.identities).toEqual([]);
    expect(await page.getByTestId("signin-email").inputValue()).toBe(email);
    await atBothWidths(page, "google-signin-link");

    await page.getByTestId("signin-password").fill("password-123");
    await page.getByTestId("signin-submit").click();
    await page.waitForURL((url) => url.pathname.startsWith("/app"));
    await openSignInMethods();
    expect(await page.getByTestId("signin-method-google").getAttribute("data-linked")).toBe("true");
    expect(await page.getByTestId("signin-method-google-details").textContent()).toContain(email);
    expect(await page.getByTestId("signin-method-password").getAttribute("data-linked")).toBe("true");

    await page.getByTestId("signin-method-unlink-google").click();
    await page.getByRole("button", { name: "Unlink", exact: true }).last().click();
    await page.locator('[data-testid="signin-method-google"][data-linked="false"]').waitFor();
    expect((await session.get("/api/user/identities")).body.result.identities).toEqual([]);
    await atBothWidths(page, "google-signin-methods");
  });
});
