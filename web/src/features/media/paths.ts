// The area's page paths, apart from routes.tsx (which lazy-loads the pages that use them).
export const MEDIA_PAGES = {
  assets: "/app/assets",
  designer: "/app/designer",
} as const;
