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
