import type { JsonObject } from "@bufbuild/protobuf";
import { describeError } from "@crafter/kit";
import { ProfileType } from "@crafter/proto/crafter/projects/v1/projects_pb";
import { z } from "zod";
import type { Clients } from "../clients";
import { toCraftSummary, toProfile, toReview } from "../domain/mappers";
import { defineRoute, type RouteDef } from "../http/registry";
import { craftSummarySchema, id, jsonObject, profileSchema, requiredText } from "../http/schemas";
import type { asUser } from "../http/session";
import type { RouteDeps } from "./deps";

const PROFILE_TYPE = {
  PROJECT: ProfileType.PROJECT,
  PRODUCT: ProfileType.PRODUCT,
  SERVICE: ProfileType.SERVICE,
  CAMPAIGN: ProfileType.CAMPAIGN,
} as const;

const profileType = z.enum(["PROJECT", "PRODUCT", "SERVICE", "CAMPAIGN"], {
  error: "profileType must be PROJECT, PRODUCT, SERVICE or CAMPAIGN",
});

/** Most crafts a profile's crafts page lists. */
const PROFILE_CRAFTS_SHOWN = 50;

const reviewSchema = z
  .object({
    reviewId: z.string(),
    projectId: z.string(),
    author: z.string(),
    rating: z.number(),
    text: z.string(),
    source: z.string(),
    reviewedOn: z.string(),
    reply: z.string(),
    repliedAt: z.string().nullable(),
    createdAt: z.string().nullable(),
    reviewedAt: z
      .string()
      .nullable()
      .meta({ description: "When the reviewer wrote it (a Google review's time); null when unknown." }),
  })
  .meta({ id: "Review" });

const pageQuery = {
  page: z.coerce
    .number({ error: "page must be a whole number from 1 to 100000" })
    .int("page must be a whole number from 1 to 100000")
    .min(1, "page must be a whole number from 1 to 100000")
    .max(100_000, "page must be a whole number from 1 to 100000")
    .optional(),
  pageSize: z.coerce
    .number({ error: "pageSize must be a whole number from 1 to 100" })
    .int("pageSize must be a whole number from 1 to 100")
    .min(1, "pageSize must be a whole number from 1 to 100")
    .max(100, "pageSize must be a whole number from 1 to 100")
    .optional(),
};

/** The project a request names, else the user's active one (NOT_FOUND when they have none). */
async function projectOf(clients: Clients, projectId: string | undefined, as: ReturnType<typeof asUser>) {
  if (projectId) return projectId;
  const active = await clients.projects.getActiveProject({}, as);
  return active.projectId ?? "";
}

/** /api/profiles (profiles of the four types and their crafts) and /api/business/reviews. */
export function profilesRoutes({ clients }: RouteDeps): RouteDef[] {
  const { projects, workflows } = clients;
  return [
    defineRoute({
      method: "get",
      path: "/api/profiles",
      tag: "profiles",
      summary: "The profiles of a project (the active one by default), one type or all",
      auth: "session",
      query: z.object({ projectId: id("projectId").optional(), profileType: profileType.optional() }),
      response: z.object({ profiles: z.array(profileSchema.nullable()) }),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as }) => {
        const projectId = await projectOf(clients, query.projectId, as);
        const list = await projects.listProfiles(
          { projectId, type: query.profileType ? PROFILE_TYPE[query.profileType] : ProfileType.UNSPECIFIED },
          as,
        );
        return { profiles: list.profiles.map(toProfile) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/profiles",
      tag: "profiles",
      summary: "Create a product, service or campaign profile (in the active project by default)",
      auth: "session",
      body: z.object({
        projectId: id("projectId").optional(),
        // The project's own profile comes with the project; only these are created here.
        profileType: z.enum(["PRODUCT", "SERVICE", "CAMPAIGN"], {
          error: "The type must be PRODUCT, SERVICE or CAMPAIGN",
        }),
        values: jsonObject("values"),
      }),
      response: profileSchema,
      status: 201,
      idempotent: true,
      errors: ["NOT_FOUND", "InvalidUrl"],
      handler: async ({ body, as }) => {
        const projectId = await projectOf(clients, body.projectId, as);
        const created = await projects.createProfile(
          { projectId, type: PROFILE_TYPE[body.profileType], values: body.values as JsonObject },
          as,
        );
        return toProfile(created.profile)!;
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/profiles/{id}",
      tag: "profiles",
      summary: "A profile with its fields and sections",
      auth: "session",
      params: z.object({ id: id("id") }),
      response: profileSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) => toProfile((await projects.getProfile({ profileId: params.id }, as)).profile)!,
    }),
    defineRoute({
      method: "patch",
      path: "/api/profiles/{id}",
      tag: "profiles",
      summary: "Change some fields (values) and sections of a profile; the others keep their values",
      auth: "session",
      params: z.object({ id: id("id") }),
      body: z.object({ values: jsonObject("values").optional(), sections: jsonObject("sections").optional() }),
      response: profileSchema,
      errors: ["NOT_FOUND", "InvalidUrl"],
      handler: async ({ params, body, as }) => {
        const updated = await projects.updateProfile(
          {
            profileId: params.id,
            values: (body.values ?? {}) as JsonObject,
            sections: (body.sections ?? {}) as JsonObject,
          },
          as,
        );
        return toProfile(updated.profile)!;
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/profiles/{id}",
      tag: "profiles",
      summary: "Delete a product, service or campaign profile",
      auth: "session",
      params: z.object({ id: id("id") }),
      response: z.object({ deleted: z.literal(true) }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) => {
        await projects.deleteProfile({ profileId: params.id }, as);
        return { deleted: true as const };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/profiles/{id}/crafts",
      tag: "profiles",
      summary: "The crafts written for a profile, newest first (at most 50)",
      auth: "session",
      // The crafts are stored under the project's owner: a team member reads them delegated.
      actsInProject: true,
      params: z.object({ id: id("id") }),
      response: z.object({ crafts: z.array(craftSummarySchema) }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) => {
        const { crafts } = await projects.listProfileCrafts({ profileId: params.id }, as);
        const shown = crafts.slice(0, PROFILE_CRAFTS_SHOWN);
        const found = await Promise.all(
          shown.map((craft) =>
            workflows.getCraft({ craftId: craft.craftId }, as).then(
              (response) => response.craft?.summary,
              (error) => {
                // A craft deleted since it was written is simply no longer listed.
                if (describeError(error).code === "NOT_FOUND") return undefined;
                throw error;
              },
            ),
          ),
        );
        return { crafts: found.filter((summary) => summary !== undefined).map(toCraftSummary) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/business/reviews",
      tag: "business",
      summary: "The reviews of a project's business (the active project by default), newest first",
      auth: "session",
      query: z.object({ projectId: id("projectId").optional(), ...pageQuery }),
      response: z.object({
        result: z.array(reviewSchema),
        meta: z.object({ count: z.number(), currentPage: z.number(), totalPages: z.number() }),
      }),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as }) => {
        const projectId = await projectOf(clients, query.projectId, as);
        const page = await projects.listReviews(
          { projectId, page: query.page ?? 1, pageSize: query.pageSize ?? 20 },
          as,
        );
        return {
          result: page.reviews.map(toReview),
          meta: { count: page.total, currentPage: page.page, totalPages: page.totalPages },
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/business/reviews",
      tag: "business",
      summary: "Add a review by hand",
      auth: "session",
      body: z.object({
        projectId: id("projectId").optional(),
        // The projects service's review rule (REVIEW_LIMITS).
        author: requiredText("Author is required", 120, "Author must be at most 120 characters"),
        rating: z.coerce
          .number({ error: "Rating must be a whole number from 1 to 5" })
          .int("Rating must be a whole number from 1 to 5")
          .min(1, "Rating must be a whole number from 1 to 5")
          .max(5, "Rating must be a whole number from 1 to 5"),
        text: z.string({ error: "Text must be text" }).max(5000, "Text must be at most 5000 characters").optional(),
        // A typed day only: the projects service also reads looser date text, for CSV imports.
        reviewedOn: z.union([z.literal(""), z.iso.date("Date must be a date (YYYY-MM-DD)")]).optional(),
      }),
      response: reviewSchema,
      status: 201,
      idempotent: true,
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ body, as }) => {
        const projectId = await projectOf(clients, body.projectId, as);
        const created = await projects.createReview(
          {
            projectId,
            author: body.author,
            // Out-of-range numbers become 0 (an int32 cannot hold them); the service names the rule.
            rating: Number.isInteger(body.rating) && Math.abs(body.rating) < 1000 ? body.rating : 0,
            text: body.text ?? "",
            reviewedOn: body.reviewedOn ?? "",
          },
          as,
        );
        return toReview(created.review);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/business/reviews/import",
      tag: "business",
      summary: "Import reviews from CSV text (author, rating, text, date)",
      auth: "session",
      body: z.object({
        projectId: id("projectId").optional(),
        csv: z.string({ error: "csv is required" }).max(2_000_000, "The file is too large (2 MB at most)"),
      }),
      response: z.object({
        created: z.number(),
        skipped: z.number(),
        errors: z.array(z.object({ line: z.number(), reason: z.string() })),
      }),
      errors: ["NOT_FOUND"],
      handler: async ({ body, as }) => {
        const projectId = await projectOf(clients, body.projectId, as);
        const outcome = await projects.importReviews({ projectId, csv: body.csv }, as);
        return {
          created: outcome.created,
          skipped: outcome.skipped,
          errors: outcome.errors.map(({ line, reason }) => ({ line, reason })),
        };
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/business/reviews/{id}/reply",
      tag: "business",
      summary: "Save the reply to a review (an empty reply clears it)",
      description:
        "A review from Google Business Profile has its reply written to (or deleted from) Google first: CONFLICT when the connection is gone, UNAVAILABLE when Google does not answer.",
      auth: "session",
      params: z.object({ id: id("id") }),
      body: z.object({
        reply: z.string({ error: "reply must be text" }).max(4000, "The reply must be at most 4000 characters"),
      }),
      response: reviewSchema,
      errors: ["NOT_FOUND", "CONFLICT", "UNAVAILABLE"],
      handler: async ({ params, body, as }) =>
        toReview((await projects.replyToReview({ reviewId: params.id, reply: body.reply }, as)).review),
    }),
    defineRoute({
      method: "delete",
      path: "/api/business/reviews/{id}",
      tag: "business",
      summary: "Delete a review",
      description: "CONFLICT for a review from Google Business Profile: it stays while it is on Google.",
      auth: "session",
      params: z.object({ id: id("id") }),
      response: z.object({ deleted: z.literal(true) }),
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ params, as }) => {
        await projects.deleteReview({ reviewId: params.id }, as);
        return { deleted: true as const };
      },
    }),
  ];
}
