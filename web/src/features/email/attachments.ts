/**
 * What the EmailAttachmentUploader accepts: images the media service stores (type checked again from
 * the bytes there), at most 10 MB each and 5 files, so an email stays deliverable. Pure.
 */
export const ATTACHMENT_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_ATTACHMENTS = 5;

/** Why a file cannot be attached, or null when it can. */
export function attachmentProblem(file: { type: string; size: number }, alreadyAttached: number): string | null {
  if (alreadyAttached >= MAX_ATTACHMENTS) return `At most ${MAX_ATTACHMENTS} attachments.`;
  if (!(ATTACHMENT_TYPES as readonly string[]).includes(file.type)) return "Attach a JPEG, PNG, GIF or WebP image.";
  if (file.size > MAX_ATTACHMENT_BYTES) return "Attachments are at most 10 MB each.";
  if (file.size === 0) return "This file is empty.";
  return null;
}
