import { appError } from "@crafter/kit";
import { z } from "zod";
import { SYSTEM_IMAGES } from "./system-images";

export interface StockImage {
  id: string;
  description: string;
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
  author: string;
  authorUrl: string;
  source: "unsplash" | "system";
}

export interface StockPage {
  result: StockImage[];
  count: number;
  currentPage: number;
  totalPages: number;
  source: "unsplash" | "system";
}

/** Stock photos: Unsplash's search when a key is configured, else the system images. */
export interface StockSource {
  search(q: string, page: number, signal: AbortSignal): Promise<StockPage>;
  /**
   * Records that a photo was chosen (Unsplash's download tracking); false when there is nothing to
   * record (the system images). @throws NOT_FOUND (no such photo), MEDIA_PROVIDER_FAILED.
   */
  trackDownload(id: string, signal: AbortSignal): Promise<boolean>;
  /**
   * The photo's bytes, to keep it as the user's own asset (Unsplash: its download, which its
   * guidelines count as the download). @throws NOT_FOUND (no such photo), MEDIA_PROVIDER_FAILED.
   */
  fetchPhoto(id: string, signal: AbortSignal): Promise<{ bytes: Buffer; source: "unsplash" | "system" }>;
}

/** Largest stock photo kept, in bytes (an image upload's limit). */
const MAX_PHOTO_BYTES = 15 * 1024 * 1024;

/** The ids Unsplash gives its photos (and a system image's): letters, digits, `_` and `-`. */
export const STOCK_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Results per page of a stock search. */
export const STOCK_PAGE_SIZE = 20;

const unsplashSearch = z.object({
  total: z.number(),
  total_pages: z.number(),
  results: z.array(
    z.object({
      id: z.string(),
      description: z.string().nullish(),
      alt_description: z.string().nullish(),
      width: z.number(),
      height: z.number(),
      urls: z.object({ regular: z.string(), small: z.string(), thumb: z.string().optional() }),
      user: z.object({ name: z.string(), links: z.object({ html: z.string() }).partial().optional() }),
    }),
  ),
});

/**
 * Unsplash's `GET /search/photos` (Client-ID key). An empty query searches "business".
 * @throws MEDIA_PROVIDER_FAILED when Unsplash fails or answers something else.
 */
export function unsplashStock(apiUrl: string, accessKey: string, timeoutMs: number): StockSource {
  return {
    async search(q, page, signal) {
      const url = new URL("/search/photos", apiUrl);
      url.searchParams.set("query", q.trim() || "business");
      url.searchParams.set("page", String(page));
      url.searchParams.set("per_page", String(STOCK_PAGE_SIZE));
      let body: z.output<typeof unsplashSearch>;
      try {
        const response = await fetch(url, {
          headers: { authorization: `Client-ID ${accessKey}`, "accept-version": "v1" },
          signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        });
        if (!response.ok) throw new Error(`unsplash answered ${response.status}`);
        body = unsplashSearch.parse(await response.json());
      } catch {
        throw appError("MEDIA_PROVIDER_FAILED", "Unsplash could not be searched. Please try again.");
      }
      return {
        result: body.results.map((p) => ({
          id: p.id,
          description: p.description ?? p.alt_description ?? "",
          url: p.urls.regular,
          thumbnailUrl: p.urls.thumb ?? p.urls.small,
          width: p.width,
          height: p.height,
          author: p.user.name,
          authorUrl: p.user.links?.html ?? "",
          source: "unsplash" as const,
        })),
        count: body.total,
        currentPage: page,
        totalPages: Math.max(1, body.total_pages),
        source: "unsplash",
      };
    },
    async fetchPhoto(id, signal) {
      const timeout = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
      let status: number;
      let location: string;
      try {
        const response = await fetch(new URL(`/photos/${encodeURIComponent(id)}/download`, apiUrl), {
          headers: { authorization: `Client-ID ${accessKey}`, "accept-version": "v1" },
          signal: timeout,
        });
        status = response.status;
        location = status === 200 ? z.object({ url: z.string() }).parse(await response.json()).url : "";
        if (status !== 200) await response.body?.cancel();
      } catch {
        throw appError("MEDIA_PROVIDER_FAILED", "Unsplash could not be reached. Please try again.");
      }
      if (status === 404) throw appError("NOT_FOUND", "No such stock photo.");
      // Only Unsplash's image host (or the API's own origin, a local Unsplash in tests): never any URL.
      const target = URL.canParse(location) ? new URL(location) : undefined;
      const allowed =
        target &&
        ((target.protocol === "https:" && target.hostname === "images.unsplash.com") ||
          target.origin === new URL(apiUrl).origin);
      if (status !== 200 || !allowed)
        throw appError("MEDIA_PROVIDER_FAILED", "Unsplash could not give the photo. Please try again.");
      try {
        const response = await fetch(target, { signal: timeout, redirect: "error" });
        if (!response.ok) throw new Error(`unsplash image answered ${response.status}`);
        const bytes = Buffer.from(await response.arrayBuffer());
        if (bytes.length === 0 || bytes.length > MAX_PHOTO_BYTES) throw new Error("bad size");
        return { bytes, source: "unsplash" };
      } catch {
        throw appError("MEDIA_PROVIDER_FAILED", "Unsplash could not give the photo. Please try again.");
      }
    },
    // `GET /photos/:id/download` is the download_location Unsplash's guidelines ask apps to call
    // when a user chooses a photo; built from our API URL and a checked id, never a URL from a client.
    async trackDownload(id, signal) {
      let status: number;
      try {
        const response = await fetch(new URL(`/photos/${encodeURIComponent(id)}/download`, apiUrl), {
          headers: { authorization: `Client-ID ${accessKey}`, "accept-version": "v1" },
          signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        });
        await response.body?.cancel();
        status = response.status;
      } catch {
        throw appError("MEDIA_PROVIDER_FAILED", "Unsplash could not be reached. Please try again.");
      }
      if (status === 404) throw appError("NOT_FOUND", "No such stock photo.");
      if (status < 200 || status >= 300)
        throw appError("MEDIA_PROVIDER_FAILED", "Unsplash could not record the download. Please try again.");
      return true;
    },
  };
}

/** The system images whose keywords or description contain every word of `q` (all when empty). */
export function systemStock(
  urlOf: (id: string) => { url: string; thumbnailUrl: string },
  read: (id: string, signal: AbortSignal) => Promise<Buffer>,
): StockSource {
  return {
    async fetchPhoto(id, signal) {
      if (!SYSTEM_IMAGES.some((image) => image.id === id)) throw appError("NOT_FOUND", "No such stock photo.");
      return { bytes: await read(id, signal), source: "system" };
    },
    async search(q, page) {
      const words = q.toLowerCase().split(/\s+/).filter(Boolean);
      const matches = SYSTEM_IMAGES.filter((image) => {
        const text = `${image.keywords.join(" ")} ${image.description.toLowerCase()}`;
        return words.every((word) => text.includes(word));
      });
      const start = (page - 1) * STOCK_PAGE_SIZE;
      return {
        result: matches.slice(start, start + STOCK_PAGE_SIZE).map((image) => ({
          id: image.id,
          description: image.description,
          ...urlOf(image.id),
          width: 1600,
          height: 1067,
          author: "Crafter",
          authorUrl: "",
          source: "system" as const,
        })),
        count: matches.length,
        currentPage: page,
        totalPages: Math.max(1, Math.ceil(matches.length / STOCK_PAGE_SIZE)),
        source: "system",
      };
    },
    async trackDownload(id) {
      if (!SYSTEM_IMAGES.some((image) => image.id === id)) throw appError("NOT_FOUND", "No such stock photo.");
      return false;
    },
  };
}
