import type { Caller } from "@crafter/kit";
import type { MediaDeps } from "../deps";

/** Stock photos for the image selection modal (Unsplash with a key, else the system images). */
export async function searchStock(deps: MediaDeps, caller: Caller, input: { q: string; page: number }) {
  const page = Number.isInteger(input.page) && input.page >= 1 && input.page <= 1000 ? input.page : 1;
  return deps.stock.search(input.q.slice(0, 200), page, caller.signal);
}
