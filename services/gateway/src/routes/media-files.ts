import { describeError } from "@crafter/kit";
import type { RequestHandler } from "express";
import type { Clients } from "../clients";
import { fail } from "../http/envelope";
import { sendFile } from "../http/files";

/**
 * GET /media/<key>?exp&sig: a stored media file for whoever holds the signed URL (the media
 * service checks the signature and expiry: 403 MEDIA_LINK_EXPIRED). Cached privately until a
 * little before it expires.
 */
export function mediaFiles(clients: Pick<Clients, "media">): RequestHandler {
  return async (req, res) => {
    const segments = (req.params as { key?: string[] | string }).key;
    const key = Array.isArray(segments) ? segments.join("/") : String(segments ?? "");
    const exp = typeof req.query.exp === "string" && /^\d{1,12}$/.test(req.query.exp) ? BigInt(req.query.exp) : 0n;
    const sig = typeof req.query.sig === "string" ? req.query.sig.slice(0, 100) : "";
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    try {
      const maxAge = Math.max(0, Math.min(3600, Number(exp) - Math.floor(Date.now() / 1000) - 60));
      await sendFile(res, clients.media.readFile({ key, exp, sig }, { signal: controller.signal }), {
        disposition: "inline",
        cache: `private, max-age=${maxAge}`,
      });
    } catch (error) {
      if (!res.headersSent) fail(res, describeError(error));
    }
  };
}

/**
 * GET /media/public/<id>: a published asset (a business logo) for anyone, at a URL that does not
 * expire; cached publicly for a day (a published asset's file never changes) and loadable from other
 * origins (webmail, customers' sites). 404 for anything not published.
 */
export function publicMediaFiles(clients: Pick<Clients, "media">): RequestHandler {
  return async (req, res) => {
    const publicId = String((req.params as { id?: string }).id ?? "").slice(0, 100);
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    try {
      await sendFile(res, clients.media.readPublicFile({ publicId }, { signal: controller.signal }), {
        disposition: "inline",
        cache: "public, max-age=86400",
      });
    } catch (error) {
      if (!res.headersSent) fail(res, describeError(error));
    }
  };
}
