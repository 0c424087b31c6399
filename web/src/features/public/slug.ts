import { PAGE_SLUG_MAX, pageSlugProblem } from "@crafter/validation";

/** A first guess at an address from the craft's name: "Bake real bread!" → "bake-real-bread". */
export function suggestSlug(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, PAGE_SLUG_MAX)
    .replace(/-+$/, "");
  return pageSlugProblem(slug) ? "" : slug;
}
