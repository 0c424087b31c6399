import { EMAIL_REQUIRED_MESSAGE, emailError, INVALID_URL_MESSAGE } from "@crafter/kit";
import { canonicalTimeZone, timeZones } from "@crafter/time";
import { z } from "zod";
import "zod-openapi";

// Shared request and response pieces of the REST contract (docs/api.md). The same schemas validate
// requests (http/registry.ts) and document them (http/openapi.ts).

/** Longest JSON nesting accepted anywhere in a body (objects and arrays count one level each). */
export const MAX_JSON_DEPTH = 32;

/** An opaque id in a path or body (craft, project, profile ids are 24-hex ObjectIds or UUIDs). */
export const id = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .min(1, `${name} is required`)
    .max(64, `${name} is too long`);

/**
 * An email address a service will check with the kit's rule (validator.js isEmail, at most 254
 * characters once trimmed): the same rule here, so the document's `format: email` is the validator.
 */
export const emailAddress = z
  .string({ error: EMAIL_REQUIRED_MESSAGE })
  .max(254, "Invalid email")
  .superRefine((value, ctx) => {
    const message = emailError(value);
    if (message) ctx.addIssue({ code: "custom", message });
  })
  .meta({ format: "email" });

/** An email address by the kit's rule, or "" for none (`message` when it is neither). */
export const emailOrNone = (message: string) => z.union([z.literal(""), emailAddress], { error: message }).default("");

/** A new password: 8 to 128 characters (auth's password policy). */
export const newPassword = z
  .string({ error: "Password is required" })
  .min(8, "Password must be at least 8 characters")
  .max(128, "Password must be at most 128 characters");

/**
 * An ISO 8601 time (`2026-05-01T09:30:00Z`, with or without an offset or seconds) or date
 * (`2026-05-01`): a pattern the document states exactly, and every value it admits is a date.
 */
export const isoTime = (name: string) =>
  z
    .union([z.iso.datetime({ offset: true, local: true }), z.iso.date()], { error: `${name} must be a date` })
    .meta({ description: "ISO 8601 time or date." });

/** The characters String.prototype.trim removes (JavaScript's `\\s`), spelled out for a pattern. */
export const TRIMMED = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";

/**
 * Not blank once trimmed: a character trim keeps. `\\S` means the same here, but other regex
 * engines reading the document (Python's) count other characters as spaces.
 */
export const NOT_BLANK = new RegExp(`[^${TRIMMED}]`);

/** A link's path, query or fragment: no space or control character (the URL parser escapes the rest). */
export const LINK_PATH = `[^\\u0000-\\u0020\\u007f-\\u009f${TRIMMED.replace("\\t\\n\\v\\f\\r ", "")}]*`;

/** A port number, 0 to 65535. */
export const PORT = "([0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])";

/**
 * A website address by the kit's URL rule in scheme-less mode (normalizeUrl, as projects reads it),
 * as one pattern the document states: http, https, ftp or no scheme; labels of letters, digits and
 * hyphens; a last label of 2 to 14 starting with a letter; an optional port, path, query or
 * fragment; "" for none. Each address it admits passes the rule. Refused: INVALID_URL_MESSAGE, which
 * parseBody answers as InvalidUrl when it is the only problem.
 */
export const websiteAddress = z
  .string({ error: INVALID_URL_MESSAGE })
  .max(2048, INVALID_URL_MESSAGE)
  .regex(
    new RegExp(
      `^$|^((https?|ftp)://)?([A-Za-z0-9][A-Za-z0-9-]*\\.)+[A-Za-z][A-Za-z0-9-]{1,13}(:${PORT})?([/?#]${LINK_PATH})?$`,
    ),
    INVALID_URL_MESSAGE,
  );

/**
 * Text a service requires once trimmed: at most `max` characters, and not blank (`message`, as the
 * services answer; `missing` when the field is absent).
 */
export const requiredText = (message: string, max: number, tooLong = message, missing = message) =>
  z.string({ error: missing }).max(max, tooLong).regex(NOT_BLANK, message);

/**
 * An IANA time zone (`Europe/London`), or "" for none, as the services read it (@crafter/time's
 * canonicalTimeZone, after trimming). The document lists the canonical names; an alias the runtime
 * resolves ("US/Pacific") is taken too and stored as its canonical name. `message`: the service's.
 */
export const timeZoneName = (message: string) =>
  z
    .string({ error: message })
    .max(64, message)
    .refine((value) => value.trim() === "" || canonicalTimeZone(value.trim()) !== null, message)
    .meta({ anyOf: [{ enum: timeZones() }, { const: "" }] });

/** A step name of a workflow definition. */
export const stepName = z
  .string({ error: "stepName is required" })
  .min(1, "stepName is required")
  .max(100, "stepName is too long");

/** A craft's display name (1 to 120 characters once trimmed, as the workflows service requires). */
export const craftName = z.string({ error: "Name must be text" }).max(120, "Name must be 1 to 120 characters.");

/** A workflow definition name such as `BlogWriter`. */
export const workflowName = z
  .string({ error: "workflowName is required" })
  .min(1, "workflowName is required")
  .max(100, "workflowName is too long");

/** A JSON object of free values (step values, action params, result data, settings). */
export const jsonObject = (what: string) =>
  z.record(z.string().max(200), z.unknown(), { error: `${what} must be an object` }).meta({
    description: `A JSON object (nested at most ${MAX_JSON_DEPTH} levels in the whole body).`,
  });

/** `error` of the envelope: the spec's code name and, on validation errors, one message per field. */
export const errorSchema = z
  .object({
    code: z.string().meta({ description: "An error code of the catalogue (docs/api.md), e.g. CR_ERR_BAD_REQUEST." }),
    fields: z.record(z.string(), z.string()).optional().meta({ description: "Field name → message." }),
  })
  .meta({ id: "Error" });

/** The envelope of a failed call: `{ success: false, result: null, errorMessage, error }`. */
export const failureEnvelope = z
  .object({
    success: z.literal(false),
    result: z.null(),
    errorMessage: z.string(),
    error: errorSchema,
  })
  .meta({ id: "FailureEnvelope" });

/** The envelope of a successful call around `result`. */
export const successEnvelope = <T extends z.ZodType>(result: T) =>
  z.object({
    success: z.literal(true),
    result,
    errorMessage: z.null(),
    error: z.null(),
  });

const iso = z.string().nullable().meta({ description: "ISO 8601 time, or null." });

export const userInfoSchema = z
  .object({
    credits: z.number(),
    credits_expire_at: iso,
    display_name: z.string(),
    email: z.string(),
    image: z.string(),
    isSubscribed: z.boolean(),
    access: z.array(z.string()),
    role: z.string(),
  })
  .meta({ id: "UserInfo" });

export const profileSchema = z
  .looseObject({
    profileId: z.string(),
    projectId: z.string(),
    profileType: z.string(),
    name: z.string(),
    description: z.string(),
    audience: z.string(),
    keywords: z.array(z.string()),
    websiteUrl: z.string(),
    fields: z.looseObject({}),
    source: z
      .string()
      .meta({ description: 'Where it is kept in sync from: "" (made here) or "shopify" (a store\'s product).' }),
    mediaAssetIds: z.array(z.string()).meta({
      description: "The media library's copies of its images (a Shopify product's), in the order of fields.images.",
    }),
  })
  .meta({ id: "Profile" });

export const projectSchema = z
  .object({
    projectId: z.string(),
    projectTitle: z.string(),
    profileId: z.string(),
    createdAt: iso,
    role: z.string().meta({ description: "The caller's role on it: owner, manager or projectAdmin (team members)." }),
  })
  .meta({ id: "Project" });

export const checkListSchema = z.array(z.object({ key: z.string(), title: z.string(), done: z.boolean() }));

export const craftSummarySchema = z
  .object({
    craftId: z.string(),
    craftName: z.string(),
    workflowName: z.string(),
    projectId: z.string(),
    profileId: z.string(),
    state: z.string(),
    favorite: z.boolean(),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: "CraftSummary" });

export const craftSchema = z
  .looseObject({
    ...craftSummarySchema.shape,
    version: z.number(),
    profileId: z.string(),
    currentStep: z.string(),
    steps: z.array(z.looseObject({})).meta({ description: "The steps' view model (docs/engine-contract.md §5)." }),
  })
  .meta({ id: "Craft" });

export const activeProjectInfoSchema = z
  .object({
    projectId: z.string().nullable(),
    projectTitle: z.string(),
    profile: profileSchema.nullable(),
    projectCheckList: checkListSchema,
    crafts: z.array(craftSummarySchema),
    isCreatingProject: z.boolean(),
    resetProject: z.boolean(),
  })
  .meta({ id: "ActiveProjectInfo" });

export const flagsSchema = z
  .object({
    enabledFeatures: z.array(z.string()),
    disabledFeatures: z.array(z.string()),
    allFeatures: z.array(z.string()),
  })
  .meta({ id: "FeatureFlags" });

export const sessionUserSchema = z.looseObject({
  userId: z.string(),
  email: z.string(),
  role: z.string(),
  email_verified: z.boolean(),
  clientId: z.string(),
  display_name: z.string(),
});

export const sessionSchema = z
  .object({ user: sessionUserSchema, expiresAt: iso })
  .meta({ id: "Session", description: "The signed-in user and the access token's expiry." });

/** `{ result, meta, craft }` of step completion and action runs. */
export const runSchema = z.object({
  result: z.unknown().meta({ description: "The result written, or null." }),
  meta: z.looseObject({}),
  craft: craftSchema,
});
