/**
 * The plain data of the route table (no React): paths of the pages and the Create menu's craft
 * entries. routes.tsx builds the router and menus from it.
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

export interface CreateEntry {
  label: string;
  workflowName: string;
  testId: string;
  /** Crafts without a project (smart documents) start with `POST /standalone`. */
  standalone?: boolean;
  /**
   * The page the entry opens instead of the workflow's craft page: the spec's create/email and
   * create/social-media-post template galleries, which also start the writer's craft.
   */
  page?: string;
}

/**
 * The Create menu's craft entries (spec section 2, "Navigation"), each the craft page of one
 * workflow, except Email and Social media post, which open their template galleries (spec:
 * create/email, create/social-media-post).
 */
export const CREATE_WORKFLOWS: CreateEntry[] = [
  { label: "Campaign strategy", workflowName: "Campaign", testId: "nav-create-campaign" },
  { label: "Email", workflowName: "EmailWriter", testId: "nav-create-email", page: "/app/create/email" },
  {
    label: "Social media post",
    workflowName: "SocialMediaPostWriter",
    testId: "nav-create-social-media-post",
    page: "/app/create/social-media-post",
  },
  { label: "Blog post", workflowName: "BlogWriter", testId: "nav-create-blog-post" },
  { label: "Podcast", workflowName: "PodcastWriter", testId: "nav-create-podcast" },
  { label: "Ad", workflowName: "AdsWriter", testId: "nav-create-ad" },
  { label: "Web page", workflowName: "WebPageWriter", testId: "nav-create-web-page" },
  { label: "Smart document", workflowName: "SmartEditor", testId: "nav-create-smart-document", standalone: true },
];

/** The page a Create entry opens: its gallery, or the craft page of its workflow. */
export function createHref(entry: Pick<CreateEntry, "workflowName" | "standalone" | "page">): string {
  if (entry.page) return entry.page;
  const path = `/app/crafts/${encodeURIComponent(entry.workflowName)}`;
  return entry.standalone ? `${path}?standalone=1` : path;
}
