import { describe, expect, it } from "@jest/globals";
import { engineLabel } from "./engine-label";

describe("engineLabel", () => {
  it("never shows an internal function name", () => {
    expect(engineLabel("function:competitorResearch")?.label).toBe("Competitor data");
    expect(engineLabel("function:websiteAudit")?.label).toBe("Website audit");
    expect(engineLabel("function:somethingNew")?.label).toBe("Data");
  });

  it("says offline drafts are offline and names the model otherwise", () => {
    expect(engineLabel("offline")?.label).toBe("Offline draft");
    expect(engineLabel("gpt-4o-mini")?.label).toBe("AI · gpt-4o-mini");
    expect(engineLabel("openai:gpt-4o-mini")?.label).toBe("AI · gpt-4o-mini");
    expect(engineLabel("")).toBeNull();
  });
});
