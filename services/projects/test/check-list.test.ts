import { describe, expect, it } from "@jest/globals";
import { type CheckListFacts, computeCheckList } from "../src/domain/check-list";

const empty: CheckListFacts = { description: "", audience: "", keywords: [], websiteUrl: "", craftsCount: 0 };
const done = (facts: CheckListFacts) =>
  Object.fromEntries(computeCheckList(facts).map((item) => [item.key, item.done]));

describe("project check-list", () => {
  it("has five items in order, with their titles", () => {
    expect(computeCheckList(empty)).toEqual([
      { key: "create-project", title: "Create your project", done: true },
      { key: "describe-business", title: "Describe your business", done: false },
      { key: "add-keywords", title: "Add keywords", done: false },
      { key: "add-website", title: "Add your website", done: false },
      { key: "first-craft", title: "Craft your first content", done: false },
    ]);
  });

  it("needs both description and audience to describe the business", () => {
    expect(done({ ...empty, description: "Bread" })["describe-business"]).toBe(false);
    expect(done({ ...empty, audience: "Locals" })["describe-business"]).toBe(false);
    expect(done({ ...empty, description: "Bread", audience: "  " })["describe-business"]).toBe(false);
    expect(done({ ...empty, description: "Bread", audience: "Locals" })["describe-business"]).toBe(true);
  });

  it("needs at least three keywords", () => {
    expect(done({ ...empty, keywords: ["a", "b"] })["add-keywords"]).toBe(false);
    expect(done({ ...empty, keywords: ["a", "b", " "] })["add-keywords"]).toBe(false);
    expect(done({ ...empty, keywords: ["a", "b", "c"] })["add-keywords"]).toBe(true);
  });

  it("needs a website", () => {
    expect(done({ ...empty, websiteUrl: "https://acme.com/" })["add-website"]).toBe(true);
  });

  it("is crafted once the project has a craft", () => {
    expect(done({ ...empty, craftsCount: 1 })["first-craft"]).toBe(true);
    expect(done({ ...empty, craftsCount: 7 })["first-craft"]).toBe(true);
  });

  it("is all done for a complete project", () => {
    const all = computeCheckList({
      description: "Bread",
      audience: "Locals",
      keywords: ["bread", "pastry", "coffee"],
      websiteUrl: "https://acme.com/",
      craftsCount: 2,
    });
    expect(all.every((item) => item.done)).toBe(true);
  });
});
