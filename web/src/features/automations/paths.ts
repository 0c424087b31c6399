// The area's page paths, apart from routes.tsx (which lazy-loads the pages that use them).
export const AUTOMATION_PAGES = {
  list: "/app/automation",
  templates: "/app/automation/templates",
  automation: (id: string) => `/app/automation/${encodeURIComponent(id)}`,
} as const;
