import type { ProviderHttp } from "@crafter/kit";
import type { ChannelAdapter } from "../../domain/social-channels";
import { metaAdapter } from "./meta";
import { TIKTOK_API, tiktokAdapter } from "./tiktok";

/** What an adapter is built from: provider calls (reads retried, publishing calls made once) and base URLs. */
export interface AdapterSettings {
  reads: ProviderHttp;
  writes: ProviderHttp;
  /** Each provider's API origin, by provider (a test's local server replaces the real one). */
  baseUrls: Readonly<Partial<Record<ChannelAdapter["provider"], string>>>;
}

/**
 * Every provider's publishing adapter, by provider: one line each. The engine finds a channel's
 * adapter here by its kind's provider (CHANNEL_PROVIDER).
 */
const ADAPTERS: Partial<Record<ChannelAdapter["provider"], (settings: AdapterSettings) => ChannelAdapter>> = {
  meta: (s) =>
    metaAdapter({ reads: s.reads, writes: s.writes, baseUrl: s.baseUrls.meta ?? "https://graph.facebook.com" }),
  tiktok: (s) => tiktokAdapter({ reads: s.reads, writes: s.writes, baseUrl: s.baseUrls.tiktok ?? TIKTOK_API }),
};

/** The adapters this server runs, by provider. */
export function socialAdapters(settings: AdapterSettings): ReadonlyMap<ChannelAdapter["provider"], ChannelAdapter> {
  const out = new Map<ChannelAdapter["provider"], ChannelAdapter>();
  for (const [provider, make] of Object.entries(ADAPTERS)) {
    if (make) out.set(provider as ChannelAdapter["provider"], make(settings));
  }
  return out;
}
