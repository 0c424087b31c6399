import { z } from "zod";
import { emailOrNone } from "./schemas";

// Request rules that are code rather than limits (the kit's email rule, a domain's labels), named
// so a proto field's REST binding can use one: `(crafter.api.v1.field) = {validator: "<name>"}`
// (routes/gen imports it from here). Each is the service's own rule, stated as the document says it.

const DOMAIN_MESSAGE = "Enter a domain such as example.com";

/**
 * A domain as notifications reads it (dkim.ts normalDomain): labels of 1 to 63 letters, digits and
 * inner hyphens, at least two, a last label not all digits, an optional final dot; in patterns the
 * document states (without the spaces around it that the service would also trim).
 */
export const sendingDomain = z
  .string({ error: DOMAIN_MESSAGE })
  .max(253, DOMAIN_MESSAGE)
  .regex(
    /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?$/,
    DOMAIN_MESSAGE,
  )
  .regex(/\.[A-Za-z0-9-]*[A-Za-z-][A-Za-z0-9-]*\.?$/, DOMAIN_MESSAGE)
  .meta({ description: "e.g. example.com" });

/** A sender identity's from address: an email address, or "" for none. */
export const senderFromAddress = emailOrNone("From address must be an email address");

/** A sender identity's reply-to: an email address, or "" for replies to the From address. */
export const senderReplyTo = emailOrNone("Reply-to must be an email address");
