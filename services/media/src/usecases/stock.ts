import { appError, type Caller } from "@crafter/kit";
import type { MediaDeps } from "../deps";
import { STOCK_ID } from "../providers/stock";

/** Stock photos for the image selection modal (Unsplash with a key, else the system images). */
export async function searchStock(deps: MediaDeps, caller: Caller, input: { q: string; page: number }) {
  const page = Number.isInteger(input.page) && input.page >= 1 && input.page <= 1000 ? input.page : 1;
  return deps.stock.search(input.q.slice(0, 200), page, caller.signal);
}

/**
 * A stock photo was chosen (picked in the image selection modal): Unsplash records the download, as
 * its API guidelines require; the system images have nothing to record.
 * @throws CR_ERR_BAD_REQUEST (not a stock id), NOT_FOUND, MEDIA_PROVIDER_FAILED.
 */
export async function trackStockDownload(deps: MediaDeps, caller: Caller, input: { id: string }) {
  if (!STOCK_ID.test(input.id)) throw appError("CR_ERR_BAD_REQUEST", "Not a stock photo id.", { id: "Invalid" });
  return { tracked: await deps.stock.trackDownload(input.id, caller.signal) };
}
