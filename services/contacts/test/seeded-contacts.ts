// For tests and benchmarks that write contacts straight into the contacts service's database, past
// the service (no jest here: scripts/bench bundles this module too).
import { createLogger, createRedis } from "@crafter/kit";
import { stackEnv } from "@crafter/kit/testing";
import { ContactSnapshots } from "../src/store/contact-snapshot";

/**
 * After contacts were written straight into the database of the running stack (its REDIS_URL and
 * CRAFTER_NAMESPACE, from the kit's stackEnv): drops the service's snapshot of the project, so the
 * next read rebuilds it from the database, as after a lost Redis write (src/store/contact-snapshot.ts).
 */
export async function forgetContactSnapshot(scope: { userId: string; projectId: string }): Promise<void> {
  const env = stackEnv();
  const logger = createLogger("seed", "silent");
  const redis = createRedis(env.REDIS_URL ?? "redis://127.0.0.1:6379", env.CRAFTER_NAMESPACE ?? "crafter_test", logger);
  try {
    await new ContactSnapshots(redis, logger).invalidate(scope);
  } finally {
    redis.disconnect();
  }
}
