import { ERROR_CATALOGUE, type ErrorCode } from "@crafter/kit";
import { WEBHOOK_EVENT_DATA, WEBHOOK_EVENT_LABELS, webhookPayloadSchema } from "@crafter/validation";
import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import { bodySchema, commonErrors, IDEMPOTENCY_HEADER, idempotencyHeaders, type RouteDef } from "./registry";
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
  const body = bodySchema(route);
  if (body && !byStatus.has(413)) byStatus.set(413, ["CR_ERR_BAD_REQUEST"]);
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
    // Lets a tool pick out the routes whose Idempotency-Key replays (scripts/security/schemathesis.toml).
    ...(route.idempotent ? { "x-idempotent": true } : {}),
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
    ...(body
      ? { requestBody: { required: true, content: { [route.bodyType ?? "application/json"]: { schema: body } } } }
      : {}),
    ...(route.rawBody
      ? { requestBody: { required: true, content: { [route.rawBody.contentType]: { schema: route.rawBody.schema } } } }
      : {}),
    responses: responses as ZodOpenApiOperationObject["responses"],
  };
}

type JsonSchema = Record<string, unknown>;

/** No control character (C0, DEL, C1): http/request-guard.ts refuses one in any path segment or query value. */
const NO_CONTROL = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$";
/** No U+0000: http/body.ts refuses it in any key or string of a JSON body. */
const NO_NUL = "^[^\\u0000]*$";
/**
 * The same rules said the other way ("holds none of"), for strings longer than LONG_STRING: a
 * generator (schemathesis' coverage phase) cannot build a boundary-length value under an anchored
 * pattern that long, and then sends a body that breaks the schema as a valid one.
 */
const FORBIDDEN: Record<string, string> = {
  [NO_CONTROL]: "[\\u0000-\\u001f\\u007f-\\u009f]",
  [NO_NUL]: "\\u0000",
};
const LONG_STRING = 10_000;
/** Any JSON value without U+0000 in a key or a string: what a JSON body's free values (`z.unknown()`) may hold. */
const JSON_VALUE_REF = "#/components/schemas/JsonValue";
const jsonValue: JsonSchema = {
  description: "Any JSON value; no key or string holds U+0000.",
  anyOf: [
    { type: "string", pattern: NO_NUL },
    { type: ["number", "boolean", "null"] },
    { type: "array", items: { $ref: JSON_VALUE_REF } },
    { type: "object", propertyNames: { pattern: NO_NUL }, additionalProperties: { $ref: JSON_VALUE_REF } },
  ],
};

/**
 * Adds the gateway's rules for all requests, decided before any route's validator (request-guard,
 * body.ts), to the schema of a parameter (`pattern` NO_CONTROL) or of a JSON body (NO_NUL in every
 * string and key; free values are JsonValue), so the document refuses what they refuse. Walks the
 * schema in place; $refs into components are followed once.
 */
function applyRequestRules(
  schema: JsonSchema,
  pattern: string,
  components: Record<string, JsonSchema>,
  seen = new Set<JsonSchema>(),
): void {
  const stack: JsonSchema[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const ref = node.$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
      const target = components[ref.slice("#/components/schemas/".length)];
      if (target) stack.push(target);
    }
    const types = Array.isArray(node.type) ? node.type : [node.type];
    // A format (email, date) admits no control character already.
    if (types.includes("string") && node.enum === undefined && node.const === undefined && node.format === undefined) {
      // A route's own pattern (e.g. "not blank") holds as well: both, through allOf.
      if (
        node.pattern === undefined &&
        node.not === undefined &&
        typeof node.maxLength === "number" &&
        node.maxLength > LONG_STRING
      )
        node.not = { pattern: FORBIDDEN[pattern] };
      else if (node.pattern === undefined) node.pattern = pattern;
      else if (
        node.pattern !== pattern &&
        !(node.allOf as JsonSchema[] | undefined)?.some((s) => s.pattern === pattern)
      )
        node.allOf = [...((node.allOf as JsonSchema[] | undefined) ?? []), { pattern }];
    }
    if (types.includes("object")) {
      // Keys a route does not name are dropped, but the body guard reads them too.
      if (node.additionalProperties === undefined && pattern === NO_NUL)
        node.additionalProperties = { $ref: JSON_VALUE_REF };
      const names = (node.propertyNames as JsonSchema | undefined) ?? {};
      if (names.pattern === undefined && names.enum === undefined) node.propertyNames = { ...names, pattern };
    }
    for (const key of ["items", "additionalProperties", "not"]) {
      const child = node[key];
      if (child && typeof child === "object" && !Array.isArray(child)) {
        // A free value (`{}`): any JSON, within the rule.
        if (Object.keys(child).filter((k) => k !== "description").length === 0 && pattern === NO_NUL)
          node[key] = { ...(child as JsonSchema), $ref: JSON_VALUE_REF };
        else stack.push(child as JsonSchema);
      }
    }
    for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
      const list = node[key];
      if (Array.isArray(list)) stack.push(...(list as JsonSchema[]));
    }
    const properties = node.properties as Record<string, JsonSchema> | undefined;
    if (properties)
      for (const [name, child] of Object.entries(properties)) {
        if (Object.keys(child).filter((k) => k !== "description").length === 0 && pattern === NO_NUL)
          properties[name] = { ...child, $ref: JSON_VALUE_REF };
        else stack.push(child);
      }
  }
}

/**
 * The OpenAPI 3.1 document of every registered /auth and /api route, generated from the zod
 * schemas that validate them (zod-openapi), with the envelope and each route's error codes, and the
 * rules every request passes before them (applyRequestRules).
 */
export function openApiDocument(routes: RouteDef[], serverUrl: string) {
  const document = zodDocument(routes, serverUrl);
  const components = { ...document.components?.schemas, JsonValue: jsonValue } as Record<string, JsonSchema>;
  document.components = { ...document.components, schemas: components };
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of ["get", "post", "put", "patch", "delete"] as const) {
      const op = item[method];
      if (!op) continue;
      for (const parameter of (op.parameters ?? []) as Array<{ in: string; schema?: JsonSchema }>)
        if ((parameter.in === "path" || parameter.in === "query") && parameter.schema)
          applyRequestRules(parameter.schema, NO_CONTROL, components);
      const json = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content?.[
        "application/json"
      ];
      if (json?.schema) applyRequestRules(json.schema, NO_NUL, components);
    }
  }
  return document;
}

const webhookHeaders = z.object({
  "webhook-id": z.string().meta({
    description: "The message id (msg_…): the same on every retry and resend; receivers deduplicate by it.",
  }),
  "webhook-timestamp": z.string().meta({ description: "Unix time of this attempt, in seconds." }),
  "webhook-signature": z.string().meta({
    description:
      "v1,<base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`> keyed with the endpoint's secret (whsec_ + base64 key).",
  }),
});

/**
 * The OpenAPI 3.1 `webhooks` section: one POST per event type that a project's webhook endpoints
 * (and Zapier's REST Hooks) receive, its body the Standard Webhooks payload `{ type, timestamp, data }`
 * with the event's `data` schema, all from the one declaration in @crafter/validation.
 */
/** `ContactCreatedWebhookData` → `ContactCreatedWebhook`: the payload's schema name from its data's. */
const payloadId = (type: keyof typeof WEBHOOK_EVENT_DATA) =>
  String(WEBHOOK_EVENT_DATA[type].meta()?.id ?? type).replace(/Data$/, "");

export function webhookOperations(): ZodOpenApiPathsObject {
  const operations: ZodOpenApiPathsObject = {};
  for (const type of Object.keys(WEBHOOK_EVENT_DATA) as Array<keyof typeof WEBHOOK_EVENT_DATA>) {
    operations[type] = {
      post: {
        operationId: `webhook.${type}`,
        tags: ["Webhooks"],
        summary: WEBHOOK_EVENT_LABELS[type],
        description:
          "Sent to each enabled endpoint that chose this event, signed by the Standard Webhooks specification. Answer 2xx within 15 s; anything else (a redirect included) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 8 h and 8 h, then the delivery fails; an endpoint whose attempts all fail for that day is turned off and its owner notified.",
        requestParams: { header: webhookHeaders },
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: webhookPayloadSchema(type).meta({ id: payloadId(type) }),
            },
          },
        },
        responses: { "200": { description: "Received (any 2xx)." } },
      },
    };
  }
  return operations;
}

function zodDocument(routes: RouteDef[], serverUrl: string) {
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
    webhooks: webhookOperations(),
  });
}
