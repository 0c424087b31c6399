import { appError, hitRateLimit, type RateLimitPolicy, rateLimitedError } from "@crafter/kit";
import {
  ACCEPTED_MIME,
  ASSET_SOURCES,
  ASSET_TYPES,
  EXPORT_DEFAULTS,
  EXPORT_FORMATS,
  MAX_BYTES,
  operationsSchema,
  VIDEO_CHUNK_BYTES,
} from "@crafter/media-language";
import type { Asset, Design } from "@crafter/proto/crafter/media/v1/media_pb";
import busboy from "busboy";
import express, { type Request, type Response } from "express";
import { z } from "zod";
import { abortOnClose, sendFile } from "../http/files";
import { defineRoute, type RouteDef } from "../http/registry";
import { paged, pageMetaOf, paging, whole } from "../http/rest-bindings";
import { id } from "../http/schemas";
import type { RouteDeps } from "./deps";

/** Generation and speech take the provider's time; edits of large photos a few seconds. */
const SLOW_MS = 180_000;
const TAG = "Media";

const variantSchema = z.object({ name: z.string(), url: z.string(), width: z.number(), height: z.number() });
export const assetSchema = z
  .object({
    id: z.string(),
    type: z.enum(ASSET_TYPES),
    source: z.string(),
    name: z.string(),
    mime: z.string(),
    size: z.number().meta({ description: "Bytes." }),
    width: z.number().optional(),
    height: z.number().optional(),
    durationMs: z.number().optional(),
    url: z.string().meta({ description: "Signed, expiring URL (/media/<key>?exp&sig)." }),
    thumbnailUrl: z.string(),
    variants: z.array(variantSchema),
    profileType: z.string().optional(),
    profileIds: z.array(z.string()),
    projectId: z.string(),
    label: z.string().meta({ description: 'Where it came from, e.g. "composed, not generated".' }),
    createdAt: z.string(),
  })
  .meta({ id: "Asset" });

function toAsset(a: Asset): z.input<typeof assetSchema> {
  return {
    id: a.id,
    type: a.type as (typeof ASSET_TYPES)[number],
    source: a.source,
    name: a.name,
    mime: a.mime,
    size: Number(a.size),
    width: a.width,
    height: a.height,
    durationMs: a.durationMs,
    url: a.url,
    thumbnailUrl: a.thumbnailUrl,
    variants: a.variants.map((v) => ({ name: v.name, url: v.url, width: v.width, height: v.height })),
    profileType: a.profileType,
    profileIds: a.profileIds,
    projectId: a.projectId,
    label: a.label,
    createdAt: a.createdAt,
  };
}

const designSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    width: z.number(),
    height: z.number(),
    stages: z.array(z.unknown()),
    previewUrl: z.string().meta({ description: "The PNG the designer last saved (signed URL), or empty." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Design" });

function toDesign(d: Design): z.input<typeof designSchema> {
  return {
    id: d.id,
    name: d.name,
    width: d.width,
    height: d.height,
    stages: JSON.parse(d.stagesJson || "[]") as unknown[],
    previewUrl: d.previewUrl,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

const text = (name: string, max: number) => z.string({ error: `${name} must be text` }).max(max, `${name} is too long`);

const idParams = z.object({ id: id("id") });
const listQuery = z.object({
  type: z.enum(ASSET_TYPES, { error: "type must be image, video or audio" }).optional(),
  source: z.enum(ASSET_SOURCES, { error: `source must be one of ${ASSET_SOURCES.join(", ")}` }).optional(),
  profileType: text("profileType", 40).optional(),
  profileIds: text("profileIds", 2000).optional().meta({ description: "Comma-separated profile ids." }),
  q: text("q", 200).optional(),
  ...paging,
});
const nameBody = z.object({ name: text("name", 200).min(1, "A name is required.") });
const operationsBody = z.object({ operations: operationsSchema, name: text("name", 200).optional() });
const exportBody = z.object({
  assetIds: z.array(id("assetIds"), { error: "assetIds must be a list of asset ids" }).min(1).max(50),
  format: z.enum(EXPORT_FORMATS).default(EXPORT_DEFAULTS.format),
  filename: text("filename", 120).default(EXPORT_DEFAULTS.filename),
  type: z.enum(["ZIP", "single"]).default(EXPORT_DEFAULTS.type),
});
const startUploadBody = z.object({
  name: text("name", 200).min(1, "A name is required."),
  size: z.number({ error: "size must be a number of bytes" }).int().min(1).max(MAX_BYTES.video),
  mime: z.enum(ACCEPTED_MIME.video, { error: `Upload one of: ${ACCEPTED_MIME.video.join(", ")}.` }),
});
const uploadParams = z.object({ id: id("id") });
const chunkParams = z.object({ id: id("id"), index: whole("index", 0, 100_000) });
const uploadState = z.object({
  uploadId: z.string(),
  received: z.number(),
  size: z.number(),
  chunkSize: z.number(),
  chunks: z.array(z.number()),
  complete: z.boolean(),
});
const generateBody = z.object({
  prompt: text("prompt", 4000).min(1, "A prompt is required."),
  // The media service's rule (compose.ts parseSize): each side 256 to 2048 pixels.
  size: z
    .string()
    .regex(
      /^(25[6-9]|2[6-9]\d|[3-9]\d\d|1\d{3}|20[0-3]\d|204[0-8])x(25[6-9]|2[6-9]\d|[3-9]\d\d|1\d{3}|20[0-3]\d|204[0-8])$/,
      "size is WIDTHxHEIGHT, each 256 to 2048, e.g. 1080x1080",
    )
    .default("1080x1080"),
  profileType: text("profileType", 40).optional(),
  profileId: text("profileId", 64).optional(),
  projectId: text("projectId", 64).default(""),
  headline: text("headline", 200).default(""),
  colors: z
    .array(z.string().regex(/^#[0-9a-fA-F]{6}$/, "A colour is #rrggbb"))
    .max(6)
    .default([]),
  logoAssetId: text("logoAssetId", 64).default(""),
});
const designBody = z.object({
  name: text("name", 200).min(1, "A name is required."),
  width: whole("width", 16, 8192),
  height: whole("height", 16, 8192),
  stages: z.array(z.unknown(), { error: "stages must be a list of stages" }).max(100),
});
const stockItem = z.object({
  id: z.string(),
  description: z.string(),
  url: z.string(),
  thumbnailUrl: z.string(),
  width: z.number(),
  height: z.number(),
  author: z.string(),
  authorUrl: z.string(),
  source: z.string(),
});
const binary = z.string().meta({ format: "binary" });
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"];

interface Uploaded {
  name: string;
  data: Buffer;
  fields: Record<string, string>;
}

/** The form fields of an upload besides `file`; any other part is refused, as the document says. */
const UPLOAD_FIELDS = new Set(["projectId", "profileType", "profileIds"]);

/**
 * Reads a multipart body with one file in the field `file` (at most the largest per-kind limit;
 * the media service applies the limit of the detected kind) and the fields of UPLOAD_FIELDS.
 * @throws CR_ERR_BAD_REQUEST (malformed, no file, another part), MEDIA_TOO_LARGE (413).
 */
function readMultipart(req: Request): Promise<Uploaded> {
  const limit = Math.max(MAX_BYTES.image, MAX_BYTES.audio);
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: limit, fields: 10, fieldSize: 4096, parts: 12 },
      });
    } catch {
      reject(
        appError("CR_ERR_BAD_REQUEST", "The body must be multipart/form-data with a boundary.", { file: "Malformed" }),
      );
      return;
    }
    const fields: Record<string, string> = {};
    let file: { name: string; chunks: Buffer[]; truncated: boolean } | undefined;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      reject(error);
    };
    const unknown = (name: string) =>
      fail(appError("CR_ERR_BAD_REQUEST", "The form has a part it does not take.", { [name.slice(0, 64)]: "Unknown" }));
    parser.on("field", (name, value) => {
      if (!UPLOAD_FIELDS.has(name)) return unknown(name);
      fields[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== "file") {
        stream.resume();
        return unknown(name);
      }
      if (file) {
        stream.resume();
        return;
      }
      const current = { name: info.filename ?? "", chunks: [] as Buffer[], truncated: false };
      file = current;
      stream.on("data", (chunk: Buffer) => current.chunks.push(chunk));
      stream.on("limit", () => {
        current.truncated = true;
      });
    });
    parser.on("error", () =>
      fail(appError("CR_ERR_BAD_REQUEST", "The multipart body is malformed.", { file: "Malformed" })),
    );
    parser.on("close", () => {
      if (failed) return;
      if (!file)
        return reject(appError("CR_ERR_BAD_REQUEST", "Send the file in the form field `file`.", { file: "Required" }));
      if (file.truncated) return reject(appError("MEDIA_TOO_LARGE", `Files may be up to ${limit / 1024 / 1024} MB.`));
      const data = Buffer.concat(file.chunks);
      if (data.length === 0) return reject(appError("CR_ERR_BAD_REQUEST", "The file is empty.", { file: "Empty" }));
      resolve({ name: file.name, data, fields });
    });
    req.on("aborted", () => fail(appError("CR_ERR_BAD_REQUEST", "The upload was interrupted.")));
    req.pipe(parser);
  });
}

const rawChunk = express.raw({ type: "application/octet-stream", limit: VIDEO_CHUNK_BYTES });

/** Reads a raw chunk body (at most one chunk); a larger one is 413 from body-parser. */
function readChunk(req: Request, res: Response): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    rawChunk(req, res, (error?: unknown) => {
      if (error) return reject(error);
      resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    }),
  );
}

/** The media REST routes of docs/second-half-contract.md ("Media REST"). */
/**
 * Edit previews per user: the editor asks for one as a slider settles, so two a second for a
 * minute is generous; a script asking for expensive previews in a loop is held at that.
 */
export const PREVIEW_LIMIT: RateLimitPolicy = { name: "media-preview", limit: 120, windowSeconds: 60 };

export function mediaRoutes({ clients, redis }: RouteDeps): RouteDef[] {
  const media = clients.media;
  const ASSET_ERRORS = ["NOT_FOUND"] as const;
  return [
    defineRoute({
      method: "post",
      path: "/api/media/assets",
      summary: "Upload an image (≤ 15 MB) or audio file (≤ 50 MB)",
      description:
        "multipart/form-data with the file in `file` and optional fields `projectId`, `profileType`, `profileIds` (comma-separated). The type is detected from the bytes; images are re-encoded without metadata, with a thumbnail and responsive variants.",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      status: 201,
      rawBody: {
        contentType: "multipart/form-data",
        schema: z.strictObject({
          file: binary,
          projectId: z.string().optional(),
          profileType: z.string().optional(),
          profileIds: z.string().optional(),
        }),
      },
      response: assetSchema,
      errors: ["MEDIA_UNSUPPORTED_TYPE", "MEDIA_TOO_LARGE", "MEDIA_UNREADABLE"],
      handler: async ({ req, as }) => {
        const upload = await readMultipart(req);
        const fields = upload.fields;
        const asset = await media.uploadAsset(
          {
            name: upload.name,
            data: upload.data,
            projectId: (fields.projectId ?? "").slice(0, 64),
            profileType: fields.profileType ? fields.profileType.slice(0, 40) : undefined,
            profileIds: (fields.profileIds ?? "")
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean)
              .slice(0, 50),
          },
          { ...as, timeoutMs: SLOW_MS },
        );
        return toAsset(asset);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/media/assets",
      summary: "The caller's assets, newest first, filtered and paged",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      query: listQuery,
      response: paged(assetSchema),
      handler: async ({ query, as }) => {
        const page = await media.listAssets(
          {
            type: query.type ?? "",
            source: query.source ?? "",
            profileType: query.profileType ?? "",
            profileIds: (query.profileIds ?? "")
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean)
              .slice(0, 50),
            q: query.q ?? "",
            page: query.page,
            pageSize: query.pageSize,
          },
          as,
        );
        return {
          result: page.result.map(toAsset),
          meta: pageMetaOf(page),
        };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/media/assets/{id}",
      summary: "Rename an asset",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      body: nameBody,
      response: assetSchema,
      errors: ASSET_ERRORS,
      handler: async ({ params, body, as }) => toAsset(await media.renameAsset({ id: params.id, name: body.name }, as)),
    }),
    defineRoute({
      method: "delete",
      path: "/api/media/assets/{id}",
      summary: "Delete an asset and its files",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      response: z.object({}),
      errors: ASSET_ERRORS,
      handler: async ({ params, as }) => {
        await media.deleteAsset({ id: params.id }, as);
        return {};
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/media/assets/{id}/public",
      summary: "Publish an image at a lasting public URL (a business logo in emails and on the lead form)",
      description:
        "Answers `/media/public/<id>` (a path of this deployment): unguessable, the same for the asset each time, served to anyone, cached and loadable from other origins, for as long as the asset exists. Only assets published this way are public; signed `/media/…?exp&sig` URLs still expire.",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      response: z.object({ publicUrl: z.string().meta({ description: "/media/public/<id>" }) }),
      errors: ASSET_ERRORS,
      handler: async ({ params, as }) => ({ publicUrl: (await media.publishAsset({ id: params.id }, as)).publicUrl }),
    }),
    defineRoute({
      method: "get",
      path: "/api/media/assets/{id}/download",
      summary: "Download an asset's original file",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      response: z.unknown(),
      // The asset's own type: an uploaded or generated image, an audio file or a video.
      fileResponse: ["image/*", "audio/*", "video/*", "application/octet-stream"],
      errors: ASSET_ERRORS,
      handler: async ({ params, as, res }) => {
        await sendFile(
          res,
          media.downloadAsset({ id: params.id }, { ...as, signal: abortOnClose(res).signal, timeoutMs: SLOW_MS }),
          {
            disposition: "attachment",
          },
        );
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/media/assets/{id}/preview",
      summary: "Preview edit operations on an image (image/webp, ≤ 1200 px)",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      body: operationsBody,
      response: z.unknown(),
      fileResponse: ["image/webp"],
      errors: ["NOT_FOUND", "MEDIA_UNREADABLE", "MEDIA_EDIT_TOO_COSTLY", "RATE_LIMITED"],
      handler: async ({ req, params, body, as, res }) => {
        const hit = await hitRateLimit(
          redis,
          `${PREVIEW_LIMIT.name}:${req.user?.userId ?? ""}`,
          PREVIEW_LIMIT.limit,
          PREVIEW_LIMIT.windowSeconds,
        );
        if (!hit.allowed) throw rateLimitedError(PREVIEW_LIMIT, hit);
        const preview = await media.previewEdit(
          { id: params.id, operationsJson: JSON.stringify(body.operations) },
          { ...as, timeoutMs: SLOW_MS },
        );
        res.status(200).setHeader("content-type", preview.mime).setHeader("cache-control", "no-store");
        res.setHeader("x-image-width", String(preview.width)).setHeader("x-image-height", String(preview.height));
        res.end(Buffer.from(preview.data));
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/media/assets/{id}/edits",
      summary: "Apply edit operations to an image and save the result as a new asset",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      status: 201,
      params: idParams,
      body: operationsBody,
      response: assetSchema,
      errors: ["NOT_FOUND", "MEDIA_UNREADABLE", "MEDIA_EDIT_TOO_COSTLY"],
      handler: async ({ params, body, as }) =>
        toAsset(
          await media.saveEdit(
            { id: params.id, operationsJson: JSON.stringify(body.operations), name: body.name ?? "" },
            { ...as, timeoutMs: SLOW_MS },
          ),
        ),
    }),
    defineRoute({
      method: "post",
      path: "/api/media/export",
      summary: "Export images as PNG, JPEG or WebP: one file, or several in a ZIP (streamed)",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      body: exportBody,
      response: z.unknown(),
      fileResponse: [...IMAGE_TYPES, "application/zip"],
      errors: ["NOT_FOUND", "MEDIA_UNREADABLE"],
      handler: async ({ body, as, res }) => {
        await sendFile(res, media.exportAssets(body, { ...as, signal: abortOnClose(res).signal, timeoutMs: SLOW_MS }), {
          disposition: "attachment",
        });
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/media/uploads",
      summary: "Start a chunked, resumable video upload",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      status: 201,
      body: startUploadBody,
      response: z.object({ uploadId: z.string(), chunkSize: z.number() }),
      errors: ["MEDIA_UNSUPPORTED_TYPE", "MEDIA_TOO_LARGE"],
      handler: async ({ body, as }) =>
        media.startUpload({ name: body.name, size: BigInt(body.size), mime: body.mime, projectId: "" }, as),
    }),
    defineRoute({
      method: "put",
      path: "/api/media/uploads/{id}/chunks/{index}",
      summary: "Send chunk `index` (0-based) of a video upload as raw bytes",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: chunkParams,
      rawBody: { contentType: "application/octet-stream", schema: binary },
      response: uploadState,
      errors: ["NOT_FOUND", "CONFLICT", "MEDIA_UNSUPPORTED_TYPE", "MEDIA_TOO_LARGE"],
      handler: async ({ params, req, res, as }) => {
        const data = await readChunk(req, res);
        const state = await media.putUploadChunk(
          { uploadId: params.id, index: params.index, data },
          { ...as, timeoutMs: SLOW_MS },
        );
        return { ...state, received: Number(state.received), size: Number(state.size) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/media/uploads/{id}",
      summary: "What a video upload has received (resume from `received`)",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: uploadParams,
      response: uploadState,
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) => {
        const state = await media.getUpload({ uploadId: params.id }, as);
        return { ...state, received: Number(state.received), size: Number(state.size) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/media/uploads/{id}/complete",
      summary: "Join the chunks into the video asset",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: uploadParams,
      response: assetSchema,
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ params, as }) =>
        toAsset(await media.completeUpload({ uploadId: params.id }, { ...as, timeoutMs: SLOW_MS })),
    }),
    defineRoute({
      method: "get",
      path: "/api/media/stock",
      summary: "Stock photos (Unsplash when configured, else Crafter's system images)",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      query: z.object({ q: text("q", 200).default(""), page: whole("page", 1, 1000).default(1) }),
      response: paged(stockItem).extend({ source: z.enum(["unsplash", "system"]) }),
      errors: ["MEDIA_PROVIDER_FAILED"],
      handler: async ({ query, as }) => {
        const page = await media.searchStock(query, as);
        return {
          result: page.result.map(({ $typeName: _t, ...item }) => item),
          meta: pageMetaOf(page),
          source: page.source as "unsplash" | "system",
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/media/stock/{id}/download",
      summary: "Record that a stock photo was chosen (Unsplash's download tracking)",
      description:
        "Call when the user picks a stock photo (Unsplash's API guidelines ask for it); `tracked` is false for Crafter's system images, which have nothing to record.",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: z.object({
        id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "id is a stock photo id"),
      }),
      body: z.object({}).default({}),
      response: z.object({ tracked: z.boolean() }),
      errors: ["NOT_FOUND", "MEDIA_PROVIDER_FAILED"],
      handler: async ({ params, as }) => {
        const { tracked } = await media.trackStockDownload({ id: params.id }, as);
        return { tracked };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/media/images/generate",
      summary: "Generate an image (DALL·E or Gemini when configured, else the offline composer)",
      description:
        'Debits credits first and refunds them on failure. Provider images have source "AI"; the offline composer\'s have source "composed" and label "composed, not generated".',
      tag: TAG,
      auth: "session",
      actsInProject: true,
      status: 201,
      idempotent: true,
      body: generateBody,
      response: assetSchema,
      errors: ["NOT_FOUND", "NOT_ENOUGH_CREDITS", "NEED_SUBSCRIPTION", "MEDIA_PROVIDER_FAILED"],
      handler: async ({ body, as }) => toAsset(await media.generateImage(body, { ...as, timeoutMs: SLOW_MS })),
    }),
    defineRoute({
      method: "get",
      path: "/api/media/designs",
      summary: "The caller's designs, last edited first",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      query: z.object(paging),
      response: paged(designSchema),
      handler: async ({ query, as }) => {
        const page = await media.listDesigns(query, as);
        return {
          result: page.result.map(toDesign),
          meta: pageMetaOf(page),
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/media/designs",
      summary: "Save a new design (its stages as JSON)",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      status: 201,
      body: designBody,
      response: designSchema,
      errors: ["MEDIA_TOO_LARGE"],
      handler: async ({ body, as }) =>
        toDesign(
          await media.createDesign(
            { name: body.name, width: body.width, height: body.height, stagesJson: JSON.stringify(body.stages) },
            as,
          ),
        ),
    }),
    defineRoute({
      method: "get",
      path: "/api/media/designs/{id}",
      summary: "A design",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      response: designSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) => toDesign(await media.getDesign({ id: params.id }, as)),
    }),
    defineRoute({
      method: "put",
      path: "/api/media/designs/{id}",
      summary: "Replace a design",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      body: designBody,
      response: designSchema,
      errors: ["NOT_FOUND", "MEDIA_TOO_LARGE"],
      handler: async ({ params, body, as }) =>
        toDesign(
          await media.updateDesign(
            {
              id: params.id,
              design: {
                name: body.name,
                width: body.width,
                height: body.height,
                stagesJson: JSON.stringify(body.stages),
              },
            },
            as,
          ),
        ),
    }),
    defineRoute({
      method: "put",
      path: "/api/media/designs/{id}/image",
      summary:
        "Store the PNG the designer rendered of a design (raw image/png bytes as application/octet-stream, ≤ 15 MB)",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      rawBody: { contentType: "application/octet-stream", schema: binary },
      response: designSchema,
      errors: ["NOT_FOUND", "MEDIA_TOO_LARGE", "MEDIA_UNSUPPORTED_TYPE"],
      handler: async ({ params, req, res, as }) => {
        const png = await new Promise<Buffer>((resolve, reject) =>
          express.raw({ type: "application/octet-stream", limit: MAX_BYTES.image })(req, res, (error?: unknown) =>
            error ? reject(error) : resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)),
          ),
        );
        if (png.length === 0) throw appError("CR_ERR_BAD_REQUEST", "Send the PNG as the body.", { body: "Empty" });
        const design = await media.getDesign({ id: params.id }, as);
        return toDesign(
          await media.updateDesign(
            {
              id: params.id,
              design: {
                name: design.name,
                width: design.width,
                height: design.height,
                stagesJson: design.stagesJson,
                previewPng: png,
              },
            },
            as,
          ),
        );
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/media/designs/{id}",
      summary: "Delete a design",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      response: z.object({}),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) => {
        await media.deleteDesign({ id: params.id }, as);
        return {};
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/media/designs/{id}/export",
      summary: "Export a design as PNG, or a ZIP of the PNG and its JSON",
      tag: TAG,
      auth: "session",
      actsInProject: true,
      params: idParams,
      body: z.object({ format: z.enum(["image/png", "ZIP"]).default("image/png") }),
      response: z.unknown(),
      fileResponse: ["image/png", "application/zip"],
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ params, body, as, res }) => {
        await sendFile(
          res,
          media.exportDesign({ id: params.id, format: body.format }, { ...as, signal: abortOnClose(res).signal }),
          {
            disposition: "attachment",
          },
        );
      },
    }),
  ];
}
