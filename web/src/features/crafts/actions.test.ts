import { actionBehaviour } from "@crafter/workflow-language";
import { describe, expect, it } from "@jest/globals";
import type { CraftStep } from "../../api/types";
import { canGenerateMore, generateMoreLabel, isDesignStep, keepsAssets, resultCountLabel } from "./actions";

const step = (kind: string, extra: Partial<CraftStep> = {}): CraftStep => ({
  name: "s",
  kind: "FormStep",
  state: "InProgress",
  status: "inprogress",
  action: { kind, resultMode: "AppendResults" },
  ...extra,
});

describe("action kinds", () => {
  it("streams the text kinds, calls functions, writes inline, makes media, designs, and lets the browser pick", () => {
    expect(actionBehaviour("TextGenerator")).toBe("stream");
    expect(actionBehaviour("promptWriterAction")).toBe("stream");
    expect(actionBehaviour("FunctionCaller")).toBe("function");
    expect(actionBehaviour("InlineTextGenerator")).toBe("inline");
    for (const kind of ["ImageAppender", "AudioGenerator"]) {
      expect(actionBehaviour(kind)).toBe("media");
      expect(keepsAssets(step(kind))).toBe(true);
    }
    expect(actionBehaviour("VisualDesigner")).toBe("design");
    expect(isDesignStep(step("VisualDesigner"))).toBe(true);
    expect(canGenerateMore(step("VisualDesigner"))).toBe(false);
    for (const kind of ["TemplateDesigner", "EmailAttachmentUploader"]) {
      expect(actionBehaviour(kind)).toBe("browser");
      expect(keepsAssets(step(kind))).toBe(true);
      expect(canGenerateMore(step(kind))).toBe(false);
    }
    expect(keepsAssets(step("TextGenerator"))).toBe(false);
    expect(actionBehaviour(undefined)).toBeNull();
    expect(actionBehaviour("NoSuchKind")).toBeNull();
    expect(canGenerateMore(step("NoSuchKind"))).toBe(false);
  });

  it("offers generate more on generating steps only, named by result mode", () => {
    expect(canGenerateMore(step("TextGenerator"))).toBe(true);
    expect(canGenerateMore(step("FunctionCaller"))).toBe(true);
    expect(canGenerateMore(step("InlineTextGenerator"))).toBe(false);
    expect(generateMoreLabel(step("TextGenerator"))).toBe("Generate more");
    expect(generateMoreLabel({ action: { kind: "TextGenerator", resultMode: "ReplaceResults" } })).toBe("Regenerate");
  });

  it("offers a media step's own action until it has a result to redo", () => {
    const audio = { kind: "AudioGenerator", label: "Record with AI voice", resultMode: "ReplaceResults" as const };
    expect(canGenerateMore(step("AudioGenerator"))).toBe(true);
    expect(generateMoreLabel({ action: audio, results: [] })).toBe("Record with AI voice");
    expect(generateMoreLabel({ action: audio, results: [{ id: "r", content: "", format: "data" }] })).toBe(
      "Regenerate",
    );
    const images = { kind: "ImageAppender", label: "Add images", resultMode: "AppendResults" as const };
    expect(generateMoreLabel({ action: images, results: [{ id: "r", content: "", format: "data" }] })).toBe(
      "Add images",
    );
  });

  it("counts results against the action's maxResults", () => {
    expect(resultCountLabel(3, 5)).toBe("3 / 5 results");
    expect(resultCountLabel(1, 2)).toBe("1 / 2 results");
    expect(resultCountLabel(1, undefined)).toBe("1 result");
  });
});
