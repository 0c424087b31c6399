import { badRequest, type Caller } from "@crafter/kit";
import { z } from "zod";
import type { ContactsDeps } from "../deps";
import type { Settings } from "../store/settings.repository";
import { scopeOf } from "./scope";

const key = z
  .string()
  .trim()
  .min(1, "A key is required")
  .max(40, "A key has at most 40 characters")
  .regex(/^[A-Za-z0-9_-]+$/, "A key has letters, digits, - and _ only");
const label = z.string().trim().min(1, "A label is required").max(80, "A label has at most 80 characters");

const uniqueKeys = <T extends { key: string }>(items: T[]) =>
  new Set(items.map((item) => item.key.toLowerCase())).size === items.length;

export const SETTINGS_LISTS = {
  "custom-fields": z
    .array(
      z
        .object({
          key,
          label,
          type: z.enum(["text", "number", "date", "select", "boolean"], {
            error: "type is text, number, date, select or boolean",
          }),
          options: z.array(z.string().trim().min(1).max(80)).max(100).optional(),
        })
        .refine((f) => f.type !== "select" || (f.options?.length ?? 0) > 0, {
          message: "A select field needs options",
          path: ["options"],
        }),
    )
    .max(50, "At most 50 custom fields")
    .refine(uniqueKeys, "Keys must be unique"),
  "interaction-types": z
    .array(z.object({ key, label }))
    .max(50, "At most 50 types")
    .refine(uniqueKeys, "Keys must be unique"),
  "contact-types": z
    .array(z.object({ key, label }))
    .max(50, "At most 50 types")
    .refine(uniqueKeys, "Keys must be unique"),
} as const;

export type SettingsList = keyof typeof SETTINGS_LISTS;

const FIELD_OF: Record<SettingsList, keyof Settings> = {
  "custom-fields": "customFields",
  "interaction-types": "interactionTypes",
  "contact-types": "contactTypes",
};

export async function getContactSettings(
  deps: Pick<ContactsDeps, "stores">,
  caller: Caller,
  input: { projectId: string },
): Promise<Settings> {
  const scope = scopeOf(caller, input.projectId);
  return deps.stores.settings.get(scope.userId, scope.projectId);
}

/** Replaces one settings list. @throws CR_ERR_BAD_REQUEST with the first problem per item path. */
export async function saveContactSettings(
  deps: Pick<ContactsDeps, "stores" | "now">,
  caller: Caller,
  input: { projectId: string; list: string; items: unknown },
): Promise<Settings> {
  const scope = scopeOf(caller, input.projectId);
  if (!(input.list in SETTINGS_LISTS))
    throw badRequest({ list: "list is custom-fields, interaction-types or contact-types" });
  const list = input.list as SettingsList;
  const parsed = SETTINGS_LISTS[list].safeParse(input.items);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join(".") || "items"] ??= issue.message;
    throw badRequest(fields);
  }
  return deps.stores.settings.save(scope.userId, scope.projectId, { [FIELD_OF[list]]: parsed.data }, deps.now());
}
