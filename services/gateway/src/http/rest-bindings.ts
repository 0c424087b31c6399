import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { z } from "zod";

// The pieces the generated routes (routes/gen, from the protos' REST bindings) share with the
// hand-written ones: the same schemas, so a route keeps its messages and its OpenAPI entry whichever
// way it is written.

/** Text of at most `max` characters: "<name> must be text", "<name> has at most <max> characters". */
export const text = (name: string, max: number) =>
  z.string({ error: `${name} must be text` }).max(max, `${name} has at most ${max} characters`);

/** `?projectId=` of an actsInProject route: the project it works in (http/acting.ts). */
export const projectQuery = {
  projectId: text("projectId", 64).optional().meta({ description: "The project; the active one when absent." }),
};

/** A Timestamp as ISO 8601 (`2026-05-01T09:30:00.000Z`), or null when unset. */
export const iso = (t: Timestamp | undefined): string | null => (t ? timestampDate(t).toISOString() : null);

/** `value` when it is one of `values`, else `fallback` (a response enum the service may widen). */
export const oneOf = <const T extends string>(values: readonly T[], value: string | undefined, fallback: T): T =>
  values.find((v) => v === value) ?? fallback;

/** A whole number of a query, `min` to `max`: "<name> must be a whole number from <min> to <max>". */
export const whole = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

/** `?page=&pageSize=` of a paged list: page 1 to 100000 (default 1), pageSize 1 to 100 (default 20). */
export const paging = {
  page: whole("page", 1, 100_000).default(1),
  pageSize: whole("pageSize", 1, 100).default(20),
};

/** The `meta` beside a paged list's `result`. */
export const pageMeta = z.object({ count: z.number(), currentPage: z.number(), totalPages: z.number() });

/** A paged response's counts as `pageMeta`. */
export const pageMetaOf = (page: { count: number; currentPage: number; totalPages: number }) => ({
  count: page.count,
  currentPage: page.currentPage,
  totalPages: page.totalPages,
});

/** JSON text parsed, or `fallback` when it is not JSON (a value the service stored as text). */
export const parseJson = <T>(json: string | undefined, fallback: T): T => {
  try {
    return JSON.parse(json ?? "") as T;
  } catch {
    return fallback;
  }
};

/** A paged list's result: `{ result: item[], meta: pageMeta }`. */
export const paged = <T extends z.ZodType>(item: T) => z.object({ result: z.array(item), meta: pageMeta });
