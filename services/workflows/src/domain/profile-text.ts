import type { JsonValue } from "@bufbuild/protobuf";
import { PROFILE_FIELD_DEFS, type ProfileTypeName } from "@crafter/validation";
import { fieldOf } from "./profile-prefill";
import type { ProfileSnapshot } from "./types";

/** The longest value of one profile field in a prompt, in characters (a policy or a description can be long). */
export const MAX_PROFILE_FIELD_CHARS = 600;

/** `text` on one line, cut at `max` characters (with "…"). */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

function asText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.map(asText).filter(Boolean).join(", ");
  if (typeof value === "object") return "";
  return String(value);
}

/**
 * A profile as compact labelled lines for a prompt: `<heading>: <name>`, then every filled field
 * of its type (PROFILE_FIELD_DEFS labels, spec order; images left out, each value on one line and
 * at most MAX_PROFILE_FIELD_CHARS characters). A snapshot without a type shows its own columns.
 * Pure; used by the image prompt writer and the assistant.
 */
export function describeProfile(profile: ProfileSnapshot, heading: string): string {
  const defs = PROFILE_FIELD_DEFS[profile.type as ProfileTypeName] ?? [
    { key: "description", label: "Description", kind: "longText" },
    { key: "audience", label: "Audience", kind: "longText" },
    { key: "keywords", label: "Keywords", kind: "list" },
    { key: "websiteUrl", label: "Website", kind: "url" },
  ];
  const lines = [`${heading}: ${clip(profile.name, MAX_PROFILE_FIELD_CHARS) || "(no name)"}`];
  for (const def of defs) {
    if (def.key === "name" || def.kind === "image" || def.kind === "images") continue;
    const text = clip(asText(fieldOf(profile, def.key)), MAX_PROFILE_FIELD_CHARS);
    if (text) lines.push(`${def.label}: ${text}`);
  }
  return lines.join("\n");
}
