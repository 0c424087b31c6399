import type { Logger } from "@crafter/kit";
import type { MediaEvents } from "./events/publishers";
import type { ImageProvider } from "./providers/images";
import type { SpeechProvider } from "./providers/speech";
import type { StockSource } from "./providers/stock";
import type { ObjectStore } from "./storage/object-store";
import type { MediaStores } from "./store";

/** Credits, spent before paid work and given back when it fails (billing's Debit/Refund). */
export interface CreditsPort {
  debit(input: {
    userId: string;
    amount: number;
    reason: string;
    idempotencyKey: string;
  }): Promise<{ debitId: string }>;
  refund(debitId: string): Promise<void>;
}

/** Monthly plan counters (billing's ReserveUsage/ReleaseUsage): all or nothing, idempotent by key. */
export interface UsagePort {
  /** @throws the plan scenario's code (402) when over the limit. */
  reserve(input: {
    userId: string;
    counter: "ai_images" | "voice_minutes";
    amount: number;
    key: string;
  }): Promise<void>;
  release(input: { userId: string; counter: "ai_images" | "voice_minutes"; key: string }): Promise<void>;
}

/** What the media use cases need; built once in main.ts. */
export interface MediaDeps {
  stores: MediaStores;
  /** Builders of the events this service publishes (outbox entries). */
  events: MediaEvents;
  /** Wakes the outbox relay after a write that pushed an event. */
  kick: () => void;
  logger: Logger;
  now: () => Date;
  /** The bucket of media files. */
  objects: ObjectStore;
  /** First segment of every object key (CRAFTER_NAMESPACE): test stacks share one bucket. */
  namespace: string;
  /** Signed URLs: HMAC key and lifetime in seconds. */
  urls: { secret: string; ttlSeconds: number };
  credits: CreditsPort;
  /** Monthly plan limits (AI images, voice minutes). */
  usage: UsagePort;
  /** Credits of one generated image, and of one started minute of speech. */
  prices: { image: number; speechMinute: number };
  /** A configured image provider, or undefined (the offline composer). */
  images: ImageProvider | undefined;
  speech: SpeechProvider;
  stock: StockSource;
  /** Images copied from providers (ImportImage): host pins (INTEGRATIONS_RESOLVE) and the time limit of one fetch, in ms. */
  imports: { pins: Readonly<Record<string, string>>; timeoutMs: number };
}
