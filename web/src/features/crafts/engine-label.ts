/**
 * What the user reads for a result's `engine` (internal names such as `function:competitorResearch`
 * never reach the page): the offline engine says so, a function says what it read, a model is "AI".
 */
const FUNCTIONS: Record<string, string> = {
  websiteAudit: "Website audit",
  keywordResearch: "Keyword data",
  competitorResearch: "Competitor data",
};

export function engineLabel(engine: string | null | undefined): { label: string; color: string } | null {
  if (!engine) return null;
  if (engine === "offline") return { label: "Offline draft", color: "gold" };
  if (engine === "user") return { label: "Written by you", color: "default" };
  if (engine.startsWith("function:")) {
    return { label: FUNCTIONS[engine.slice("function:".length)] ?? "Data", color: "cyan" };
  }
  return { label: `AI · ${engine.replace(/^[a-z-]+:/, "")}`, color: "blue" };
}
