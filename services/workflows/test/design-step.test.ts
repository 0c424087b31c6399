import { actionBehaviour } from "@crafter/workflow-language";
import { describe, expect, it } from "@jest/globals";
import { assertCanComplete, CraftRuleError, completeStep, editStep, startCraft } from "../src/domain/craft";
import { chosenId, designResultData, type MediaAssetRef } from "../src/domain/media-step";
import { changeResults } from "../src/domain/results";
import type { CraftProgress, ResultRecord } from "../src/domain/types";
import { craftView } from "../src/domain/view";
import { profile, registry } from "./fixtures";

const now = new Date("2026-01-01T10:00:00Z");
const designer = registry.latest("VisualDesigner")!;
const email = registry.latest("EmailWriter")!;
const step = (progress: CraftProgress, name: string) => progress.steps.find((record) => record.name === name)!;

const png: MediaAssetRef = {
  id: "a-1",
  type: "image",
  name: "Autumn wheel truing",
  mime: "image/png",
  url: "/api/media/assets/a-1/download",
  thumbnailUrl: "/api/media/assets/a-1/download",
  source: "designer",
  width: 1080,
  height: 1920,
};

function designResult(designId: string, asset = png): ResultRecord {
  return {
    id: `r-${designId}`,
    content: asset.name,
    format: "data",
    data: designResultData(designId, asset),
    engine: "media:designer",
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: now,
  };
}

const prompts: ResultRecord = {
  id: "p1",
  content: "## Prompts\n- A mechanic truing a wheel",
  format: "list",
  sections: { prompts: ["A mechanic truing a wheel"] },
  engine: "offline",
  usage: { inputTokens: 0, outputTokens: 0 },
  createdAt: now,
};

function briefDone(): CraftProgress {
  const started = startCraft(designer, profile, now);
  const values = { format: "story", headline: "Autumn wheel truing", subject: "A bike wheel" };
  return completeStep(designer, started, "brief", values, [prompts], profile, now).progress;
}

describe("a VisualDesigner step", () => {
  it("no longer is coming: no action kind of the language opens skipped", () => {
    for (const kind of ["VisualDesigner", "TemplateDesigner", "EmailAttachmentUploader"]) {
      expect(actionBehaviour(kind)).not.toBeNull();
    }
    expect(actionBehaviour("VisualDesigner")).toBe("design");
  });

  it("waits for the design, then completes with it and completes the craft", () => {
    const open = briefDone();
    // The canvas is open, neither skipped nor completed: the craft waits for the user's design.
    expect(step(open, "design")).toMatchObject({ state: "InProgress", results: [] });
    expect(step(open, "design").skipped).toBeUndefined();
    expect(open).toMatchObject({ currentStep: "design", state: "InProgress" });
    expect(() => assertCanComplete(designer, open, "design")).not.toThrow();

    const done = completeStep(designer, open, "design", {}, [designResult("d-1")], profile, now);
    expect(done.craftCompleted).toBe(true);
    const saved = step(done.progress, "design");
    expect(saved.state).toBe("Completed");
    expect(saved.results).toHaveLength(1);
    expect(saved.results[0]!.data).toEqual({
      design: { id: "d-1", name: "Autumn wheel truing", width: 1080, height: 1920 },
      asset: png,
    });
    const view = craftView(designer, {
      ...done.progress,
      id: "c1",
      userId: "u1",
      projectId: "",
      profileId: "",
      workflowName: designer.name,
      workflowVersion: designer.version,
      craftName: "x",
      profile,
      usage: { inputTokens: 0, outputTokens: 0, generations: 0 },
      createdAt: now,
      updatedAt: now,
    });
    const designView = view.steps.find((s) => s.name === "design")!;
    expect(designView).toMatchObject({ status: "completed", viewer: "visual designer" });
    expect(designView.coming).toBeUndefined();
  });

  it("reopens for editing and a second save replaces the design's result (ReplaceResults)", () => {
    const done = completeStep(designer, briefDone(), "design", {}, [designResult("d-1")], profile, now).progress;
    const editing = editStep(designer, done, "design");
    expect(step(editing, "design")).toMatchObject({ state: "InProgress" });
    // Reopening keeps the saved design, so the canvas opens on it.
    expect((step(editing, "design").results[0]!.data as { design: { id: string } }).design.id).toBe("d-1");
    const again = completeStep(
      designer,
      editing,
      "design",
      {},
      [designResult("d-1", { ...png, id: "a-2" })],
      profile,
      now,
    );
    expect(step(again.progress, "design").results.map((r) => (r.data as { asset: { id: string } }).asset.id)).toEqual([
      "a-2",
    ]);
  });

  it("reads the chosen design or asset id the browser sends, and refuses anything else", () => {
    expect(chosenId({ designId: "d-1" }, "designId")).toBe("d-1");
    expect(chosenId({}, "designId")).toBeUndefined();
    expect(chosenId({ assetId: "" }, "assetId")).toBeUndefined();
    expect(() => chosenId({ designId: { $ne: 1 } }, "designId")).toThrow("designId must be an id");
    expect(() => chosenId({ assetId: "../../etc" }, "assetId")).toThrow("assetId must be an id");
  });
});

describe("the email kinds", () => {
  it("open the attachments step completed (not skipped) and keep uploads as data results", () => {
    let progress = startCraft(email, profile, now);
    const attachments = email.steps.findIndex((s) => s.name === "attachments");
    // Complete every step before the attachments with one result each, the way the engine does.
    for (const stepDef of email.steps.slice(0, attachments)) {
      if (step(progress, stepDef.name).state === "Completed") continue;
      const result: ResultRecord = { ...prompts, id: `r-${stepDef.name}`, format: "html", content: "<p>Hi</p>" };
      progress = completeStep(email, progress, stepDef.name, {}, [result], profile, now).progress;
    }
    expect(step(progress, "attachments")).toMatchObject({ state: "Completed", results: [] });
    expect(step(progress, "attachments").skipped).toBeUndefined();
    const asset = { id: "a-9", name: "menu.png", url: "/api/media/assets/a-9/download" };
    const saved = changeResults(
      email,
      progress,
      "attachments",
      { content: "menu.png", data: { asset } },
      () => "x1",
      now,
    );
    expect(step(saved, "attachments").results).toEqual([
      expect.objectContaining({ id: "x1", format: "data", content: "menu.png", data: { asset }, engine: "user" }),
    ]);
  });

  it("refuses to complete a skipped step with the skip's message, never 'coming soon'", () => {
    const progress = briefDone();
    const skipped = {
      ...progress,
      steps: progress.steps.map((r) => (r.name === "design" ? { ...r, skipped: true } : r)),
    };
    try {
      assertCanComplete(designer, skipped, "design");
      throw new Error("not refused");
    } catch (error) {
      expect(error).toBeInstanceOf(CraftRuleError);
      expect((error as Error).message).toBe("“Design” is skipped for this craft.");
    }
  });
});
