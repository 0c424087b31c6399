import { appError, badRequest, type Caller } from "@crafter/kit";
import { PAGE_SLUG_MESSAGES, pageSlugProblem } from "@crafter/validation";
import type { WorkflowsDeps } from "../deps";
import { displayName } from "../domain/craft-index";
import { PUBLISHABLE_WORKFLOW, pageContent } from "../domain/published-page";
import type { PublishedPageRecord } from "../store/page.repository";
import { loadCraft, requireField } from "./common";

/** The business a page is for: the name of the craft's project's business profile, else the craft's profile's. */
async function businessName(deps: WorkflowsDeps, caller: Caller, projectId: string, fallback: string): Promise<string> {
  if (!projectId) return fallback;
  try {
    const { profile } = await deps.clients.profiles.resolve(caller, { projectId, profileId: "" });
    return profile?.name || fallback;
  } catch (error) {
    // The page still publishes; it names the business of the craft's own snapshot.
    deps.logger.warn({ err: error, projectId }, "business name unavailable; using the craft's profile");
    return fallback;
  }
}

/**
 * Publishes the caller's Web Page Writer craft at `/<slug>` (or refreshes it there), with a
 * sanitized copy of its sections as they are now; moving to another slug frees the old one.
 * @throws CR_ERR_BAD_REQUEST (fields.slug, or fields.craftId when the craft is not a web page or has
 *   nothing written), PAGE_SLUG_TAKEN (another page has the slug), NOT_FOUND (not the caller's craft).
 */
export async function publishPage(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { craftId: string; slug: string },
): Promise<PublishedPageRecord> {
  const slug = input.slug.trim();
  const problem = pageSlugProblem(slug);
  if (problem) throw badRequest({ slug: PAGE_SLUG_MESSAGES[problem] });
  const craft = await loadCraft(deps, caller, input.craftId);
  if (craft.workflowName !== PUBLISHABLE_WORKFLOW) {
    throw badRequest({ craftId: "Only a web page craft can be published" });
  }
  const content = pageContent(craft, displayName(craft));
  if (!content) throw badRequest({ craftId: "Write the page's sections before publishing it" });
  const fields = {
    ...content,
    projectId: craft.projectId ?? "",
    businessName: await businessName(deps, caller, craft.projectId, craft.profile?.name ?? ""),
  };
  const now = deps.now();
  const current = await deps.stores.pages.bySlug(slug);
  let page: PublishedPageRecord | null = null;
  if (current && current.userId === caller.userId && current.craftId === craft.id) {
    page = await deps.stores.pages.refresh(caller.userId, slug, fields, now);
  } else if (
    !current &&
    (await deps.stores.pages.claim(slug, { userId: caller.userId, craftId: craft.id, ...fields }, now))
  ) {
    page = await deps.stores.pages.bySlug(slug);
  }
  if (!page) throw appError("PAGE_SLUG_TAKEN");
  // The craft's earlier address (if it had one) is free again.
  await deps.stores.pages.removeForCraft(caller.userId, craft.id, slug);
  return page;
}

/** Takes down the caller's craft's page (only their own: the store is scoped to them). @returns false when it had none. */
export async function unpublishPage(deps: WorkflowsDeps, caller: Caller, input: { craftId: string }): Promise<boolean> {
  const craftId = requireField(input.craftId, "craftId", "Craft id");
  // Also when the craft was deleted since: its page must be removable.
  return (await deps.stores.pages.removeForCraft(caller.userId, craftId)) > 0;
}

/** The page published from the caller's craft, or null. */
export async function getCraftPage(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { craftId: string },
): Promise<PublishedPageRecord | null> {
  const craftId = requireField(input.craftId, "craftId", "Craft id");
  const [page] = await deps.stores.pages.byCraft(caller.userId, craftId);
  return page ?? null;
}

/** The public page at `slug`. @throws NOT_FOUND. */
export async function getPublishedPage(deps: WorkflowsDeps, input: { slug: string }): Promise<PublishedPageRecord> {
  const slug = input.slug.trim().toLowerCase();
  const page = pageSlugProblem(slug) ? null : await deps.stores.pages.bySlug(slug);
  if (!page) throw appError("NOT_FOUND", "Page not found.");
  if (!page.projectId) {
    // Published before pages recorded their project: its craft says.
    const craft = await deps.stores.crafts.findById(page.userId, page.craftId);
    return { ...page, projectId: craft?.projectId ?? "" };
  }
  return page;
}

/** The pages published from a project's crafts (the user is the project's owner), newest first, at most 100. */
export async function listProjectPages(
  deps: WorkflowsDeps,
  input: { userId: string; projectId: string },
): Promise<PublishedPageRecord[]> {
  if (!input.userId || !input.projectId) return [];
  return deps.stores.pages.ofProject(input.userId, input.projectId, 100);
}

/**
 * The pages published from the caller's crafts in `projectId`, newest first, at most 100 (a member
 * acting in the project through a delegated token reads the owner's, whose id it carries).
 * @throws CR_ERR_BAD_REQUEST without a project id.
 */
export async function listMyProjectPages(
  deps: WorkflowsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<PublishedPageRecord[]> {
  if (!input.projectId || input.projectId.length > 64) throw badRequest({ projectId: "projectId is required" });
  return deps.stores.pages.ofProject(caller.userId, input.projectId, 100);
}
