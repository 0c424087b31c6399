import type { Paged } from "./types";

/** Pages read at most (100 items each): 5,000 campaigns or automations. */
export const MAX_CHOICE_PAGES = 50;

/**
 * Every item of a paged list, reading page 1, 2, … until its last page (at most `maxPages`), so a
 * chooser offers all of them, not only the first page.
 * @throws what `page` throws (the chooser shows it as not loaded).
 */
export async function loadAllPages<T>(
  page: (n: number) => Promise<Paged<T>>,
  maxPages = MAX_CHOICE_PAGES,
): Promise<T[]> {
  const items: T[] = [];
  for (let n = 1; n <= maxPages; n++) {
    const answer = await page(n);
    items.push(...answer.result);
    if (n >= answer.meta.totalPages || answer.result.length === 0) break;
  }
  return items;
}

/**
 * The "Which email" chooser's options: any email, then the campaigns and the other automations
 * (their emails), grouped, each searchable by its name.
 */
export function emailChoiceOptions(
  campaigns: ReadonlyArray<{ id: string; name: string }>,
  automations: ReadonlyArray<{ id: string; name: string }>,
  selfId: string | undefined,
) {
  return [
    { value: "", label: "Any email of this project" },
    { label: "Campaigns", options: campaigns.map((c) => ({ value: c.id, label: c.name })) },
    {
      label: "Automation emails",
      options: automations.filter((a) => a.id !== selfId).map((a) => ({ value: a.id, label: a.name })),
    },
  ];
}
