import { describe, expect, it } from "@jest/globals";
import type { WorkflowHeader } from "../../api/types";
import { groupWorkflows, toolHeaders } from "./workflow-groups";

const header = (name: string, category: string, available = true): WorkflowHeader => ({
  name,
  title: name,
  description: "",
  category,
  version: 1,
  available,
});

describe("workflows page grouping", () => {
  it("groups by category in first-seen order, available and coming apart, sorted by title", () => {
    const groups = groupWorkflows([
      header("EmailWriter", "content"),
      header("VisualDesigner", "design", false),
      header("BlogWriter", "content"),
      header("PodcastWriter", "content", false),
      header("Loose", ""),
    ]);
    expect(groups.map((group) => group.category)).toEqual(["Content", "Design", "Other"]);
    expect(groups[0]?.available.map((h) => h.name)).toEqual(["BlogWriter", "EmailWriter"]);
    expect(groups[0]?.coming.map((h) => h.name)).toEqual(["PodcastWriter"]);
  });

  it("resolves the tools list to headers and flags new ones", () => {
    const tools = toolHeaders({
      headers: [header("KeywordResearch", "Research"), header("CompetitorResearch", "Research")],
      toolsList: ["KeywordResearch"],
      newToolsList: ["CompetitorResearch", "Unknown"],
    });
    expect(tools.map((tool) => [tool.name, tool.isNew, tool.available])).toEqual([
      ["KeywordResearch", false, true],
      ["CompetitorResearch", true, true],
      ["Unknown", true, false],
    ]);
  });
});
