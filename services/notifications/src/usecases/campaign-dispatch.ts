import { isAppError } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import { isReleased, releasesOf } from "../domain/campaign-release";
import { chooseWinner, variantOf } from "../domain/campaign-rules";
import { pausesSending, SENDGRID_PAUSED, SendingPausedError } from "../mail/providers";
import type { StoredCampaign } from "../store/campaigns.repository";
import { type DeliveryDoc, type FactDoc, FINAL_FACTS, type NewDelivery } from "../store/email.repository";
import { emptyTimings, rounded, sendFresh } from "./campaign-batch";
import { type DeliveryContent, routeOf, runDelivery, type SendRoute } from "./email-delivery";

type Deps = Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now">;

/** Emails reserved at billing at once (one key per chunk of a campaign's deliveries). */
const RESERVE_CHUNK = 50;

/**
 * The dispatch scan: scheduled campaigns that are due start sending. Every state it needs is in
 * the database (the campaign's status, its deliveries and their facts), so a restarted process, or
 * another replica, resumes where the last one stopped: deliveries with an outcome are never sent
 * again. @returns the ids of the campaigns sending now (each gets a round on the job queue).
 */
export async function campaignsToDispatch(deps: Pick<Deps, "stores" | "now">): Promise<string[]> {
  const { campaigns } = deps.stores;
  const now = deps.now();
  for (const due of await campaigns.inStatus("scheduled")) {
    const start = due.startsAt ?? due.scheduledAt;
    if (start && new Date(start).getTime() <= now.getTime())
      await campaigns.transition(due._id, ["scheduled"], { status: "sending", sentAt: now }, now);
  }
  return (await campaigns.inStatus("sending")).map((campaign) => campaign._id);
}

/**
 * The segment's subscribed contacts become the campaign's deliveries (once; resuming adds nobody
 * twice), each with its release instant when the campaign goes at each contact's local time.
 */
async function materialize(deps: Deps, campaign: StoredCampaign): Promise<StoredCampaign> {
  const share = campaign.abTest ? campaign.abTest.share : null;
  const now = deps.now();
  const seen = new Set<string>();
  const releaseOf =
    campaign.sendTimeBy === "contact" && campaign.scheduledAt
      ? releasesOf(new Date(campaign.scheduledAt), campaign.timeZone)
      : null;
  for await (const page of deps.email.contacts.subscribedMembers(
    campaign.userId,
    campaign.projectId,
    campaign.segmentId,
  )) {
    const fresh = page.filter((c) => c.email && !seen.has(c.contactId));
    for (const contact of fresh) seen.add(contact.contactId);
    const deliveries: NewDelivery[] = fresh.map((contact) => ({
      key: `campaign:${campaign._id}:${contact.contactId}`,
      userId: campaign.userId,
      projectId: campaign.projectId,
      campaignId: campaign._id,
      automationId: "",
      contactId: contact.contactId,
      email: contact.email,
      firstName: contact.firstName,
      lastName: contact.lastName,
      variant: variantOf(campaign._id, contact.contactId, share),
      subject: "",
      preheader: "",
      html: "",
      ...(releaseOf ? { releaseAt: releaseOf(contact.timeZone) } : {}),
    }));
    await deps.stores.email.recordDeliveries(deliveries, now);
  }
  const recipients = await deps.stores.email.countDeliveries(campaign._id);
  return (
    (await deps.stores.campaigns.transition(campaign._id, ["sending"], { materialized: true, recipients }, now)) ?? {
      ...campaign,
      materialized: true,
      recipients,
    }
  );
}

function subjectFor(campaign: StoredCampaign, variant: DeliveryDoc["variant"]): string {
  if (!campaign.abTest) return campaign.subject;
  if (variant === "b") return campaign.abTest.subjectB;
  if (variant === "a") return campaign.subject;
  return campaign.abTest.winner === "b" ? campaign.abTest.subjectB : campaign.subject;
}

/** Decides an A/B test once its test share has had `winnerAfterMinutes`; null while it is too early. */
async function decideWinner(
  deps: Deps,
  campaign: StoredCampaign,
  deliveries: DeliveryDoc[],
  facts: Map<string, FactDoc[]>,
): Promise<"a" | "b" | null> {
  const ab = campaign.abTest;
  if (!ab) return null;
  if (ab.winner) return ab.winner;
  const test = deliveries.filter((d) => d.variant !== "main");
  const allDone = test.every((d) => (facts.get(d._id) ?? []).some((f) => FINAL_FACTS.includes(f.kind)));
  const since = campaign.sentAt ? new Date(campaign.sentAt).getTime() : 0;
  if (!allDone || deps.now().getTime() - since < ab.winnerAfterMinutes * 60_000) return null;
  const tally = (variant: "a" | "b") => {
    const mine = test.filter((d) => d.variant === variant);
    const has = (d: DeliveryDoc, kind: FactDoc["kind"]) => (facts.get(d._id) ?? []).some((f) => f.kind === kind);
    return {
      sent: mine.filter((d) => has(d, "sent")).length,
      opened: mine.filter((d) => has(d, "opened")).length,
      clicked: mine.filter((d) => has(d, "clicked")).length,
    };
  };
  const winner = chooseWinner(tally("a"), tally("b"));
  await deps.stores.campaigns.transition(campaign._id, ["sending"], { abTest: { ...ab, winner } }, deps.now());
  return winner;
}

/** Which share of a campaign's deliveries a round sends: those whose reservation chunk is `index` modulo `of`. */
export interface CampaignPart {
  index: number;
  of: number;
}

/**
 * One round of a sending campaign, or of one part of it (the parts of a campaign run as separate
 * jobs, so several replicas share a large campaign): materialize its recipients (part 0 only; the
 * other parts wait for it), then send every delivery of the part without an outcome (A/B test
 * share first, the rest once the winner is chosen), `concurrency` at a time. Stops when the
 * campaign is paused, the plan limit refuses (the campaign then waits, visibly), or the process
 * stops; finishes the campaign (CampaignFinished) when every recipient has an outcome.
 */
export async function dispatchCampaign(
  deps: Deps,
  campaignId: string,
  stopping: () => boolean = () => false,
  part: CampaignPart = { index: 0, of: 1 },
): Promise<void> {
  let campaign = await deps.stores.campaigns.byId(campaignId);
  if (campaign?.status !== "sending") return;
  if (!campaign.materialized && part.index !== 0) return;
  const now = deps.now();
  if (campaign.waiting && campaign.waitingCheckedAt)
    if (now.getTime() - new Date(campaign.waitingCheckedAt).getTime() < deps.email.limitRetryMs) return;
  const resumed = campaign.materialized;
  if (!campaign.materialized) campaign = await materialize(deps, campaign);
  // At each contact's local time most rounds find nobody newly released: two counts, not every delivery.
  if (resumed && campaign.sendTimeBy === "contact") {
    const [released, done] = await Promise.all([
      deps.stores.email.countReleased(campaign._id, now),
      deps.stores.email.countFinal(campaign._id),
    ]);
    if (done >= released && released < campaign.recipients) return;
  }

  const [deliveries, facts] = await Promise.all([
    deps.stores.email.campaignDeliveries(campaign._id),
    deps.stores.email.campaignFacts(campaign._id, [...FINAL_FACTS, "attempt", "held", "opened", "clicked"]),
  ]);
  const byDelivery = new Map<string, FactDoc[]>();
  for (const fact of facts) byDelivery.get(fact.deliveryId)?.push(fact) ?? byDelivery.set(fact.deliveryId, [fact]);
  const isFinal = (d: DeliveryDoc) => (byDelivery.get(d._id) ?? []).some((f) => FINAL_FACTS.includes(f.kind));
  // Deliveries whose release instant (each contact's local time) has not come wait for a later round.
  let pending = deliveries.filter((d) => !isFinal(d) && isReleased(d, now));
  // A campaign that goes on after a pause, a wait or a restart asks again who is still subscribed:
  // whoever unsubscribed, bounced or complained since the start is skipped, not sent to.
  if (resumed && pending.length > 0) {
    const subscribed = new Set<string>();
    for await (const page of deps.email.contacts.subscribedMembers(
      campaign.userId,
      campaign.projectId,
      campaign.segmentId,
    ))
      for (const contact of page) subscribed.add(contact.contactId);
    const gone = pending.filter((d) => !subscribed.has(d.contactId));
    for (const d of gone)
      await deps.stores.email.addFact(
        { deliveryId: d._id, campaignId: campaign._id, kind: "skipped", detail: "not_subscribed" },
        deps.now(),
      );
    pending = pending.filter((d) => subscribed.has(d.contactId));
  }

  const winner = await decideWinner(deps, campaign, deliveries, byDelivery);
  if (winner && campaign.abTest) campaign = { ...campaign, abTest: { ...campaign.abTest, winner } };
  const ready = pending.filter((d) => !campaign.abTest || d.variant !== "main" || winner !== null);

  const content = (d: DeliveryDoc): DeliveryContent => ({
    subject: subjectFor(campaign, d.variant),
    preheader: campaign.preheader,
    html: campaign.html,
    business: campaign.business,
    utmCampaign: campaign.name,
  });

  // The `emails` counter is reserved per chunk of the campaign's deliveries (fixed by delivery id, so
  // a resumed campaign reserves the same keys again, which counts nothing twice): billing serialises
  // each user's reservations, one per email would cap a campaign at billing's pace. A chunk that
  // does not fit any more is reserved email by email, up to the limit.
  const order = new Map([...deliveries].sort((a, b) => a._id.localeCompare(b._id)).map((d, i) => [d._id, i]));
  const chunkOf = (d: DeliveryDoc) => Math.floor((order.get(d._id) ?? 0) / RESERVE_CHUNK);
  const chunkSize = (chunk: number) => Math.min(RESERVE_CHUNK, deliveries.length - chunk * RESERVE_CHUNK);
  const chunks = new Map<number, Promise<"chunk" | "each">>();
  const reserveChunk = (chunk: number) => {
    let pendingReservation = chunks.get(chunk);
    if (!pendingReservation) {
      pendingReservation = deps.email.usage
        .reserveMany(campaign.userId, `campaign:${campaign._id}:chunk:${chunk}`, chunkSize(chunk))
        .then(
          () => "chunk" as const,
          (error: unknown) => {
            if (isAppError(error) && error.status === 402) return "each" as const;
            throw error;
          },
        );
      chunks.set(chunk, pendingReservation);
    }
    return pendingReservation;
  };
  const mine = ready.filter((d) => chunkOf(d) % part.of === part.index);
  mine.sort((a, b) => (order.get(a._id) ?? 0) - (order.get(b._id) ?? 0));

  let route: SendRoute;
  try {
    route = await routeOf(deps, campaign.userId, campaign.projectId, campaign.business.name);
  } catch (error) {
    if (!pausesSending(error)) throw error;
    await waitForProvider(deps, campaign, error instanceof SendingPausedError ? error.code : SENDGRID_PAUSED);
    return;
  }
  const timings = emptyTimings();
  const tried = (d: DeliveryDoc) => (byDelivery.get(d._id) ?? []).some((f) => f.kind === "attempt");
  let halted: "paused" | "limit" | "provider" | "error" | null = null;
  let pausedCode = "";
  let limitCode = "";
  let next = 0;
  let sinceCheck = 0;
  const worker = async () => {
    while (!halted && !stopping() && next < mine.length) {
      const delivery = mine[next++]!;
      if (++sinceCheck >= 50) {
        sinceCheck = 0;
        const fresh = await deps.stores.campaigns.byId(campaign._id);
        if (fresh?.status !== "sending") {
          halted = "paused";
          return;
        }
      }
      if ((await reserveChunk(chunkOf(delivery))) === "each") {
        try {
          await deps.email.usage.reserve(delivery.userId, delivery._id);
        } catch (error) {
          if (isAppError(error) && error.status === 402) {
            halted = "limit";
            limitCode = error.code;
            return;
          }
          throw error;
        }
      }
      // An attempt left by a worker that died is taken over one by one (facts read again, the
      // lease waited for, `resent` recorded); the others are claimed and sent at once.
      const outcome = tried(delivery)
        ? await runDelivery(deps, delivery, content(delivery), byDelivery.get(delivery._id) ?? [])
        : await sendFresh(deps, delivery, content(delivery), route, timings);
      // The business's own provider refused its key: the round stops, the rest waits.
      if (outcome === "paused") {
        halted = "provider";
        pausedCode = SENDGRID_PAUSED;
        return;
      }
    }
  };
  // A worker that fails (a peer briefly away) stops the round; the next round goes on from the facts.
  const guarded = () =>
    worker().catch((error: unknown) => {
      halted = "error";
      deps.logger.warn({ err: error, campaignId: campaign._id }, "campaign round stopped; the next one resumes");
    });
  // Twice as many lanes as hand-off slots: while some lanes hand messages over, others compose the
  // next ones (links from the contacts service) and wait for the pace.
  const started = performance.now();
  await Promise.all(Array.from({ length: 2 * Math.max(1, deps.email.concurrency) }, guarded));
  if (mine.length > 0)
    deps.logger.info(
      {
        campaignId: campaign._id,
        part: `${part.index + 1}/${part.of}`,
        deliveries: mine.length,
        ...rounded(timings),
        ms: Math.round(performance.now() - started),
      },
      "campaign round",
    );

  if (halted === "provider") {
    await waitForProvider(deps, campaign, pausedCode);
    return;
  }
  if (halted === "limit") {
    await deps.stores.campaigns.transition(
      campaign._id,
      ["sending"],
      { waiting: { reason: "limit", code: limitCode }, waitingCheckedAt: deps.now() },
      deps.now(),
    );
    return;
  }
  if (campaign.waiting)
    await deps.stores.campaigns.transition(
      campaign._id,
      ["sending"],
      { waiting: null, waitingCheckedAt: null },
      deps.now(),
    );
  if (halted || stopping()) return;
  await finishIfDone(deps, campaign);
}

/**
 * A campaign whose business's own provider needs reconnecting waits, visibly (`waiting.reason`
 * provider): its deliveries stay queued and the next rounds (every limitRetryMs) look again.
 */
async function waitForProvider(deps: Deps, campaign: StoredCampaign, code: string): Promise<void> {
  await deps.stores.campaigns.transition(
    campaign._id,
    ["sending"],
    { waiting: { reason: "provider", code }, waitingCheckedAt: deps.now() },
    deps.now(),
  );
}

/** Marks the campaign sent, with CampaignFinished, once every delivery has an outcome. */
async function finishIfDone(deps: Deps, campaign: StoredCampaign): Promise<void> {
  const counts = await deps.stores.email.countFacts(campaign._id);
  const done = (counts.sent ?? 0) + (counts.failed ?? 0) + (counts.skipped ?? 0);
  if (done < campaign.recipients) return;
  const sent = counts.sent ?? 0;
  const event = deps.email.events.campaignFinished({
    userId: campaign.userId,
    projectId: campaign.projectId,
    campaignId: campaign._id,
    name: campaign.name,
    sent,
    failed: counts.failed ?? 0,
    skipped: counts.skipped ?? 0,
  });
  const status = campaign.recipients > 0 && sent === 0 ? "failed" : "sent";
  const finished = await deps.stores.campaigns.transition(
    campaign._id,
    ["sending"],
    { status, finishedAt: deps.now(), waiting: null },
    deps.now(),
    event,
  );
  if (finished) deps.email.kick();
}
