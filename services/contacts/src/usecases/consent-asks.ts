import { createHash } from "node:crypto";
import { appError, type Caller } from "@crafter/kit";
import type { ContactsDeps } from "../deps";
import { askId, askWindow, recentlyAsked } from "../domain/consent";
import { CONFIRM_TTL_S, confirmLink, signLinkToken } from "../domain/links";
import type { ConsentAskRunDoc, StoredConsentAsk } from "../store/consent-ask.repository";
import type { Scope, StoredContact } from "../store/contact.repository";
import { preferencesOf } from "./leads";
import { scopeOf } from "./scope";
import { queryContacts } from "./segments";

type Deps = Pick<ContactsDeps, "stores" | "events" | "kick" | "now" | "links" | "logger" | "paceConsentAsk">;

/** Whose pending contacts: a saved segment, else a condition tree, else the whole project. */
export interface AskTarget {
  projectId: string;
  segmentId?: string;
  tree?: unknown;
}

/** The target's pending contacts, and those of them asked within the last 30 days. */
async function pendingOf(deps: Deps, scope: Scope, target: AskTarget, now: Date) {
  const segmentId = target.segmentId ?? "";
  const pending = await queryContacts(deps, scope, {
    consent: "pending",
    ...(segmentId ? { segmentId } : target.tree ? { tree: target.tree } : {}),
  });
  const window = askWindow(now);
  const recent = recentlyAsked(await deps.stores.consentAsks.inWindows(scope, [window - 1, window]), now);
  return {
    window,
    eligible: pending.filter((c) => !recent.has(c._id)),
    recentlyAsked: pending.filter((c) => recent.has(c._id)).length,
    pending: pending.length,
  };
}

/**
 * What "Ask for permission" would do now: the target's pending contacts, who would get the double
 * opt-in email, and who is skipped (asked within 30 days). Nothing is written.
 * @throws NOT_FOUND (segment), CR_ERR_BAD_REQUEST (tree).
 */
export async function previewConsentAsk(
  deps: Deps,
  caller: Caller,
  target: AskTarget,
): Promise<{ pending: number; eligible: number; recentlyAsked: number }> {
  const scope = scopeOf(caller, target.projectId);
  const { pending, eligible, recentlyAsked } = await pendingOf(deps, scope, target, deps.now());
  return { pending, eligible: eligible.length, recentlyAsked };
}

/**
 * Starts "Ask for permission": records the run and, in the background, one ask per eligible
 * contact (at most one per contact per 30 days: the ask's key, whoever inserts it), each carrying
 * the double opt-in email's event (ContactConsentRequested, the same email and `/confirm` link as
 * the lead form's), paced across replicas by `paceConsentAsk`. @returns the run as started.
 */
export async function startConsentAsk(deps: Deps, caller: Caller, target: AskTarget): Promise<ConsentAskRunDoc> {
  const scope = scopeOf(caller, target.projectId);
  const now = deps.now();
  const { window, eligible, recentlyAsked } = await pendingOf(deps, scope, target, now);
  const segmentId = target.segmentId ?? "";
  const run = await deps.stores.consentAsks.startRun({
    _id: crypto.randomUUID(),
    ...scope,
    segmentId,
    ...(segmentId === "" && target.tree ? { tree: target.tree } : {}),
    window,
    running: eligible.length > 0,
    total: eligible.length,
    sent: 0,
    skipped: recentlyAsked,
    startedAt: now,
    ...(eligible.length === 0 ? { finishedAt: now } : {}),
  });
  if (eligible.length > 0) {
    void askAll(deps, scope, run, eligible).catch((err) =>
      deps.logger.error({ err, runId: run._id }, "asking for permission stopped"),
    );
  }
  return run;
}

/**
 * Goes on with the runs a stopped process left running: their target's pending contacts not yet
 * asked in the run's window (each contact's key makes asking again impossible, so a run resumed
 * by two processes still sends one email a contact).
 */
export async function resumeConsentAsks(deps: Deps): Promise<void> {
  for (const run of await deps.stores.consentAsks.running()) {
    const scope = { userId: run.userId, projectId: run.projectId };
    deps.logger.info({ runId: run._id }, "resuming a request for permission");
    try {
      const target = { projectId: run.projectId, segmentId: run.segmentId, tree: run.tree };
      const pending = await queryContacts(deps, scope, {
        consent: "pending",
        ...(run.segmentId ? { segmentId: run.segmentId } : run.tree ? { tree: target.tree } : {}),
      });
      await queueClaimed(deps, scope, run);
      const asked = new Set((await deps.stores.consentAsks.inWindows(scope, [run.window])).map((ask) => ask.contactId));
      await askAll(
        deps,
        scope,
        run,
        pending.filter((c) => !asked.has(c._id)),
      );
    } catch (err) {
      // A segment deleted since, or a tree no longer valid: the run ends with what it sent.
      deps.logger.warn({ err, runId: run._id }, "a request for permission could not go on");
      await deps.stores.consentAsks.progress(run._id, { skipped: run.skipped, finishedAt: deps.now() });
    }
  }
}

/** How often a run writes its progress (and once at the end). */
const PROGRESS_EVERY = 10;

async function askAll(
  deps: Deps,
  scope: Scope,
  run: ConsentAskRunDoc,
  contacts: readonly StoredContact[],
): Promise<void> {
  let skipped = run.skipped;
  for (const [i, listed] of contacts.entries()) {
    await deps.paceConsentAsk(scope.userId);
    // Confirmed, unsubscribed or deleted since the run began: not asked.
    const contact = await deps.stores.contacts.get(scope, listed._id);
    if (!(contact?.consent === "pending" && (await askOne(deps, contact, run._id, run.window)))) skipped++;
    if ((i + 1) % PROGRESS_EVERY === 0) await deps.stores.consentAsks.progress(run._id, { skipped });
  }
  await deps.stores.consentAsks.progress(run._id, { skipped, finishedAt: deps.now() });
}

/** @returns false when the contact was already asked in this window (another run won the key). */
async function askOne(deps: Deps, contact: StoredContact, runId: string, window: number): Promise<boolean> {
  const ask = {
    _id: askId(contact._id, window),
    userId: contact.userId,
    projectId: contact.projectId,
    contactId: contact._id,
    email: contact.email,
    runId,
    window,
    at: deps.now(),
  };
  if (!(await deps.stores.consentAsks.add(ask))) return false;
  return queueAsk(deps, contact, ask);
}

/**
 * Queues the email of a claimed ask. Two runs started on either side of a window boundary claim
 * different keys: each then looks at the neighbouring windows and sends only when neither holds an
 * ask within 30 days. The second to look sees the first; if both look at once, neither sends. The
 * event's id is derived from the ask's, so queueing it again (a resumed run) still sends one email
 * (notifications delivers once per event id).
 * @returns false when a neighbouring ask holds it back.
 */
async function queueAsk(deps: Deps, contact: StoredContact, ask: Omit<StoredConsentAsk, "queued">): Promise<boolean> {
  const neighbours = await deps.stores.consentAsks.byIds([
    askId(contact._id, ask.window - 1),
    askId(contact._id, ask.window + 1),
  ]);
  if (recentlyAsked(neighbours, new Date(ask.at)).size > 0) return false;
  const token = signLinkToken(deps.links.secret, {
    kind: "confirm",
    submissionId: ask._id,
    exp: Math.floor(deps.now().getTime() / 1000) + CONFIRM_TTL_S,
  });
  const ref = { userId: ask.userId, projectId: ask.projectId, contactId: ask.contactId, email: ask.email };
  const event = deps.events.consentRequested(
    ref,
    contact.firstName,
    { confirmUrl: confirmLink(deps.links.origin, token), preferencesUrl: preferencesOf(deps, contact) },
    "",
  );
  await deps.stores.consentAsks.queue(ask._id, { ...event, id: askEventId(ask._id) });
  deps.kick();
  return true;
}

/** A UUID derived from the ask's id: its ContactConsentRequested's id, the same however often queued. */
function askEventId(id: string): string {
  const hex = createHash("sha256").update(`consent-ask:${id}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The asks of a run a stopped process claimed but did not queue: queued now, for contacts still pending. */
async function queueClaimed(deps: Deps, scope: Scope, run: ConsentAskRunDoc): Promise<void> {
  for (const ask of await deps.stores.consentAsks.ofRun(run._id)) {
    if (ask.queued) continue;
    const contact = await deps.stores.contacts.get(scope, ask.contactId);
    if (contact?.consent === "pending") await queueAsk(deps, contact, ask);
  }
}

/** A run of the caller's project. @throws NOT_FOUND */
export async function getConsentAsk(
  deps: Pick<Deps, "stores">,
  caller: Caller,
  input: { projectId: string; runId: string },
): Promise<ConsentAskRunDoc> {
  const scope = scopeOf(caller, input.projectId);
  const run = input.runId.length <= 64 ? await deps.stores.consentAsks.run(scope, input.runId) : null;
  if (!run) throw appError("NOT_FOUND", "No such request for permission.");
  return run;
}
