import { appError, type Caller } from "@crafter/kit";
import type { CustomFieldDefinition } from "../domain/fields";
import type { Scope } from "../store/contact.repository";
import type { Settings } from "../store/settings.repository";

/** The caller's user and the project named (ids are opaque, at most 64 characters). */
export function scopeOf(caller: Caller, projectId: string): Scope {
  if (projectId.length > 64)
    throw appError("CR_ERR_BAD_REQUEST", "projectId is too long", { projectId: "projectId is too long" });
  return { userId: caller.userId, projectId };
}

/** The settings' custom fields as the domain's definitions. */
export function customDefinitions(settings: Settings): CustomFieldDefinition[] {
  return settings.customFields.map((field) => ({
    key: field.key,
    label: field.label,
    kind: field.type,
    options: field.options,
  }));
}

/** 1-based page and size within bounds (size 1..100, default 20). */
export function paging(page: number, pageSize: number): { page: number; pageSize: number } {
  return {
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, 100_000) : 1,
    pageSize: Number.isInteger(pageSize) && pageSize >= 1 ? Math.min(pageSize, 100) : 20,
  };
}
