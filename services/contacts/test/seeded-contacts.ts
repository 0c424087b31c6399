// For tests and benchmarks that write contacts straight into the contacts service's database, past
// the service (no jest here: scripts/bench bundles this module too).
import { createLogger, createRedis } from "@crafter/kit";
import { stackEnv } from "@crafter/kit/testing";
import { type ContactFields, emptyContactFields } from "../src/domain/contact";
import type { ConsentStatus } from "../src/domain/fields";
import type { ContactDoc } from "../src/store/contact.repository";
import { ContactSnapshots } from "../src/store/contact-snapshot";
import { newContactDoc } from "../src/usecases/contacts";

/**
 * One contact in the contacts service's stored shape, built by the service's own `newContactDoc`
 * (search tokens and facets included), for seeding tens of thousands of contacts straight into its
 * database, where the API's plan limit would stop a free user at 250. Subscribed unless said otherwise.
 */
export function contactDocument(
  scope: { userId: string; projectId: string },
  fields: Partial<ContactFields> & { email: string; consent?: ConsentStatus },
  at = new Date(),
): ContactDoc {
  const { consent = "subscribed", ...rest } = fields;
  const checked: ContactFields = { ...emptyContactFields(), customerSince: at, ...rest };
  return { ...newContactDoc(scope, checked, "import", consent, at, []), outbox: [] };
}

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
