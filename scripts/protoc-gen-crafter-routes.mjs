#!/usr/bin/env node
// A local buf plugin (proto/buf.gen.yaml, run by `make proto`): writes the gateway's REST route
// entries for the RPCs that carry a `(crafter.api.v1.route)` binding (proto/crafter/api/v1/rest.proto,
// docs/adr/0004-rest-bindings-on-the-protos.md) into services/gateway/src/routes/gen/, one file per
// proto file with bindings, and gen/index.ts listing them for routes/index.ts.
//
// Per route: the path, query and body schemas (zod: validation and the OpenAPI document at once),
// the request built from them, the single RPC call with the caller's (or the acting project's)
// token, and the result: one response field, the whole response, or a fixed JSON value. Per response
// message reached: a named zod schema (`(crafter.api.v1.schema)`) and a `to<Message>Json` mapper.
//
// Request fields are exposed only when they carry `(crafter.api.v1.field)` (an internal field such
// as user_id never is), except `project_id`, which an acts_in_project route fills with the project
// the gateway resolved. Unsupported shapes stop the generation with the field's name.
import { readFileSync, writeSync } from "node:fs";
import { create, createFileRegistry, fromBinary, getOption, hasOption, ScalarType, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  CodeGeneratorResponse_Feature,
  CodeGeneratorResponseSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";

const request = fromBinary(CodeGeneratorRequestSchema, readFileSync(0));
const registry = createFileRegistry(create(FileDescriptorSetSchema, { file: request.protoFile }));
const routeExt = registry.getExtension("crafter.api.v1.route");
const fieldExt = registry.getExtension("crafter.api.v1.field");
const schemaExt = registry.getExtension("crafter.api.v1.schema");

const fail = (message) => {
  throw new Error(`protoc-gen-crafter-routes: ${message}`);
};
const q = (s) => JSON.stringify(s);
const lowerFirst = (s) => s[0].toLowerCase() + s.slice(1);
const fieldOpt = (f) => (hasOption(f, fieldExt) ? getOption(f, fieldExt) : undefined);
const restName = (f) => fieldOpt(f)?.name || f.jsonName;
const isWkt = (m, name) => m?.typeName === `google.protobuf.${name}`;

/** The zod schema and the mapper of a response message, emitted once per file. */
function messageEmitter(out) {
  const done = new Map();
  const emit = (message) => {
    if (done.has(message.typeName)) return done.get(message.typeName);
    const names = { schema: `${lowerFirst(message.name)}Schema`, mapper: `to${message.name}Json`, type: message.name };
    done.set(message.typeName, names);
    const shape = [];
    const values = [];
    for (const f of message.fields) {
      const opt = fieldOpt(f);
      const key = restName(f);
      const src = `m?.${f.localName}`;
      let schema;
      let value;
      if (f.fieldKind === "scalar" && opt?.json) {
        if (f.scalar !== ScalarType.STRING || !opt.validator)
          fail(`${f.parent.typeName}.${f.name}: json is text with a validator`);
        validators.add(opt.validator);
        schema = opt.validator;
        value = `parseJson<z.input<typeof ${opt.validator}>>(${src}, ${opt.fallback || "null"})`;
      } else if (f.fieldKind === "scalar") {
        [schema, value] = scalarJson(f.scalar, src, f);
        if (opt?.values.length === 1) {
          schema = `z.literal(${q(opt.values[0])})`;
          value = `${q(opt.values[0])} as const`;
        } else if (opt?.values.length && opt.fallback) {
          schema = `z.enum([${opt.values.map(q).join(", ")}])`;
          value = `oneOf([${opt.values.map(q).join(", ")}] as const, ${src}, ${q(opt.fallback)})`;
        } else if (opt?.values.length) {
          schema = `z.enum([${opt.values.map(q).join(", ")}])`;
          value = `(${value}) as z.output<typeof ${names.schema}>[${q(key)}]`;
        }
        if (opt?.nullable) {
          if (f.scalar !== ScalarType.STRING) fail(`${f.parent.typeName}.${f.name}: nullable is for text`);
          schema = "z.string().nullable()";
          value = `${src} || null`;
        }
        if (opt?.optional && opt.values.length > 1) {
          // Only a known value is answered; another is left out, as when unset.
          const known = `[${opt.values.map(q).join(", ")}].includes(m?.${f.localName} ?? "")`;
          values.push(
            `    ...(${known} ? { ${key}: m?.${f.localName} as z.output<typeof ${names.schema}>[${q(key)}] } : {}),`,
          );
          schema += ".optional()";
          value = undefined;
        } else if (opt?.optional) {
          const present = f.proto.proto3Optional ? `m?.${f.localName} !== undefined` : `m?.${f.localName}`;
          values.push(`    ...(${present} ? { ${key}: m.${f.localName} } : {}),`);
          schema += ".optional()";
          value = undefined;
        }
      } else if (f.fieldKind === "list" && f.listKind === "scalar") {
        const [item] = scalarJson(f.scalar, "", f);
        schema = `z.array(${item})`;
        value = `${src} ?? []`;
      } else if (f.fieldKind === "message" && isWkt(f.message, "Timestamp")) {
        schema = opt?.neverNull ? "z.string()" : "z.string().nullable()";
        value = opt?.neverNull ? `iso(${src}) ?? ""` : `iso(${src})`;
      } else if (f.fieldKind === "message" && isWkt(f.message, "Struct")) {
        schema = "z.looseObject({})";
        value = `(${src} ?? {}) as Record<string, unknown>`;
      } else if (f.fieldKind === "message") {
        const inner = emit(f.message);
        schema = opt?.optional ? `${inner.schema}.optional()` : inner.schema;
        value = `${inner.mapper}(${src})`;
        if (opt?.optional) {
          values.push(`    ...(m?.${f.localName} ? { ${key}: ${inner.mapper}(m.${f.localName}) } : {}),`);
          value = undefined;
        }
      } else if (f.fieldKind === "list" && f.listKind === "message") {
        const inner = emit(f.message);
        schema = `z.array(${inner.schema})`;
        value = `(${src} ?? []).map(${inner.mapper})`;
      } else {
        fail(`${f.parent.typeName}.${f.name}: a ${f.fieldKind} field has no REST shape yet`);
      }
      if (opt?.description) schema += `.meta({ description: ${q(opt.description)} })`;
      shape.push(`    ${key}: ${schema},`);
      if (value !== undefined) values.push(`    ${key}: ${value},`);
    }
    const meta = hasOption(message, schemaExt) ? getOption(message, schemaExt) : undefined;
    const metaArgs = [meta?.id && `id: ${q(meta.id)}`, meta?.description && `description: ${q(meta.description)}`]
      .filter(Boolean)
      .join(", ");
    out.types.add(message.name);
    out.decls.push(
      `/** The REST shape of ${message.typeName}. */`,
      `export const ${names.schema} = z\n  .object({\n${shape.join("\n")}\n  })${metaArgs ? `\n  .meta({ ${metaArgs} })` : ""};`,
      "",
      `/** ${message.typeName} → ${names.schema} (absent fields as their defaults). */`,
      `export function ${names.mapper}(m: ${message.name} | undefined): z.input<typeof ${names.schema}> {`,
      `  return {\n${values.join("\n")}\n  };`,
      "}",
      "",
    );
    return names;
  };
  return emit;
}

function scalarJson(scalar, src, f) {
  switch (scalar) {
    case ScalarType.STRING:
      return ["z.string()", `${src} ?? ""`];
    case ScalarType.BOOL:
      return ["z.boolean()", `${src} ?? false`];
    case ScalarType.INT32:
    case ScalarType.UINT32:
    case ScalarType.SINT32:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return ["z.number()", `${src} ?? 0`];
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
      return ["z.number()", `Number(${src} ?? 0)`];
    default:
      return fail(`${f.parent.typeName}.${f.name}: scalar type ${scalar} has no REST shape yet`);
  }
}

/** The zod schema of a request field in the query or the body, and how its value reaches the request. */
function requestField(f, where) {
  const opt = fieldOpt(f) ?? {};
  const name = restName(f);
  const label = opt.label || name;
  let schema;
  let value;
  if (opt.validator) {
    validators.add(opt.validator);
    schema = opt.validator;
    value = opt.json ? `JSON.stringify(${where}.${name})` : `${where}.${name}`;
  } else if (f.fieldKind === "scalar" && f.scalar === ScalarType.STRING && opt.id) {
    schema = `id(${q(name)})`;
    value = `${where}.${name}`;
  } else if (f.fieldKind === "scalar" && f.scalar === ScalarType.STRING && opt.values.length) {
    schema = `z.enum([${opt.values.map(q).join(", ")}], { error: ${q(`${name} is one of ${opt.values.join(", ")}`)} }).optional()`;
    value = `${where}.${name} ?? ""`;
  } else if (f.fieldKind === "message" && isWkt(f.message, "Timestamp")) {
    schema = `isoTime(${q(name)})`;
    value = `timestampFromDate(new Date(${where}.${name}))`;
  } else if (f.fieldKind === "scalar" && f.scalar === ScalarType.STRING) {
    schema = `z.string({ error: ${q(`${label} must be text`)} })`;
    if (opt.maxLen) schema += `.max(${opt.maxLen}, ${q(`${label} has at most ${opt.maxLen} characters`)})`;
    if (opt.minLen)
      schema += `.min(${opt.minLen}, ${q(opt.minLen === 1 ? `${label} is required` : `${label} has at least ${opt.minLen} characters`)})`;
    // Absent is the proto's own default, "".
    else schema += '.default("")';
    value = `${where}.${name}`;
  } else if (f.fieldKind === "list" && f.listKind === "scalar" && f.scalar === ScalarType.STRING && where === "body") {
    // A list of texts (ids): each item within max_len (default 200), at most 100 items, absent as [].
    const max = opt.maxLen || 200;
    schema = `z.array(z.string({ error: ${q(`${label} holds text`)} }).max(${max}, ${q(`Each of ${label} has at most ${max} characters`)}), { error: ${q(`${label} must be a list`)} }).max(100, ${q(`${label} has at most 100 items`)}).default([])`;
    value = `${where}.${name}`;
  } else if (f.fieldKind === "scalar" && f.scalar === ScalarType.BOOL && where === "query") {
    schema = `z.enum(["true", "false"], { error: ${q(`${name} is true or false`)} }).default("false")`;
    value = `${where}.${name} === "true"`;
  } else if (f.fieldKind === "scalar" && f.scalar === ScalarType.BOOL && where === "body") {
    // Absent is the proto's own default, false.
    schema = `z.boolean({ error: ${q(`${label} is true or false`)} }).default(false)`;
    value = `${where}.${name}`;
  } else if (f.fieldKind === "message" && isWkt(f.message, "Struct")) {
    schema = `jsonObject(${q(name)})`;
    value = `${where}.${name} as JsonObject`;
  } else {
    fail(`${f.parent.typeName}.${f.name}: no REST request shape for this ${f.fieldKind} field in the ${where} yet`);
  }
  if (opt.description) schema += `.meta({ description: ${q(opt.description)} })`;
  return { name, schema, value };
}

function routeEntry(method, binding, emit) {
  const verb = binding.pattern.case;
  const path = binding.pattern.value;
  if (!verb || !path) fail(`${method.parent.typeName}.${method.name}: a binding without a method and path`);
  // `{name}` or `{name=field}`: the parameter's name, and the proto field it binds when named.
  const pathParams = [...path.matchAll(/\{([^}=]+)(?:=([^}]+))?\}/g)].map((m) => ({ name: m[1], field: m[2] }));
  const pathNames = pathParams.map((p) => p.name);
  const restPath = path.replace(/\{([^}=]+)=[^}]+\}/g, "{$1}");
  const params = [];
  const query = [];
  const body = [];
  const init = [];
  for (const f of method.input.fields) {
    if (f.name === "project_id" && binding.actsInProject) {
      init.push(`${f.localName}: project.projectId`);
      continue;
    }
    if (binding.paged && (f.name === "page" || f.name === "page_size")) {
      init.push(`${f.localName}: query.${f.localName}`);
      continue;
    }
    const opt = fieldOpt(f);
    if (!opt) continue;
    const explicit = pathParams.find((p) => p.field === f.name);
    const name = explicit ? explicit.name : restName(f);
    if (explicit || pathParams.some((p) => !p.field && p.name === name)) {
      if (f.fieldKind !== "scalar" || f.scalar !== ScalarType.STRING) fail(`${f.name}: a path parameter is text`);
      // An id unless the field states its own limits.
      params.push(`${name}: ${opt.maxLen ? requestField(f, "params").schema : `id(${q(name)})`}`);
      init.push(`${f.localName}: params.${name}`);
      continue;
    }
    if (opt.pathOnly) continue;
    const where = verb === "get" || verb === "delete" ? "query" : "body";
    const field = requestField(f, where);
    (where === "query" ? query : body).push(`${field.name}: ${field.schema}`);
    init.push(`${f.localName}: ${field.value}`);
  }
  for (const name of pathNames)
    if (!params.some((p) => p.startsWith(`${name}:`))) fail(`${path}: no request field is named ${name}`);
  if (binding.paged && !init.some((i) => i.startsWith("pageSize:")))
    fail(`${method.name}: a paged route's request has page and page_size`);

  let response;
  let result;
  if (binding.resultJson) {
    const fixed = JSON.parse(binding.resultJson);
    const zodOf = (v) =>
      typeof v === "boolean"
        ? "z.boolean()"
        : typeof v === "number"
          ? "z.number()"
          : typeof v === "string"
            ? "z.string()"
            : fail(`result_json ${binding.resultJson}: only flat objects`);
    response = `z.object({ ${Object.entries(fixed)
      .map(([k, v]) => `${k}: ${binding.resultConst ? `z.literal(${JSON.stringify(v)})` : zodOf(v)}`)
      .join(", ")} })`;
    result = `{ ${Object.entries(fixed)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}${binding.resultConst ? " as const" : ""}`)
      .join(", ")} }`;
  } else if (binding.responseBody) {
    const f = method.output.fields.find((x) => x.name === binding.responseBody);
    if (!f) fail(`${method.name}: response_body ${binding.responseBody} is not a field of ${method.output.name}`);
    if (f.fieldKind === "message") {
      const inner = emit(f.message);
      response = inner.schema;
      result = `${inner.mapper}(response.${f.localName})`;
    } else if (f.fieldKind === "list" && f.listKind === "message") {
      const inner = emit(f.message);
      response = binding.nullableItems ? `z.array(${inner.schema}.nullable())` : `z.array(${inner.schema})`;
      result = `response.${f.localName}.map(${inner.mapper})`;
      if (binding.paged && binding.nullableItems) fail(`${method.name}: a paged list's items are not nullable`);
      if (binding.paged) {
        response = `paged(${inner.schema})`;
        result = `{ result: ${result}, meta: pageMetaOf(response) }`;
      }
    } else fail(`${method.name}: response_body names a message or a list of messages`);
  } else {
    if (binding.paged) fail(`${method.name}: a paged route's response_body names its list`);
    const inner = emit(method.output);
    response = inner.schema;
    result = `${inner.mapper}(response)`;
  }

  const client = lowerFirst(method.parent.name.replace(/Service$/, ""));
  const call = `clients.${client}.${method.localName}(${init.length ? `{ ${init.join(", ")} }` : "{}"}, as)`;
  const queryShape = [
    ...(binding.actsInProject && !binding.noProjectQuery ? ["...projectQuery"] : []),
    ...query,
    ...(binding.paged ? ["...paging"] : []),
  ];
  const ctx = [
    "as",
    params.length && "params",
    (query.length || binding.paged) && "query",
    body.length && "body",
    binding.actsInProject && "project",
  ]
    .filter(Boolean)
    .join(", ");
  const lines = [
    "    defineRoute({",
    `      method: ${q(verb)},`,
    `      path: ${q(restPath)},`,
    `      tag: ${q(binding.tag)},`,
    `      summary: ${q(binding.summary)},`,
    ...(binding.description ? [`      description: ${q(binding.description)},`] : []),
    `      auth: ${q(binding.public ? "public" : "session")},`,
    ...(binding.actsInProject ? ["      actsInProject: true,"] : []),
    ...(binding.projectPermission ? [`      projectPermission: ${q(binding.projectPermission)},`] : []),
    ...(params.length ? [`      params: z.object({ ${params.join(", ")} }),`] : []),
    ...(queryShape.length ? [`      query: z.object({ ${queryShape.join(", ")} }),`] : []),
    ...(body.length || binding.body === "*"
      ? [`      body: z.object({${body.length ? ` ${body.join(", ")} ` : ""}}),`]
      : []),
    `      response: ${response},`,
    ...(binding.status && binding.status !== 200 ? [`      status: ${binding.status},`] : []),
    ...(binding.idempotent ? ["      idempotent: true,"] : []),
    ...(binding.errors.length ? [`      errors: [${binding.errors.map(q).join(", ")}],`] : []),
    `      handler: async ({ ${ctx} }) => {`,
    binding.resultJson ? `        await ${call};` : `        const response = await ${call};`,
    `        return ${result};`,
    "      },",
    "    }),",
  ];
  return { path: restPath, verb, code: lines.join("\n") };
}

/**
 * The routes in their order, except that one is placed before an earlier one that would take its
 * path (`/api/x/{id}` before `/api/x/templates`: the router tries them in order).
 */
function unshadowed(entries) {
  const segments = (p) => p.split("/");
  const takes = (earlier, later) => {
    if (earlier.verb !== later.verb) return false;
    const [a, b] = [segments(earlier.path), segments(later.path)];
    return a.length === b.length && a.every((s, i) => s === b[i] || (s.startsWith("{") && !b[i].startsWith("{")));
  };
  const placed = [];
  for (const entry of entries) {
    const at = placed.findIndex((earlier) => earlier.path !== entry.path && takes(earlier, entry));
    if (at === -1) placed.push(entry);
    else placed.splice(at, 0, entry);
  }
  return placed.map((e) => e.code);
}

const files = [];
const factories = [];
/** The http/validators.ts schemas the file being written uses. */
let validators = new Set();
for (const name of request.fileToGenerate) {
  const file = registry.getFile(name);
  const out = { decls: [], types: new Set() };
  validators = new Set();
  const emit = messageEmitter(out);
  const services = [];
  for (const service of file.services) {
    const entries = [];
    for (const method of service.methods) {
      if (!hasOption(method, routeExt)) continue;
      if (method.methodKind !== "unary") fail(`${method.name}: only unary RPCs have generated routes`);
      const route = getOption(method, routeExt);
      for (const binding of [route, ...route.additionalBindings]) entries.push(routeEntry(method, binding, emit));
    }
    if (entries.length === 0) continue;
    const ordered = unshadowed(entries);
    const factory = `${lowerFirst(service.name)}Routes`;
    services.push(
      `/** The generated one-call routes over ${service.typeName}. */\nexport function ${factory}({ clients }: RouteDeps): RouteDef[] {\n  return [\n${ordered.join("\n")}\n  ];\n}\n`,
    );
    factories.push({ factory, module: file.name.replace(/^crafter\//, "").replaceAll("/", ".") });
  }
  if (services.length === 0 && out.decls.length === 0) continue;
  const module = file.name.replace(/^crafter\//, "").replaceAll("/", ".");
  const body = [...out.decls, ...services].join("\n");
  const pb = `@crafter/proto/${file.name}_pb`;
  const header = [
    `// @generated by scripts/protoc-gen-crafter-routes.mjs from ${file.name}.proto: do not edit; change the proto and run \`make proto\`.`,
    ...(body.includes("JsonObject") ? ['import type { JsonObject } from "@bufbuild/protobuf";'] : []),
    ...(body.includes("timestampFromDate(") ? ['import { timestampFromDate } from "@bufbuild/protobuf/wkt";'] : []),
    ...(out.types.size ? [`import type { ${[...out.types].sort().join(", ")} } from "${pb}";`] : []),
    'import { z } from "zod";',
    ...(services.length ? ['import { defineRoute, type RouteDef } from "../../http/registry";'] : []),
    `import { ${["iso", "oneOf", "pageMetaOf", "paged", "paging", "parseJson", "projectQuery"]
      .filter((h) => new RegExp(`(\\.\\.\\.${h}\\b|\\b${h}(\\(|<| \\}))`).test(body))
      .join(", ")} } from "../../http/rest-bindings";`,
    ...(body.match(/\b(id|jsonObject|isoTime)\(/)
      ? [
          `import { ${["id", "isoTime", "jsonObject"].filter((h) => body.match(new RegExp(`\\b${h}\\(`))).join(", ")} } from "../../http/schemas";`,
        ]
      : []),
    ...(validators.size ? [`import { ${[...validators].sort().join(", ")} } from "../../http/validators";`] : []),
    ...(services.length ? ['import type { RouteDeps } from "../deps";'] : []),
    "",
  ]
    .filter((line) => !line.startsWith("import {  }"))
    .join("\n");
  files.push({ name: `${module}.ts`, content: `${header}\n${body}` });
}
files.push({
  name: "index.ts",
  content: [
    "// @generated by scripts/protoc-gen-crafter-routes.mjs: do not edit; change the protos and run `make proto`.",
    'import type { RouteDef } from "../../http/registry";',
    'import type { RouteDeps } from "../deps";',
    ...factories.map(({ factory, module }) => `import { ${factory} } from "./${module}";`),
    "",
    "/** The route files generated from the protos' REST bindings, registered beside the hand-written ones. */",
    `export const GENERATED_ROUTE_FILES: Array<(deps: RouteDeps) => RouteDef[]> = [${factories.map((f) => f.factory).join(", ")}];`,
    "",
  ].join("\n"),
});

const response = create(CodeGeneratorResponseSchema, {
  supportedFeatures: BigInt(CodeGeneratorResponse_Feature.PROTO3_OPTIONAL),
  file: files.map(({ name, content }) => ({ name, content })),
});
writeSync(1, toBinary(CodeGeneratorResponseSchema, response));
