import type { GatewaySession } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { Browser, Page } from "playwright-core";
import { browserStep, launchChromium, signedInContext } from "./support";

// The media steps in the craft page: a podcast's audio recorded (espeak-ng on the test stack) and
// played, and a social post's image made (the offline composer) and shown in the image select viewer.
// The earlier steps are completed through the API: the renderer's own tests cover their forms.

let browser: Browser;
let page: Page;
let session: GatewaySession;

beforeAll(async () => {
  browser = await launchChromium();
  ({ page, session } = await signedInContext(browser, "media-steps"));
  page.setDefaultTimeout(60_000);
});

afterAll(async () => {
  await browser?.close();
});

const step = browserStep("media-steps", () => page);

async function craftUpTo(workflowName: string, steps: [string, Record<string, unknown>][]): Promise<string> {
  const craftId = (await session.post("/api/workflowsV2", { workflowName })).body.result.craftId as string;
  for (const [stepName, values] of steps) {
    const done = await session.put(`/api/workflowsV2/${craftId}/step/complete`, { stepName, values });
    expect(`${stepName} ${done.status}`).toBe(`${stepName} 200`);
  }
  return craftId;
}

const credits = async () => (await session.get("/api/user/account")).body.result.credits as number;

describe("media steps in the craft page", () => {
  step("signs in with a project", async () => {
    const project = await session.post("/api/projects/createProject", {
      name: "Crumb & Co",
      description: "A bakery that bakes slow-fermented sourdough in small batches.",
    });
    expect(project.status).toBe(201);
    // signedInContext's browser is signed in: the app opens without the sign-in form.
    await page.goto("/app/dashboard");
    await page.getByTestId("dashboard").waitFor();
  });

  step("records a podcast's audio and plays it", async () => {
    const craftId = await craftUpTo("PodcastWriter", [
      ["episode", { topic: "Keeping a starter alive", host: "Sam", talkingPoints: ["Feeding", "Reviving"] }],
      ["script", {}],
    ]);
    const before = await credits();
    await page.goto(`/app/crafts/PodcastWriter?craftId=${craftId}`);
    // The craft is complete: it opens on "Your script", the whole episode, not only its wrap-up.
    const draft = page.getByTestId("craft-result");
    await draft.getByText("Welcome").first().waitFor();
    await draft.getByText("Thanks for listening").first().waitFor();
    await page.getByTestId("view-steps").click();
    await page.getByTestId("step-tab-audio").click();
    const record = page.getByTestId("generate-more-audio");
    await record.filter({ hasText: "Record with AI voice" }).click();
    const player = page.getByTestId("audio-player");
    await player.waitFor({ timeout: 120_000 });
    // The browser loads the MP3 through the gateway and can play it: a real duration, and it plays.
    await page.waitForFunction(
      () => {
        const audio = document.querySelector('[data-testid="audio-player"]') as HTMLAudioElement | null;
        return !!audio && audio.readyState >= 1 && Number.isFinite(audio.duration) && audio.duration > 5;
      },
      undefined,
      { timeout: 30_000 },
    );
    const played = await player.evaluate(async (audio: HTMLAudioElement) => {
      audio.muted = true;
      await audio.play();
      await new Promise((resolve) => setTimeout(resolve, 600));
      audio.pause();
      return audio.currentTime;
    });
    expect(played).toBeGreaterThan(0.1);
    expect(before - (await credits())).toBeGreaterThanOrEqual(2);
    // Saved with the craft: a reload shows it again, and the button now redoes it.
    await page.reload();
    await page.getByTestId("view-steps").click();
    await page.getByTestId("step-tab-audio").click();
    await page.getByTestId("audio-player").waitFor();
    await record.filter({ hasText: "Regenerate" }).waitFor();
  });

  step("makes a social post's image and shows it in the result", async () => {
    const craftId = await craftUpTo("SocialMediaPostWriter", [
      ["brief", { network: "instagram", topic: "Our new sourdough starter kit is here" }],
      ["imageIdeas", { subject: "A jar of bubbling starter", primaryColor: "#c0392b" }],
    ]);
    await page.goto(`/app/crafts/SocialMediaPostWriter?craftId=${craftId}`);
    await page.getByTestId("view-steps").click();
    await page.getByTestId("step-tab-image").click();
    await page.getByTestId("generate-more-image").filter({ hasText: "Create image" }).click();
    await page.getByTestId("viewer-image-select").waitFor({ timeout: 120_000 });
    await page.waitForFunction(
      () => {
        const image = document.querySelector('[data-testid="viewer-image-select"] img') as HTMLImageElement | null;
        return !!image && image.complete && image.naturalWidth === 1080 && image.naturalHeight === 1080;
      },
      undefined,
      { timeout: 30_000 },
    );
    await page.getByText("composed, not generated").first().waitFor();
  });

  step("uses a stock photo of the user's choice as a social post's image instead of generating one", async () => {
    const craftId = await craftUpTo("SocialMediaPostWriter", [
      ["brief", { network: "facebook", topic: "Spring opening hours" }],
      ["imageIdeas", { subject: "A sunny shop window" }],
    ]);
    const before = await credits();
    await page.goto(`/app/crafts/SocialMediaPostWriter?craftId=${craftId}`);
    await page.getByTestId("view-steps").click();
    await page.getByTestId("step-tab-image").click();
    await page.getByTestId("pick-image-image").click();
    const modal = page.locator(".ant-modal").filter({ has: page.getByTestId("image-select-tab-stocked") });
    await modal.waitFor();
    await modal.getByTestId("image-select-tab-stocked").click();
    // The shipped system images (the test stack has no Unsplash key), 1600×1067 each.
    const photo = modal.getByTestId("stock-grid").getByTestId("asset-card").first();
    await photo.waitFor();
    await photo.click();
    await modal.getByTestId("image-select-ok").click();
    await page.waitForFunction(
      () => {
        const image = document.querySelector('[data-testid="viewer-image-select"] img') as HTMLImageElement | null;
        return !!image && image.complete && image.naturalWidth === 1600 && image.naturalHeight === 1067;
      },
      undefined,
      { timeout: 60_000 },
    );
    expect(await credits()).toBe(before);
    const craft = (await session.get(`/api/workflowsV2/${craftId}`)).body.result;
    const [result] = craft.steps.find((s: { name: string }) => s.name === "image").results;
    expect(result).toMatchObject({ engine: "user", data: { asset: { source: "system" } } });
  });
});

describe("the visual designer in a VisualDesigner craft", () => {
  const canvasCount = async () => Number(await page.getByTestId("designer-canvas").getAttribute("data-elements"));
  async function expectCount(expected: number) {
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && (await canvasCount()) !== expected) await page.waitForTimeout(100);
    expect(await canvasCount()).toBe(expected);
  }

  step(
    "opens the canvas with the brief's headline, adds, undoes, generates an image, saves, and shows the PNG as the result",
    async () => {
      const craftId = await craftUpTo("VisualDesigner", [
        [
          "brief",
          {
            format: "story",
            headline: "Autumn wheel truing",
            subject: "A bike wheel in a workshop",
            primaryColor: "#102030",
          },
        ],
      ]);
      const before = await credits();
      await page.goto(`/app/crafts/VisualDesigner?craftId=${craftId}`);
      const designer = page.getByTestId("craft-designer");
      await designer.waitFor();
      // The brief applied: the story's page size, its headline on the page, its prompts offered.
      await expect(designer.getByTestId("designer-size").textContent()).resolves.toBe("1080×1920");
      await expect(designer.getByTestId("designer-canvas").getAttribute("data-texts")).resolves.toContain(
        "Autumn wheel truing",
      );
      await designer.getByTestId("designer-generate-image").waitFor();
      // Background (the first child), accent bar, headline and body.
      await expectCount(3);
      await designer.getByTestId("designer-add-shape").click();
      await expectCount(4);
      await designer.getByTestId("designer-undo").click();
      await expectCount(3);
      // An image from the brief's first prompt, through the media service's generation (the offline
      // composer here): debited like any generated image.
      await designer.getByTestId("designer-generate-image").click();
      await expectCount(4);
      expect(before - (await credits())).toBe(5);

      await designer.getByTestId("designer-save").click();
      // Saving completes the step and the craft: the result is the design's PNG, in the story's size.
      const viewer = page.getByTestId("viewer-visual-designer");
      await viewer.waitFor({ timeout: 60_000 });
      await page.waitForFunction(
        () => {
          const image = document.querySelector('[data-testid="viewer-visual-designer"] img') as HTMLImageElement | null;
          return !!image && image.complete && image.naturalWidth === 1080 && image.naturalHeight === 1920;
        },
        undefined,
        { timeout: 30_000 },
      );
      // A designer save is no AI generation: only the generated image was debited.
      expect(before - (await credits())).toBe(5);
      const craft = (await session.get(`/api/workflowsV2/${craftId}`)).body.result;
      expect(craft.state).toBe("Completed");
      const design = craft.steps.find((s: { name: string }) => s.name === "design").results[0].data.design;
      // "Open in the visual designer" reopens the same design.
      await expect(viewer.getByTestId("open-designer").getAttribute("href")).resolves.toBe(
        `/app/designer?id=${encodeURIComponent(design.id)}`,
      );
    },
  );

  step("fits a phone (390 px): nothing runs past the page or the designer's toolbar", async () => {
    const craftId = await craftUpTo("VisualDesigner", [
      ["brief", { format: "square", headline: "Fresh rye on Fridays", subject: "A rye loaf" }],
    ]);
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`/app/crafts/VisualDesigner?craftId=${craftId}`);
      const toolbar = page.getByTestId("designer-toolbar");
      await toolbar.waitFor();
      await page.getByTestId("designer-add-logo").waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      // Every control inside the toolbar's box (the add buttons' group does not wrap: with their
      // labels it ran past the card's edge).
      const past = await toolbar.evaluate((bar) => {
        const right = bar.getBoundingClientRect().right;
        return [...bar.querySelectorAll("button, .ant-select")]
          .filter((control) => control.getBoundingClientRect().right > right + 0.5)
          .map((control) => control.getAttribute("data-testid") ?? control.textContent);
      });
      expect(past).toEqual([]);
    } finally {
      await page.setViewportSize(desktop);
    }
  });

  step("opens a VisualIdentity's palette and font in the designer", async () => {
    const craftId = await craftUpTo("VisualIdentity", [
      ["brand", { businessName: "Crumb & Co", primaryColor: "#c0392b", style: "classic", headingFont: "Montserrat" }],
    ]);
    await page.goto(`/app/crafts/VisualIdentity?craftId=${craftId}`);
    await page.getByTestId("view-steps").click();
    await page.getByTestId("step-tab-identity").click();
    await page.getByTestId("open-identity-designer").click();
    await page.waitForURL(/\/app\/designer\?/);
    const query = new URL(page.url()).searchParams;
    expect(query.get("colours")?.split(",")[0]).toBe("#c0392b");
    expect(query.get("font")).toBe("Montserrat");
    await expect(page.getByTestId("designer-size").textContent()).resolves.toBe("1080×1080");
  });
});
