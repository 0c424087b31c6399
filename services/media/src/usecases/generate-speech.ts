import { createHash, randomUUID } from "node:crypto";
import { appError, type Caller, isAppError } from "@crafter/kit";
import type { MediaDeps } from "../deps";
import type { Segment } from "../providers/speech";
import { type AssetView, assetView } from "./asset-view";
import { storeFile } from "./store-asset";

/** At most this many characters in one script (about 40 minutes of speech). */
export const MAX_SCRIPT_CHARS = 40_000;

/** Minutes a script will take, estimated at 150 words a minute (reserved before speaking). */
export function estimatedMinutes(segments: readonly Segment[]): number {
  const words = segments.reduce((n, s) => n + s.text.split(/\s+/).filter(Boolean).length, 0);
  return Math.max(1, Math.ceil(words / 150));
}

/** A UUID-shaped id derived from the user and the work's key: a retry stores into the same asset. */
export function keyedId(userId: string, key: string): string {
  const h = createHash("sha256").update(`${userId}\n${key}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * Speaks the whole script (every segment, one voice per speaker) into an MP3 audio asset of the
 * named user. Reserves the voice minutes (plan limit) and debits the credits first, giving both back
 * when speaking fails. The same `key` returns the same asset.
 * @throws CR_ERR_BAD_REQUEST, NOT_ENOUGH_CREDITS, the plan's voice-minutes scenario, MEDIA_PROVIDER_FAILED.
 */
export async function generateSpeech(
  deps: MediaDeps,
  _caller: Caller,
  input: { userId: string; segments: Segment[]; name: string; projectId: string; key: string },
): Promise<AssetView> {
  const segments = input.segments
    .map((s) => ({ speaker: s.speaker.trim() || "Host", text: s.text.trim() }))
    .filter((s) => s.text.length > 0);
  const chars = segments.reduce((n, s) => n + s.text.length, 0);
  if (!input.userId) throw appError("CR_ERR_BAD_REQUEST", "userId is required.", { userId: "Required" });
  if (segments.length === 0 || chars > MAX_SCRIPT_CHARS) {
    throw appError("CR_ERR_BAD_REQUEST", `A script of 1 to ${MAX_SCRIPT_CHARS} characters is required.`, {
      segments: "Empty or too long",
    });
  }
  const key = `speech:${input.key || createHash("sha256").update(JSON.stringify(segments)).digest("hex")}`;
  const id = keyedId(input.userId, key);
  const done = await deps.stores.assets.findById(input.userId, id);
  if (done) return assetView(deps, done);

  const minutes = estimatedMinutes(segments);
  // Each attempt reserves and debits anew: billing answers a repeated key with its first debit, so
  // a retry after a refunded failure under the same key would be spoken for free.
  const attempt = `${key}:${randomUUID()}`;
  await deps.usage.reserve({ userId: input.userId, counter: "voice_minutes", amount: minutes, key: attempt });
  let debitId: string | undefined;
  try {
    debitId = (
      await deps.credits.debit({
        userId: input.userId,
        amount: deps.prices.speechMinute * minutes,
        reason: "media:speech",
        idempotencyKey: attempt,
      })
    ).debitId;
    const speech = await deps.speech.speak(segments, AbortSignal.timeout(10 * 60_000)).catch((err: unknown) => {
      deps.logger.warn({ err, provider: deps.speech.name }, "speech failed");
      throw appError("MEDIA_PROVIDER_FAILED");
    });
    const asset = await storeFile(
      deps,
      {
        id,
        userId: input.userId,
        projectId: input.projectId,
        source: "AI",
        name: input.name.trim().slice(0, 200) || "Podcast",
        type: "audio",
        mime: "audio/mpeg",
        ext: "mp3",
        durationMs: speech.durationMs,
        label: deps.speech.name === "offline" ? "spoken by espeak-ng" : `spoken by ${deps.speech.name}`,
      },
      { bytes: speech.bytes },
    );
    return assetView(deps, asset);
  } catch (error) {
    if (debitId)
      await deps.credits.refund(debitId).catch((err) => deps.logger.error({ err, debitId }, "refund failed"));
    await deps.usage
      ?.release({ userId: input.userId, counter: "voice_minutes", key: attempt })
      .catch((err) => deps.logger.error({ err, key: attempt }, "usage release failed"));
    throw isAppError(error) ? error : appError("MEDIA_PROVIDER_FAILED");
  }
}
