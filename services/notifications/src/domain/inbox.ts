// Pure rules of the in-app inbox (the bell): levels, ids, input limits, paging.
import { createHash } from "node:crypto";

/** The spec's notification levels. */
export const NOTIFICATION_LEVELS = ["info", "warning", "success", "error"] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

export const TITLE_MAX = 200;
export const BODY_MAX = 2000;
export const LINK_MAX = 500;
export const KEY_MAX = 300;

/**
 * The id of a user's notification for an idempotency key: a SHA-256 of both (hex, 32 characters),
 * so the same key for the same user is the same document, and one user's key never names another's.
 */
export function notificationIdOf(userId: string, key: string): string {
  return createHash("sha256").update(userId).update("\0").update(key).digest("hex").slice(0, 32);
}

/** What a notification says, trimmed to the limits; null fields when invalid. */
export interface NotificationText {
  title: string;
  body: string;
  link: string;
}

/**
 * Cleans a notification's text: title and body trimmed and cut to their limits, a link kept only
 * when it is an app path ("/app/…", never another origin: the bell's links stay inside the app).
 * @returns the text, or an error message for a missing title or key, or an unknown level.
 */
export function cleanNotification(input: {
  level: string;
  title: string;
  body: string;
  link?: string;
  key: string;
}): { ok: true; text: NotificationText; level: NotificationLevel } | { ok: false; error: string } {
  if (!(NOTIFICATION_LEVELS as readonly string[]).includes(input.level))
    return { ok: false, error: `level is one of ${NOTIFICATION_LEVELS.join(", ")}` };
  const title = input.title.trim().slice(0, TITLE_MAX);
  if (title === "") return { ok: false, error: "title is required" };
  if (input.key === "" || input.key.length > KEY_MAX) return { ok: false, error: `key is 1 to ${KEY_MAX} characters` };
  const link = (input.link ?? "").trim();
  const safeLink = link.startsWith("/") && !link.startsWith("//") && link.length <= LINK_MAX ? link : "";
  return {
    ok: true,
    level: input.level as NotificationLevel,
    text: { title, body: input.body.trim().slice(0, BODY_MAX), link: safeLink },
  };
}

/** 1-based page and size within bounds (size 1..100, default 20), and the totals of a page. */
export function pageOf(page: number, pageSize: number): { page: number; pageSize: number; skip: number } {
  const size = Number.isInteger(pageSize) && pageSize >= 1 ? Math.min(pageSize, 100) : 20;
  const p = Number.isInteger(page) && page >= 1 ? Math.min(page, 100_000) : 1;
  return { page: p, pageSize: size, skip: (p - 1) * size };
}

export function totalPages(count: number, pageSize: number): number {
  return Math.ceil(count / pageSize);
}
