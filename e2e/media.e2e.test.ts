/// <reference lib="dom" />
import { readFileSync } from "node:fs";
import { databaseName } from "@crafter/kit";
import { GatewaySession, gatewayUrl, linkFrom, stackEnv, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import mongoose from "mongoose";
import type { Browser, BrowserContext, Download, Page } from "playwright-core";
import { browserStep, launchChromium, signInThroughPage } from "./support";

// Issue 11 in Debian's Chromium against the test stack: design a graphic on the canvas, undo,
// export it as PNG; upload that image with progress, pick it in the image selection modal, crop it
// for Instagram and export it.
//
// What it assumes: the media routes of docs/second-half-contract.md ("Media REST"), and that
// `visual_designer` is on by default. `image_edit` is off by default, so the test turns it on for
// its user as an operator would (an override in the account service's flag_overrides).

const base = gatewayUrl();
const email = uniqueEmail("media");
const password = "a long and honest passphrase";

let browser: Browser;
let context: BrowserContext;
let page: Page;
/** The PNG the designer exported (1600×900), uploaded in the second part. */
let designedPng = "";

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ baseURL: base, acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  // Generous: eight stacks share two cores here, and a first page load can take tens of seconds.
  page.setDefaultTimeout(90_000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** A step that leaves a screenshot and the page's text in .data/e2e-artifacts when it fails. */
const browserSteps = browserStep("media", () => page);
const step = (name: string, fn: () => Promise<void>) => browserSteps(name, fn, 300_000);

/** Width and height from a PNG's IHDR chunk; throws when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature)) throw new Error("not a PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function saved(download: Download): Promise<{ name: string; bytes: Buffer; path: string }> {
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: readFileSync(path), path };
}

async function elementCount(): Promise<number> {
  return Number(await page.getByTestId("designer-canvas").getAttribute("data-elements"));
}

async function expectCount(expected: number) {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline && (await elementCount()) !== expected) await page.waitForTimeout(100);
  expect(await elementCount()).toBe(expected);
}

describe("media in the browser", () => {
  step("signs up (API), turns image_edit on for the user, signs in (UI)", async () => {
    const session = new GatewaySession(base);
    expect((await session.post("/auth/signup", { email, password, displayName: "Robin" })).status).toBe(200);
    const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
    expect((await session.post("/auth/verify", { token: link.searchParams.get("token") })).status).toBe(200);
    expect((await session.post("/auth/signin", { email, password })).status).toBe(200);
    const project = await session.post("/api/projects/createProject", {
      name: "Spoke & Sprocket Bicycle Repair",
      description: "A family-run bicycle repair shop that services road, gravel and cargo bikes since 2009.",
      audience: "Commuters and weekend riders",
      keywords: ["bike repair", "wheel building"],
      websiteUrl: "spokeandsprocket.example.com",
    });
    expect(project.status).toBe(201);
    const check = await session.get<{ user: { userId: string } }>("/auth/check");
    const userId = check.body.result.user.userId;
    expect(userId).toBeTruthy();

    const env = stackEnv();
    const connection = await mongoose
      .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
        dbName: databaseName(env.CRAFTER_NAMESPACE ?? "crafter", "account"),
        serverSelectionTimeoutMS: 5000,
      })
      .asPromise();
    try {
      await connection
        .collection<{ _id: string; userId: string; flag: string; enabled: boolean; updatedAt: Date }>("flag_overrides")
        .insertOne({ _id: `e2e-${userId}`, userId, flag: "image_edit", enabled: true, updatedAt: new Date() });
    } finally {
      await connection.close();
    }

    await signInThroughPage(page, email, password);
  });

  step("designs a graphic on the canvas, undoes, and exports it as a PNG of the template's size", async () => {
    await page.goto("/app/designer?template=x-post&headline=Autumn%20wheel%20truing&colours=%23102030,%23ffcc00");
    await page.getByTestId("designer-canvas").waitFor();
    await expect(page.getByTestId("designer-size").textContent()).resolves.toBe("1600×900");
    // The template: background (the first child) + accent bar, headline and body.
    await expectCount(3);

    await page.getByTestId("designer-add-text").click();
    await expectCount(4);
    await page.getByTestId("designer-text").fill("Book this week");
    await page.getByTestId("designer-add-shape").click();
    await expectCount(5);

    await page.getByTestId("designer-undo").click();
    await expectCount(4);
    await page.getByTestId("designer-redo").click();
    await expectCount(5);
    // The keyboard shortcut works once the focus leaves the text box.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Control+z");
    await expectCount(4);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("designer-export-png").click(),
    ]);
    const file = await saved(download);
    expect(file.name).toMatch(/\.png$/);
    expect(pngSize(file.bytes)).toEqual({ width: 1600, height: 900 });
    // Not a blank page: the PNG carries the drawing (a flat colour compresses to a few hundred bytes).
    expect(file.bytes.length).toBeGreaterThan(5_000);
    designedPng = file.path;
  });

  step(
    "uploads the image with progress, picks it in the selection modal, crops it for Instagram and exports it",
    async () => {
      expect(designedPng).not.toBe("");
      await page.goto("/app/assets");
      await page.getByTestId("assets-page").waitFor();
      await page.getByTestId("asset-grid-empty").waitFor();

      const chooser = page.waitForEvent("filechooser");
      await page.getByTestId("asset-upload").click();
      await (await chooser).setFiles({
        name: "autumn-wheel.png",
        mimeType: "image/png",
        buffer: readFileSync(designedPng),
      });
      const item = page.getByTestId("upload-item").first();
      await item.waitFor();
      await page.locator('[data-testid="upload-item"][data-status="done"]').waitFor();
      await expect(item.getByRole("progressbar").getAttribute("aria-valuenow")).resolves.toBe("100");
      const card = page.getByTestId("asset-card").first();
      await card.waitFor();
      await expect(card.getByTestId("asset-name").textContent()).resolves.toContain("autumn-wheel");

      // The selection modal opens on its first tab (crafted); the upload is on "Uploaded".
      await page.getByTestId("assets-edit-image").click();
      const modal = page.locator(".ant-modal").filter({ has: page.getByTestId("image-select-tab-crafted") });
      await modal.waitFor();
      await expect(modal.locator(".ant-tabs-tab-active").getByTestId("image-select-tab-crafted").count()).resolves.toBe(
        1,
      );
      await modal.getByTestId("image-select-tab-uploaded").click();
      await modal.getByTestId("uploaded-grid").getByTestId("asset-card").first().click();
      await modal.getByTestId("image-select-ok").click();

      // The editing panel opens on tab "2" (Adjust); crop for Instagram's square post.
      const panel = page.getByTestId("image-edit-panel");
      await panel.waitFor();
      await expect(panel.locator(".ant-tabs-tab-active").getByTestId("edit-tab-adjust").count()).resolves.toBe(1);
      await panel.getByTestId("edit-tab-crop").click();
      await panel.getByTestId("crop-instagram-square").click();
      await panel.getByTestId("preview-staging-image").waitFor();
      await panel.getByTestId("edit-apply").click();
      await panel.getByTestId("preview-current-image").waitFor();
      await expect(panel.getByTestId("preview-history-step").count()).resolves.toBe(1);

      await panel.getByTestId("edit-tab-export").click();
      await panel.getByTestId("export-type").getByText("Single file").click();
      const [download] = await Promise.all([page.waitForEvent("download"), panel.getByTestId("edit-export").click()]);
      const file = await saved(download);
      expect(file.name).toMatch(/\.png$/);
      expect(pngSize(file.bytes)).toEqual({ width: 1080, height: 1080 });
    },
  );
});
