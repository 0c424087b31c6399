/** The spec's list meta: `count` items in all, `currentPage` (1-based) of `totalPages` (at least 1). */
export interface PageMeta {
  count: number;
  currentPage: number;
  totalPages: number;
}

/** Page and size from a request: page ≥ 1 (default 1), size 1..100 (default 20). */
export function pageOf(page: number, pageSize: number): { page: number; pageSize: number } {
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: Number.isInteger(pageSize) && pageSize >= 1 ? Math.min(pageSize, 100) : 20,
  };
}
