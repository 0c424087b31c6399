import { ERROR_CATALOGUE, type ErrorCode } from "@crafter/kit";
import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import { commonErrors, IDEMPOTENCY_HEADER, idempotencyHeaders, type RouteDef } from "./registry";
import { failureEnvelope, successEnvelope } from "./schemas";

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "No valid session",
  402: "Out of credits",
  403: "Refused",
  404: "Not found",
  409: "Conflict",
  413: "Body too large",
  415: "Unsupported media type or encoding",
  422: "Unprocessable",
  429: "Rate limited",
  500: "Server error",
  502: "An outside site failed",
  503: "A server this call needs is down (Retry-After says when to retry)",
};

const retryAfter = z.object({
  "retry-after": z.string().meta({ description: "Seconds to wait before retrying." }),
});

function operation(route: RouteDef): ZodOpenApiOperationObject {
  const codes = [...new Set<ErrorCode>([...commonErrors(route), ...(route.errors ?? [])])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  if (route.body && !byStatus.has(413)) byStatus.set(413, ["CR_ERR_BAD_REQUEST"]);
  const binary = z.string().meta({ format: "binary" });
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [String(route.status ?? 200)]: {
      description: "Success",
      content: route.fileResponse
        ? Object.fromEntries(route.fileResponse.map((type) => [type, { schema: binary }]))
        : { "application/json": { schema: successEnvelope(route.response) } },
      ...(route.idempotent
        ? {
            headers: z.object({
              "idempotent-replayed": z.literal("true").optional().meta({ description: "Set on a replayed answer." }),
            }),
          }
        : {}),
    },
  };
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `${STATUS_TEXT[status] ?? "Error"}: ${statusCodes.join(", ")}`,
      content: { "application/json": { schema: failureEnvelope } },
      ...(status === 503 || status === 429 ? { headers: retryAfter } : {}),
    };
  }
  return {
    operationId: `${route.method}${route.path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string) => (c ?? "").toUpperCase())}`,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    // Third parties send a bearer token; the browser's cookie (crafter_at) works too but is not
    // offered here: a cookie-authenticated write also needs a same-origin Origin (CSRF rule).
    security: route.auth === "session" ? [{ bearerAuth: [] }] : [],
    requestParams: {
      ...(route.params ? { path: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.idempotent ? { header: idempotencyHeaders } : {}),
    },
    ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: route.body } } } } : {}),
    ...(route.rawBody
      ? { requestBody: { required: true, content: { [route.rawBody.contentType]: { schema: route.rawBody.schema } } } }
      : {}),
    responses: responses as ZodOpenApiOperationObject["responses"],
  };
}

/**
 * The OpenAPI 3.1 document of every registered /auth and /api route, generated from the zod
 * schemas that validate them (zod-openapi), with the envelope and each route's error codes.
 */
export function openApiDocument(routes: RouteDef[], serverUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route) };
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Crafter API",
      version: "1.0.0",
      description: [
        "The gateway's REST API (docs/api.md). Every answer is the envelope",
        "`{ success, result, errorMessage, error }` with a real HTTP status; `error.code` is a code of the",
        "error catalogue. State-changing calls send `Content-Type: application/json`; browsers also a",
        "same-origin `Origin`. A call authenticated only with `Authorization: Bearer` needs no Origin.",
        `POST routes that create things honour \`${IDEMPOTENCY_HEADER}\`.`,
      ].join(" "),
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "An access token (the browser sends the same token as the crafter_at cookie).",
        },
      },
    },
    paths,
  });
}
