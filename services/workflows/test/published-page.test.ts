import { describe, expect, it } from "@jest/globals";
import { pageContent, sanitizePageHtml } from "../src/domain/published-page";
import type { ResultRecord, StepRecord } from "../src/domain/types";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

function result(content: string, itemIndex: number, minute: number, extra: Partial<ResultRecord> = {}): ResultRecord {
  return {
    id: `r${itemIndex}-${minute}`,
    content,
    format: "html",
    itemIndex,
    engine: "offline",
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: at(minute),
    ...extra,
  };
}

function step(name: string, values: Record<string, string>, results: ResultRecord[] = []): StepRecord {
  return { name, state: "Completed", values, defaults: {}, results };
}

describe("sanitizePageHtml", () => {
  it.each([
    ['<p>Hi</p><script>alert("x")</script>', "<p>Hi</p>"],
    ['<img src="https://a.example/x.png" onerror="alert(1)" />', '<img src="https://a.example/x.png" />'],
    ['<a href="javascript:alert(1)">go</a>', '<a rel="nofollow noopener noreferrer" target="_blank">go</a>'],
    ['<p style="position:fixed" onclick="x()">text</p>', "<p>text</p>"],
    ['<iframe src="https://evil.example"></iframe><object data="x"></object>ok', "ok"],
    ["<svg><script>alert(1)</script></svg>", ""],
    ['<img src="data:text/html;base64,PHNjcmlwdD4=">', "<img />"],
    ['<a href="//evil.example/">x</a>', '<a rel="nofollow noopener noreferrer" target="_blank">x</a>'],
    ["<style>body{display:none}</style><h2>Kept</h2>", "<h2>Kept</h2>"],
  ])("%s → %s", (input, expected) => {
    expect(sanitizePageHtml(input)).toBe(expected);
  });

  it("keeps safe links, opened in a new tab without the opener", () => {
    expect(sanitizePageHtml('<a href="https://crumb.example/kit" target="_top">Shop</a>')).toBe(
      '<a href="https://crumb.example/kit" target="_blank" rel="nofollow noopener noreferrer">Shop</a>',
    );
  });
});

describe("pageContent", () => {
  const brief = step("brief", { description: "Everything to bake your first loaf." });
  const outline = step("outline", { headline: "Bake real bread" });

  it("orders the sections by item, the selected result else the newest, and takes the title and description", () => {
    const write = step("write", {}, [
      result("<h2>Second</h2>", 1, 1),
      result("<h1>Old hero</h1>", 0, 1),
      result("<h1>New hero</h1>", 0, 2),
      result("<h2>Chosen</h2>", 1, 0, { selected: true }),
      result("<h2>Newer, not chosen</h2>", 1, 3),
    ]);
    expect(pageContent({ steps: [brief, outline, write] }, "Craft")).toEqual({
      title: "Bake real bread",
      description: "Everything to bake your first loaf.",
      html: "<h1>New hero</h1>\n<h2>Chosen</h2>",
    });
  });

  it("falls back to the first heading and the page's text, and clips them", () => {
    const long = "word ".repeat(60).trim();
    const write = step("write", {}, [result(`<h1>Hello &amp; welcome</h1><p>${long}</p>`, 0, 0)]);
    const content = pageContent({ steps: [step("brief", {}), step("outline", {}), write] }, "Craft");
    expect(content?.title).toBe("Hello & welcome");
    expect(content?.description.length).toBeLessThanOrEqual(160);
    expect(content?.description.startsWith("Hello & welcome word word")).toBe(true);
    expect(content?.description.endsWith("…")).toBe(true);
  });

  it("turns text results into escaped paragraphs", () => {
    const write = step("write", {}, [result("Line <one>\n\nLine two", 0, 0, { format: "text" })]);
    expect(pageContent({ steps: [brief, outline, write] }, "Craft")?.html).toBe(
      "<p>Line &lt;one&gt;</p>\n<p>Line two</p>",
    );
  });

  it("is null while nothing is written (or only markup without text)", () => {
    expect(pageContent({ steps: [brief, outline, step("write", {})] }, "Craft")).toBeNull();
    expect(
      pageContent({ steps: [brief, outline, step("write", {}, [result("<script>x</script>", 0, 0)])] }, "Craft"),
    ).toBeNull();
  });
});
