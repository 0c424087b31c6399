/**
 * The onboarding check-list of a project, computed from its PROJECT profile and how many crafts
 * it has. Pure; no I/O.
 */

/** Keywords a project needs before "Add keywords" is done. */
export const MIN_KEYWORDS = 3;

export interface CheckListItem {
  /** Stable identifier the web client can key on. */
  key: string;
  title: string;
  done: boolean;
}

/** What the check-list looks at. */
export interface CheckListFacts {
  description: string;
  audience: string;
  keywords: readonly string[];
  websiteUrl: string;
  /** Crafts created in the project (counted from CraftCreated events). */
  craftsCount: number;
}

const present = (value: string) => value.trim() !== "";

/** The five items, in the order the user is guided through them. */
export function computeCheckList(facts: CheckListFacts): CheckListItem[] {
  return [
    { key: "create-project", title: "Create your project", done: true },
    {
      key: "describe-business",
      title: "Describe your business",
      done: present(facts.description) && present(facts.audience),
    },
    {
      key: "add-keywords",
      title: "Add keywords",
      done: facts.keywords.filter(present).length >= MIN_KEYWORDS,
    },
    { key: "add-website", title: "Add your website", done: present(facts.websiteUrl) },
    { key: "first-craft", title: "Craft your first content", done: facts.craftsCount >= 1 },
  ];
}
