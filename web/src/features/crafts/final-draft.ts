import type { Craft, CraftStep, StepResult } from "../../api/types";

/** The result of each item of an IteratorStep's results, in item order: its selected one, else its latest. */
function perItem(results: readonly StepResult[]): StepResult[] {
  const byItem = new Map<number, StepResult>();
  for (const result of results) {
    const current = byItem.get(result.itemIndex!);
    if (!current?.selected) byItem.set(result.itemIndex!, result);
  }
  return [...byItem.entries()].sort(([a], [b]) => a - b).map(([, result]) => result);
}

/**
 * The craft's final draft: the newest result of the last step that has one, preferring rich text.
 * When those results were written per item (an IteratorStep: the podcast's script, a page's
 * sections) the draft is every item's result in order, not only the last item's.
 */
export function finalDraft(craft: Pick<Craft, "steps">): { step: CraftStep; result: StepResult } | null {
  const steps = [...(craft.steps ?? [])].reverse();
  const withResults = steps.filter((step) => (step.results?.length ?? 0) > 0);
  const rich =
    withResults.find((step) => step.viewer === "rich text") ??
    withResults.find((step) => step.results?.some((result) => result.format === "html"));
  const step = rich ?? withResults[0];
  const results = step?.results ?? [];
  const last = results.at(-1);
  if (!step || !last) return null;
  if (results.length < 2 || !results.every((result) => typeof result.itemIndex === "number")) {
    return { step, result: last };
  }
  const items = perItem(results);
  const text = (result: StepResult) => (typeof result.content === "string" ? result.content : "");
  const content = items.map(text).join(last.format === "html" ? "\n" : "\n\n");
  const { itemIndex: _index, item: _item, ...rest } = last;
  return { step, result: { ...rest, id: `${step.name}:all`, content } };
}
