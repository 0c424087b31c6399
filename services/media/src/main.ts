import { createHmac } from "node:crypto";
import { runService } from "@crafter/kit";
import { createBillingCredits, createBillingUsage } from "./clients/billing";
import { configSchema } from "./config";
import type { MediaDeps } from "./deps";
import { expiryOf, signedUrl } from "./domain/signing";
import { mediaConsumers } from "./events/consumers";
import { MediaEvents } from "./events/publishers";
import { renderSvg } from "./imaging/compose";
import { createImageProvider } from "./providers/images";
import { createSpeechProvider } from "./providers/speech";
import { systemStock, unsplashStock } from "./providers/stock";
import { SYSTEM_IMAGES } from "./providers/system-images";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { ObjectStore } from "./storage/object-store";
import { createStores } from "./store";

await runService({
  name: "media",
  configSchema,
  async setup({ config, logger, mongo, kick, credentials }) {
    const stores = await createStores(mongo);
    const events = new MediaEvents(config.CRAFTER_NAMESPACE);
    const objects = new ObjectStore({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      bucket: config.S3_BUCKET,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
    await objects.ensureBucket();
    const secret =
      config.MEDIA_URL_SECRET ??
      (config.SERVICE_SECRET
        ? createHmac("sha256", config.SERVICE_SECRET).update("crafter-media-urls").digest("base64url")
        : undefined);
    if (!secret) throw new Error("MEDIA_URL_SECRET or SERVICE_SECRET is required (signed media URLs)");
    const urls = { secret, ttlSeconds: config.MEDIA_URL_TTL_S };
    const namespace = config.CRAFTER_NAMESPACE;

    // The system images are drawn from their SVG recipes and put in the bucket at start.
    const systemKey = (id: string) => `${namespace}/system/${id}.jpg`;
    for (const image of SYSTEM_IMAGES) await objects.put(systemKey(image.id), await renderSvg(image.svg), "image/jpeg");
    const stock = config.UNSPLASH_ACCESS_KEY
      ? unsplashStock(config.UNSPLASH_API_URL, config.UNSPLASH_ACCESS_KEY, config.PROVIDER_TIMEOUT_MS)
      : systemStock(
          (id) => {
            const url = signedUrl(secret, systemKey(id), expiryOf(new Date(), urls.ttlSeconds));
            return { url, thumbnailUrl: url };
          },
          (id, signal) => objects.getBytes(systemKey(id), signal),
        );

    const deps: MediaDeps = {
      stores,
      events,
      kick,
      logger,
      now: () => new Date(),
      objects,
      namespace,
      urls,
      credits: createBillingCredits(config.BILLING_URL, config.RPC_TIMEOUT_MS, credentials),
      usage: createBillingUsage(config.BILLING_URL, config.RPC_TIMEOUT_MS, credentials),
      prices: { image: config.IMAGE_CREDITS, speechMinute: config.SPEECH_CREDITS_PER_MINUTE },
      images: createImageProvider(config),
      speech: createSpeechProvider(config),
      stock,
      imports: { pins: config.INTEGRATIONS_RESOLVE, timeoutMs: config.INTEGRATIONS_TIMEOUT_MS },
    };
    logger.info(
      {
        images: deps.images?.name ?? "offline composer",
        speech: deps.speech.name,
        stock: config.UNSPLASH_ACCESS_KEY ? "unsplash" : "system",
      },
      "media providers",
    );
    return {
      routes: routes(deps),
      access,
      publishes: events.topics,
      outbox: stores.outbox,
      consumers: mediaConsumers(config.CRAFTER_NAMESPACE, deps),
    };
  },
});
