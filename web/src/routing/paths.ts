/**
 * Paths of the route table (no React), for the code below `app/` that links to them: the app's home,
 * the welcome page, the base table's pages and the craft page of a workflow.
 */
export const APP_HOME = "/app/dashboard";
export const WELCOME_PATH = "/app/welcome";

export const PAGES = {
  craft: "/app/crafts/:workflowName",
  workflows: "/app/workflows",
  tools: "/app/tools",
  smartDocuments: "/app/smart-documents",
  smartDocumentsTools: "/app/smart-documents/tools",
  smartDocumentsCrafts: "/app/smart-documents/crafts",
  favorites: "/app/favorites",
  subscription: "/app/settings/subscription",
  wallet: "/app/settings/wallet",
} as const;

/**
 * The craft page of a workflow; `standalone` crafts (smart documents) have no project and start
 * with `POST /standalone`.
 */
export function craftHref(workflowName: string, { standalone = false }: { standalone?: boolean } = {}): string {
  const path = `/app/crafts/${encodeURIComponent(workflowName)}`;
  return standalone ? `${path}?standalone=1` : path;
}
