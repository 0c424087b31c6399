/**
 * The error catalogue of spec section 8 plus the platform codes of docs/api.md. Pure data, shared
 * by the services (AppError → ConnectError detail), the gateway (envelope `error.code` + HTTP
 * status) and the web dashboard (toasts, dialogs and modals).
 */

/** One code: its HTTP status and the message users see; `title`/`body` when the web shows a dialog. */
export interface CatalogueEntry {
  status: number;
  message: string;
  /** The title of the web's dialog or modal for this code. */
  title?: string;
  /** The text under `title` in that dialog; `message` when absent. */
  body?: string;
}

/** An entry shown as a titled dialog whose message is the title followed by the body. */
function dialog(status: number, title: string, body: string): CatalogueEntry & { title: string; body: string } {
  return { status, message: `${title} ${body}`, title, body };
}

export const ERROR_CATALOGUE = {
  InvalidUrl: { status: 400, message: "Oops! The URL you entered seems incorrect. Please check and try again." },
  PageNotFound: {
    status: 404,
    message: "The page you're looking for can't be found. It may have been moved or deleted.",
  },
  UnableToReadWebPage: { status: 502, message: "We're having trouble reading this web page. Please try again later." },
  InternalServerError: { status: 500, message: "Something went wrong on our end. Please try again later." },
  TooManyRunningActions: {
    status: 409,
    message: "Your previous request is still processing. Please wait a moment before trying again.",
  },
  NoResultsFound: { status: 404, message: "No results found. Please check and try again." },
  CR_ERR_BAD_REQUEST: { status: 400, message: "Something is wrong with your request." },
  CR_ERR_WEBSITE_AUDIT: { status: 502, message: "Can't process page. Please try later or use another page." },
  ConflictingInputError: {
    status: 422,
    message:
      "The input data may conflict or lack details needed for crafting. Please review, complete all required information and try again.",
    title: "Warning",
  },
  ReachedMaxResults: dialog(409, "Maximum result limit reached.", "Please delete poor results before generating more."),
  /** Keyword research found nothing (or no provider is configured): the 'No results found.' dialog. */
  NoKeywordDataFound: dialog(422, "No results found.", "Check the spelling or try broader keywords."),
  /** Competitor research found nothing about the domain: the 'No data has been found about this domain.' dialog. */
  NoCompetitorDataFound: dialog(422, "No data has been found about this domain.", "It may be a low traffic domain."),
  /** The free tier's credits are spent: the web's upgrade modal. */
  NEED_SUBSCRIPTION: {
    status: 402,
    message: "Your free credit has ended. Upgrade your plan to keep crafting without interruption.",
    title: "Keep Crafting Uninterrupted!",
  },
  /** A free-tier usage limit is reached (@crafter/plans LIMITS.free): the upgrade modal suggests Core. */
  FREE_USER_LIMIT: {
    status: 402,
    message: "You have reached the free plan's limit. Upgrade to Core to keep going.",
    title: "Upgrade to keep going",
  },
  /** Core's customer profile limit (1,000): the upgrade modal suggests Pro. */
  CORE_CONTACTS_LIMIT: {
    status: 402,
    message: "You have reached Core's 1,000 customer profiles. Upgrade to Pro for 5,000.",
    title: "Customer profile limit reached",
  },
  /** Core's monthly email limit (4,000): the upgrade modal suggests Pro. */
  CORE_EMAILS_LIMIT: {
    status: 402,
    message: "You have sent Core's 4,000 emails this month. Upgrade to Pro for 20,000.",
    title: "Email limit reached",
  },
  /** Core's monthly AI image limit (200): the upgrade modal suggests Pro. */
  CORE_AI_IMAGES_LIMIT: {
    status: 402,
    message: "You have made Core's 200 AI images this month. Upgrade to Pro for 400.",
    title: "AI image limit reached",
  },
  /** Core's monthly AI voice limit (20 minutes): the upgrade modal suggests Pro. */
  CORE_VOICE_MINUTES_LIMIT: {
    status: 402,
    message: "You have used Core's 20 minutes of AI voice this month. Upgrade to Pro for 60.",
    title: "AI voice limit reached",
  },
  /** A Pro limit is reached: there is no bigger plan; it resets next month (or, for profiles, after deleting some). */
  PLAN_LIMIT_REACHED: {
    status: 402,
    message: "You have reached your plan's limit for this month.",
    title: "Plan limit reached",
  },
  /** A paid plan's credits are spent: the web's credits notice (its title is the message). */
  NOT_ENOUGH_CREDITS: { status: 402, message: "Not enough credits." },
  InvalidToken: { status: 400, message: "This link is invalid or has expired." },
  InvalidCredentials: { status: 401, message: "Invalid email or password." },
  /** A server the request needs (database, peer service, Redis) is down; the answer carries Retry-After. */
  UNAVAILABLE: { status: 503, message: "The service is briefly unavailable. Please try again in a moment." },
  /**
   * The configured AI provider refused the call (bad key, unknown model, a reply that is not its
   * protocol): the provider, not the user's input, is wrong.
   */
  AI_PROVIDER_ERROR: {
    status: 502,
    message: "The AI service refused the request. An owner or admin can check the AI settings.",
  },
  /** An Idempotency-Key was reused with a different request body. */
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: "This Idempotency-Key was already used with a different request.",
  },
  UNAUTHENTICATED: { status: 401, message: "Your session has expired. Please sign in again." },
  FORBIDDEN: { status: 403, message: "This request is not allowed." },
  /** An HTTP method the route does not take (TRACE, PROPFIND, a PUT on a read-only route); the answer lists `Allow`. */
  METHOD_NOT_ALLOWED: { status: 405, message: "This method is not allowed here." },
  /** A signed-in user whose email is not verified yet: refused on /api and by every service. */
  EMAIL_NOT_VERIFIED: { status: 403, message: "Please verify your email first. We can send the link again." },
  NOT_FOUND: { status: 404, message: "Not found." },
  CONFLICT: { status: 409, message: "This conflicts with the current state. Reload and try again." },
  RATE_LIMITED: { status: 429, message: "Too many attempts. Please wait a moment and try again." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Requests must be sent as application/json." },
  /** The email is already a contact of the project (contacts are unique per project and email). */
  CONTACT_EXISTS: { status: 409, message: "A contact with this email already exists." },
  /** An email change to an address another account has. */
  EMAIL_TAKEN: { status: 409, message: "This email is already used by another account." },
  /** A feature whose flag is off for the user (enabled and not disabled, spec section 6), asked for by its API. */
  FEATURE_DISABLED: { status: 403, message: "This feature is not available for your account." },
  /** A team invitation link that is unknown, cut or past its 7 days. */
  INVITE_INVALID: { status: 400, message: "This invitation link is invalid or has expired. Ask for a new invitation." },
  /** A team invitation link that was already used or withdrawn: each link joins once. */
  INVITE_USED: { status: 409, message: "This invitation was already used or withdrawn. Ask for a new invitation." },
  /** A team invitation opened by an account with another email address than the one invited. */
  INVITE_EMAIL_MISMATCH: {
    status: 403,
    message: "This invitation is for another email address. Sign in with the invited address to accept it.",
  },
  /** Inviting someone who already is the project's owner or one of its members. */
  MEMBER_EXISTS: { status: 409, message: "This person is already a member of the project." },
  /** A published page's address (`/<slug>`) that another page already has. */
  PAGE_SLUG_TAKEN: { status: 409, message: "This address is taken. Choose another one." },
  /** A custom domain another project has added. */
  CUSTOM_DOMAIN_TAKEN: { status: 409, message: "This domain is already used by another business." },
  /** A CSV import larger than the upload limit. */
  IMPORT_TOO_LARGE: {
    status: 413,
    message: "The file is larger than 20 MB. Split it into smaller files and import each.",
  },
  /** A signed contact link (double opt-in, preferences, unsubscribe) that is forged, cut or expired. */
  CONTACT_LINK_INVALID: {
    status: 400,
    message: "This link is invalid or has expired. Open the link from your latest email again.",
  },
  /** An approval link that its sender revoked or that expired (an unknown or altered one is NOT_FOUND). */
  REVIEW_LINK_GONE: {
    status: 410,
    message: "This review link has expired or was withdrawn. Ask its sender for a new one.",
  },
  /** A public lead form or assistant whose owner's plan has no room for another contact. */
  LEAD_CAPTURE_FULL: { status: 403, message: "This form cannot take new sign-ups right now." },
  // Media: uploads are checked by their bytes, with a limit per kind.
  MEDIA_UNSUPPORTED_TYPE: {
    status: 415,
    message: "This file type is not supported. Upload an image (JPEG, PNG, WebP, GIF), an audio file or a video.",
  },
  MEDIA_TOO_LARGE: { status: 413, message: "This file is too large." },
  MEDIA_UNREADABLE: { status: 422, message: "This file could not be read. It may be damaged." },
  /** An image edit or preview over its cost (output pixels × operations) or its time budget. */
  MEDIA_EDIT_TOO_COSTLY: {
    status: 422,
    message: "These edits need too much work. Use a smaller size or fewer operations.",
  },
  MEDIA_LINK_EXPIRED: { status: 403, message: "This media link is invalid or has expired." },
  MEDIA_PROVIDER_FAILED: {
    status: 502,
    message: "The generation service failed. Nothing was charged; please try again.",
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CATALOGUE, value);
}

/** The catalogue entry of `code`, typed as the common shape (so `title`/`body` read as optional). */
export function catalogueEntry(code: ErrorCode): CatalogueEntry {
  return ERROR_CATALOGUE[code];
}

/** Messages the web client shows when a call fails without a server message (spec section 8). */
export const CLIENT_MESSAGES = {
  network: "Network error!",
  fetchFailed: "Data fetching error!",
  createFailed: "Data creating error!",
} as const;
