import {
  type AssetType,
  EXPORT_DEFAULTS,
  type ExportFormat,
  type FILTER_NAMES,
  type Operation,
  VIDEO_CHUNK_BYTES,
} from "@crafter/media-language";
import useSWR from "swr";
import { api, fetcher, http } from "./api";
import { envelopeResult } from "./client";
import type { BodyOf, Page, ResultOf, Schema } from "./contract";
import { ApiError } from "./errors";

/**
 * The media REST routes of docs/second-half-contract.md ("Media REST"), as the web uses them.
 * JSON calls go through the shared gateway client; uploads (XHR, for progress) and the calls that
 * answer bytes (previews, exports) are sent through the same client's `withSession`.
 */

export {
  ASSET_SOURCES,
  ASSET_TYPES,
  type AssetSource,
  type AssetType,
  EXPORT_DEFAULTS,
  EXPORT_FORMATS,
  type ExportFormat,
  FILTER_NAMES,
  MAX_BYTES,
  type Operation,
} from "@crafter/media-language";

export type Asset = Schema<"Asset">;
export type AssetVariant = Asset["variants"][number];
export type { Page as Paged } from "./contract";
export type PageMeta = Page<unknown>["meta"];

export interface AssetFilter {
  type?: AssetType;
  source?: string;
  profileType?: string;
  profileIds?: string[];
  q?: string;
  page?: number;
  pageSize?: number;
}

export type FilterName = (typeof FILTER_NAMES)[number];

/** Bytes per video chunk when the server does not say. */
export const DEFAULT_CHUNK_BYTES = VIDEO_CHUNK_BYTES;

export const mediaKeys = {
  assets: (filter: AssetFilter = {}) => `/api/media/assets?${assetQuery(filter)}`,
  stock: (q: string, page: number) => `/api/media/stock?${new URLSearchParams({ q, page: String(page) }).toString()}`,
  designs: () => "/api/media/designs",
  design: (id: string) => `/api/media/designs/${encodeURIComponent(id)}`,
};

export function assetQuery(filter: AssetFilter): string {
  const query = new URLSearchParams();
  if (filter.type) query.set("type", filter.type);
  if (filter.source) query.set("source", filter.source);
  if (filter.profileType) query.set("profileType", filter.profileType);
  if (filter.profileIds?.length) query.set("profileIds", filter.profileIds.join(","));
  if (filter.q?.trim()) query.set("q", filter.q.trim());
  query.set("page", String(filter.page ?? 1));
  query.set("pageSize", String(filter.pageSize ?? 20));
  return query.toString();
}

/** True for every cached asset list (to revalidate after an upload, rename or delete). */
export function isAssetListKey(key: unknown): boolean {
  return typeof key === "string" && key.startsWith("/api/media/assets?");
}

export function useAssets(filter: AssetFilter, enabled = true) {
  return useSWR<Page<Asset>>(enabled ? mediaKeys.assets(filter) : null, fetcher, { keepPreviousData: true });
}

/** A stock photo (Unsplash, or the system images shipped with Crafter). */
export type StockImage = ResultOf<"/api/media/stock", "get">["result"][number];

type StockAnswer = { result: StockImage[]; meta?: PageMeta } & Partial<PageMeta>;

/** A stock photo in the asset shape the pickers show (it is no asset of the user's: no edits). */
export function stockAsAsset(image: StockImage): Asset {
  return {
    id: `stock:${image.source}:${image.id}`,
    type: "image",
    source: image.source,
    name: image.description || (image.author ? `Photo by ${image.author}` : "Stock photo"),
    mime: "image/jpeg",
    size: 0,
    width: image.width,
    height: image.height,
    url: image.url,
    thumbnailUrl: image.thumbnailUrl || image.url,
    variants: [],
    profileIds: [],
    projectId: "",
    label: "",
    createdAt: "",
  };
}

/**
 * The stock photo id of a picked stock asset when it is Unsplash's (`stock:unsplash:<id>`), else
 * undefined: only Unsplash records downloads.
 */
export function unsplashIdOf(asset: Pick<Asset, "id">): string | undefined {
  const prefix = "stock:unsplash:";
  return asset.id.startsWith(prefix) ? asset.id.slice(prefix.length) : undefined;
}

/**
 * Tells Unsplash (through the media service) that a photo was chosen, as its API guidelines ask
 * (`POST /api/media/stock/:id/download`). Fire and forget: the choice stands if it fails.
 */
export function trackStockChoice(asset: Pick<Asset, "id">): void {
  const id = unsplashIdOf(asset);
  if (id) void api.post(`/api/media/stock/${encodeURIComponent(id)}/download`, {}).catch(() => undefined);
}

/** The stock photo id of a picked stock asset (`stock:<source>:<id>`), else undefined. */
export function stockIdOf(asset: Pick<Asset, "id">): string | undefined {
  const match = /^stock:(?:unsplash|system):(.+)$/.exec(asset.id);
  return match?.[1];
}

/** True for a picked stock photo (not an asset of the user's). */
export function isStock(asset: Pick<Asset, "id">): boolean {
  return asset.id.startsWith("stock:");
}

/** `GET /api/media/stock?q&page`, as assets; the page meta nested or flat. */
export function useStock(q: string, page: number, enabled = true) {
  return useSWR<Page<Asset>>(
    enabled ? mediaKeys.stock(q, page) : null,
    async (path: string) => {
      const answer = await fetcher<StockAnswer>(path);
      const meta = answer.meta ?? {
        count: answer.count ?? answer.result.length,
        currentPage: answer.currentPage ?? page,
        totalPages: answer.totalPages ?? 1,
      };
      return { result: answer.result.map(stockAsAsset), meta };
    },
    { keepPreviousData: true },
  );
}

const assetPath = (id: string) => `/api/media/assets/${encodeURIComponent(id)}`;

export function renameAsset(id: string, name: string): Promise<Asset> {
  return api.request<Asset>("PATCH", assetPath(id), { body: { name } });
}

export function deleteAsset(id: string): Promise<unknown> {
  return api.del(assetPath(id));
}

/**
 * Publishes an image at a lasting public URL (`/media/public/<id>`, the same each time): what a
 * business logo must be, since an asset's own URL is signed and expires.
 */
export async function publishAsset(id: string): Promise<string> {
  return (await api.post<{ publicUrl: string }>(`${assetPath(id)}/public`, {})).publicUrl;
}

export function downloadUrl(id: string): string {
  return `${assetPath(id)}/download`;
}

export function saveEdit(id: string, operations: Operation[], name?: string): Promise<Asset> {
  return api.post<Asset>(`${assetPath(id)}/edits`, { operations, ...(name ? { name } : {}) });
}

/**
 * A gateway call that answers bytes (or takes them), under the client's session contract
 * (`api.withSession`); a failed answer's envelope becomes an ApiError.
 */
export async function rawRequest(
  method: "GET" | "POST" | "PUT",
  path: string,
  init: { json?: unknown; body?: BodyInit; contentType?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const send = () => {
    const headers: Record<string, string> = {};
    let body = init.body;
    if (init.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.contentType) headers["Content-Type"] = init.contentType;
    return fetch(path, { method, headers, body, credentials: "include", cache: "no-store", signal: init.signal }).catch(
      (cause: unknown) => {
        if (init.signal?.aborted) throw cause;
        throw ApiError.network(cause);
      },
    );
  };
  const response = await api.withSession(path, send);
  if (!response.ok) envelopeResult(response.status, await response.json().catch(() => null));
  return response;
}

/** `POST /api/media/assets/:id/preview`: the edited image (webp, ≤ 1200 px) as an object URL. */
export async function previewEdit(id: string, operations: Operation[], signal?: AbortSignal): Promise<string> {
  const response = await rawRequest("POST", `${assetPath(id)}/preview`, { json: { operations }, signal });
  return URL.createObjectURL(await response.blob());
}

export interface ExportRequest {
  assetIds: string[];
  format?: ExportFormat;
  filename?: string;
  type?: "ZIP" | "single";
}

/** The filename a download gets: the server's Content-Disposition, else the asked one. */
export function filenameFrom(disposition: string | null, fallback: string): string {
  const star = disposition?.match(/filename\*=UTF-8''([^;]+)/i);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = disposition?.match(/filename="?([^";]+)"?/i);
  return plain?.[1] ?? fallback;
}

/** Saves bytes as a file through a temporary link. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `POST /api/media/export` with the spec's defaults, saved as a download; answers the file's name. */
export async function exportAssets(request: ExportRequest): Promise<string> {
  const body = {
    assetIds: request.assetIds,
    format: request.format ?? EXPORT_DEFAULTS.format,
    filename: request.filename ?? EXPORT_DEFAULTS.filename,
    type: request.type ?? EXPORT_DEFAULTS.type,
  };
  const response = await rawRequest("POST", "/api/media/export", { json: body });
  const fallback = body.type === "ZIP" ? body.filename.replace(/\.[a-z0-9]+$/i, ".zip") : body.filename;
  const name = filenameFrom(response.headers.get("content-disposition"), fallback);
  saveBlob(await response.blob(), name);
  return name;
}

export interface UploadProgress {
  /** Bytes sent so far. */
  loaded: number;
  total: number;
}

interface XhrResult {
  status: number;
  body: string;
}

function xhrSend(
  method: string,
  path: string,
  body: XMLHttpRequestBodyInit,
  onProgress: ((loaded: number, total: number) => void) | undefined,
  signal: AbortSignal | undefined,
  contentType?: string,
): Promise<XhrResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    if (contentType) xhr.setRequestHeader("Content-Type", contentType);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded, event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.responseText });
    xhr.onerror = () => reject(ApiError.network());
    xhr.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

function envelopeOf<T>(result: XhrResult): T {
  let body: unknown = null;
  try {
    body = JSON.parse(result.body);
  } catch {
    body = null;
  }
  // An upload answers the envelope: a body that is none is a failure even with a 2xx.
  return envelopeResult<T>(result.status, body === null || typeof body !== "object" ? { success: false } : body);
}

/** An XHR (for upload progress) under the client's session contract (`api.withSession`). */
async function xhrWithSession<T>(
  method: string,
  path: string,
  body: () => XMLHttpRequestBodyInit,
  onProgress?: (loaded: number, total: number) => void,
  signal?: AbortSignal,
  contentType?: string,
): Promise<T> {
  const result = await api.withSession(path, () => xhrSend(method, path, body(), onProgress, signal, contentType));
  return envelopeOf<T>(result);
}

/** `POST /api/media/assets` (multipart `file`): an image or audio file, with upload progress. */
export function uploadAsset(
  file: File,
  onProgress?: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<Asset> {
  return xhrWithSession<Asset>(
    "POST",
    "/api/media/assets",
    () => {
      const form = new FormData();
      form.append("file", file, file.name);
      return form;
    },
    (loaded, total) => onProgress?.({ loaded, total }),
    signal,
  );
}

export interface VideoUpload {
  uploadId: string;
  chunkSize: number;
}

const uploadPath = (id: string) => `/api/media/uploads/${encodeURIComponent(id)}`;

/** The key under which an unfinished video upload is remembered, to resume it after a reload. */
export function resumeKey(file: Pick<File, "name" | "size" | "lastModified">): string {
  return `crafter.upload.${file.name}.${file.size}.${file.lastModified}`;
}

/**
 * A chunked, resumable video upload (flag `upload_video`): starts (or resumes, when this browser
 * remembers an upload of the same file and the server still has it) an upload, sends the chunks
 * from the server's `received` offset, then completes it. `onStarted` reports the upload id (the
 * spec's "current uploading video id").
 */
export async function uploadVideo(
  file: File,
  onProgress?: (progress: UploadProgress) => void,
  signal?: AbortSignal,
  onStarted?: (uploadId: string) => void,
): Promise<Asset> {
  const key = resumeKey(file);
  let upload: VideoUpload | null = null;
  let received = 0;
  const remembered = safeStorage()?.getItem(key);
  if (remembered) {
    try {
      const saved = JSON.parse(remembered) as VideoUpload;
      const status = await api.get<{ received: number; size: number }>(uploadPath(saved.uploadId), { signal });
      if (status.size === file.size) {
        upload = saved;
        received = status.received;
      }
    } catch {
      upload = null;
    }
  }
  if (!upload) {
    upload = await api.post<VideoUpload>(
      "/api/media/uploads",
      { name: file.name, size: file.size, mime: file.type || "application/octet-stream" },
      { signal },
    );
    safeStorage()?.setItem(key, JSON.stringify(upload));
  }
  onStarted?.(upload.uploadId);
  const chunkSize = upload.chunkSize > 0 ? upload.chunkSize : DEFAULT_CHUNK_BYTES;
  onProgress?.({ loaded: received, total: file.size });
  for (let index = Math.floor(received / chunkSize); index * chunkSize < file.size; index += 1) {
    const start = index * chunkSize;
    const chunk = file.slice(start, Math.min(file.size, start + chunkSize));
    await xhrWithSession<unknown>(
      "PUT",
      `${uploadPath(upload.uploadId)}/chunks/${index}`,
      () => chunk,
      (loaded) => onProgress?.({ loaded: start + loaded, total: file.size }),
      signal,
      "application/octet-stream",
    );
  }
  const asset = await api.post<Asset>(`${uploadPath(upload.uploadId)}/complete`, {}, { signal });
  safeStorage()?.removeItem(key);
  return asset;
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** A file's kind from its type, as the server will check it by content. */
export function kindOfFile(file: Pick<File, "type">): AssetType | null {
  if (file.type.startsWith("image/")) return "image";
  if (file.type.startsWith("video/")) return "video";
  if (file.type.startsWith("audio/")) return "audio";
  return null;
}

/** `POST /api/media/images/generate`: an image in the page's size (the plan's AI images and credits apply). */
export function generateImage(prompt: string, width: number, height: number, headline: string, colors: string[]) {
  return http.post("/api/media/images/generate", {
    body: {
      prompt,
      size: `${width}x${height}`,
      ...(headline ? { headline: headline.slice(0, 120) } : {}),
      ...(colors.length ? { colors } : {}),
    } as BodyOf<"/api/media/images/generate", "post">,
  });
}

// ---- designs ----

export type DesignDocument = Schema<"Design">;
/** What the designer saves: the document without what the server sets. */
export type DesignInput = BodyOf<"/api/media/designs", "post">;

/** One design (the designer page), or nothing while `id` is undefined. */
export function useDesign(id: string | null | undefined) {
  return useSWR<DesignDocument>(id ? mediaKeys.design(id) : null, fetcher);
}

export function useDesigns() {
  return useSWR<Page<DesignDocument> | DesignDocument[]>(mediaKeys.designs(), fetcher);
}

export function createDesign(design: DesignInput): Promise<DesignDocument> {
  return api.post<DesignDocument>(mediaKeys.designs(), design);
}

export function updateDesign(id: string, design: DesignInput): Promise<DesignDocument> {
  return api.put<DesignDocument>(mediaKeys.design(id), design);
}

export function deleteDesign(id: string): Promise<unknown> {
  return api.del(mediaKeys.design(id));
}

/** `POST /api/media/designs/:id/export { format }`, saved as a download. */
export async function exportDesign(id: string, format: "image/png" | "ZIP", fallbackName: string): Promise<string> {
  const response = await rawRequest("POST", `${mediaKeys.design(id)}/export`, { json: { format } });
  const name = filenameFrom(response.headers.get("content-disposition"), fallbackName);
  saveBlob(await response.blob(), name);
  return name;
}

/** `PUT /api/media/designs/:id/image`: the PNG the designer rendered (what the design's export sends). */
export async function putDesignImage(id: string, png: Blob): Promise<void> {
  await rawRequest("PUT", `${mediaKeys.design(id)}/image`, { body: png, contentType: "application/octet-stream" });
}
