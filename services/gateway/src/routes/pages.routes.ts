import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { PublishedPage } from "@crafter/proto/crafter/workflows/v1/pages_pb";
import {
  PAGE_SLUG_MAX,
  PAGE_SLUG_MESSAGES,
  PAGE_SLUG_MIN,
  PAGE_SLUG_PATTERN,
  RESERVED_PAGE_SLUGS,
} from "@crafter/validation";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { id } from "../http/schemas";
import type { RouteDeps } from "./deps";

/** A page published from a craft; `url` is where the public site serves it. Times ISO. */
export const publishedPageSchema = z.object({
  slug: z.string(),
  url: z.string(),
  craftId: z.string(),
  title: z.string(),
  description: z.string(),
  businessName: z.string(),
  publishedAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

const craftParams = z.object({ id: id("id") });
const publishBody = z
  .object({
    // The kit's page address rule, as the workflows service checks it.
    slug: z
      .string({ error: "Choose an address" })
      .min(PAGE_SLUG_MIN, PAGE_SLUG_MESSAGES.length)
      .max(PAGE_SLUG_MAX, PAGE_SLUG_MESSAGES.length)
      .regex(PAGE_SLUG_PATTERN, PAGE_SLUG_MESSAGES.characters)
      .refine((slug) => !RESERVED_PAGE_SLUGS.has(slug), PAGE_SLUG_MESSAGES.reserved)
      .meta({ not: { enum: [...RESERVED_PAGE_SLUGS] } }),
  })
  .strict();

/** /api/workflowsV2/{id}/page: publishing a Web Page Writer craft at `/<slug>` (issue 14). */
export function pagesRoutes({ clients, publicOrigin }: RouteDeps): RouteDef[] {
  const origin = publicOrigin.replace(/\/$/, "");
  const toPage = (page: PublishedPage): z.infer<typeof publishedPageSchema> => ({
    slug: page.slug,
    url: `${origin}/${page.slug}`,
    craftId: page.craftId,
    title: page.title,
    description: page.description,
    businessName: page.businessName,
    publishedAt: page.publishedAt ? timestampDate(page.publishedAt).toISOString() : null,
    updatedAt: page.updatedAt ? timestampDate(page.updatedAt).toISOString() : null,
  });
  return [
    defineRoute({
      method: "get",
      path: "/api/workflowsV2/{id}/page",
      tag: "pages",
      summary: "The page published from the craft, or null",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      response: z.object({ page: publishedPageSchema.nullable() }),
      handler: async ({ params, as }) => {
        const { page } = await clients.pages.getCraftPage({ craftId: params.id }, as);
        return { page: page ? toPage(page) : null };
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/workflowsV2/{id}/page",
      tag: "pages",
      summary:
        "Publish the Web Page Writer craft at /<slug> (lowercase letters, digits, hyphens; not a reserved word), or republish it with its current content",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      body: publishBody,
      response: publishedPageSchema,
      errors: ["NOT_FOUND", "PAGE_SLUG_TAKEN"],
      handler: async ({ params, body, as }) => {
        const { page } = await clients.pages.publishPage({ craftId: params.id, slug: body.slug }, as);
        if (!page) throw new Error("PublishPage answered no page");
        return toPage(page);
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/workflowsV2/{id}/page",
      tag: "pages",
      summary: "Unpublish the craft's page: its address answers 404 and is free again",
      auth: "session",
      actsInProject: true,
      params: craftParams,
      response: z.object({ unpublished: z.boolean() }),
      handler: async ({ params, as }) => clients.pages.unpublishPage({ craftId: params.id }, as),
    }),
  ];
}
