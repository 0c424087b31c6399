// A lead-form submission under a crash, on the real FerretDB, Redis and billing (the test stack's):
// the process dies after each of its writes in turn (the use case's stores throw after the n-th
// write has landed, as a `kill -9` right after it would leave them), then either the visitor retries
// with the same Idempotency-Key or nobody does and the sweep runs. Every time the end is the same:
// one submission, one "form" interaction, one contact as the rules say (a new one pending with one
// consent change; an existing one with only its empty fields filled), and the double opt-in asked
// once, only where consent is not given.
import { createLogger, createRedis } from "@crafter/kit";
import { stackEnv, stackServiceCredentials, throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { createBillingPlans } from "../src/clients/plans";
import type { ContactsDeps } from "../src/deps";
import { DEFAULT_LEAD_FORM } from "../src/domain/lead-form";
import { ContactsEvents } from "../src/events/publishers";
import { type ContactsStores, createStores } from "../src/store";
import type { LeadFormDoc } from "../src/store/lead.repository";
import { settleUnsettled, submitLeadForm } from "../src/usecases/leads";

jest.setTimeout(120_000);

const env = stackEnv();
const logger = createLogger("lead-crash-test", "silent");
const run = Date.now();
const scope = { userId: `lead-crash-user-${run}`, projectId: `lead-crash-project-${run}` };
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let redis: ReturnType<typeof createRedis>;
let stores: ContactsStores;
let form: LeadFormDoc;

class Crash extends Error {}

/** The writes a submission makes, by store and method. */
const WRITES: Record<string, string[]> = {
  leads: ["receive", "settle", "addSubmission"],
  contacts: ["insert", "update"],
  timeline: ["appendConsent", "appendConsents", "appendInteraction"],
};

/**
 * The stores, dying right after their `crashAfter`-th write (0: never). @returns them and how many
 * writes were made.
 */
function crashingStores(crashAfter: number): { stores: ContactsStores; writes: () => number } {
  let writes = 0;
  const wrap = <T extends object>(target: T, methods: string[]): T =>
    new Proxy(target, {
      get(object, name, receiver) {
        const value = Reflect.get(object, name, receiver);
        if (typeof value !== "function" || !methods.includes(String(name))) return value;
        return async (...args: unknown[]) => {
          const result = await value.apply(object, args);
          writes++;
          if (writes === crashAfter) throw new Crash(`killed after write ${writes} (${String(name)})`);
          return result;
        };
      },
    });
  const wrapped = { ...stores } as ContactsStores;
  for (const [store, methods] of Object.entries(WRITES)) {
    const key = store as keyof ContactsStores;
    (wrapped as unknown as Record<string, unknown>)[key] = wrap(stores[key] as object, methods);
  }
  return { stores: wrapped, writes: () => writes };
}

function depsWith(withStores: ContactsStores): ContactsDeps {
  return {
    stores: withStores,
    events: new ContactsEvents(env.CRAFTER_NAMESPACE ?? "crafter_test"),
    plans: createBillingPlans(env.BILLING_URL!, 20_000, stackServiceCredentials("contacts")),
    links: { secret: "lead-crash-test-secret", origin: "http://crafter.test" },
    paceConsentAsk: async () => 0,
    kick: () => {},
    enqueueImport: async () => {},
    // No store is connected in this test.
    shopify: {
      grant: async () => null,
      query: async () => {
        throw new Error("no Shopify store in this test");
      },
      report: async () => {},
    },
    logger,
    now: () => new Date(),
  };
}

/** What one email's submission left: its submissions, contacts, "form" interactions and consent changes. */
async function outcome(email: string) {
  const submissions = await stores.leads.submissions.find({ formId: form._id, email }).lean();
  const contacts = await stores.contacts.model.find({ ...scope, email }).lean();
  const contactId = contacts[0]?._id ?? "";
  const interactions = await stores.timeline.interactions.find({ ...scope, contactId, type: "form" }).lean();
  const consents = await stores.timeline.consent.find({ ...scope, contactId }).lean();
  return { submissions, contacts, interactions, consents };
}

const submit = (deps: ContactsDeps, email: string, key: string) =>
  submitLeadForm(deps, {
    formId: form._id,
    values: { email, firstName: "Mallory", company: "Evil Corp" },
    submissionKey: key,
  });

beforeAll(async () => {
  database = await throwawayDatabase("lead_crash");
  redis = createRedis(env.REDIS_URL ?? "redis://127.0.0.1:6379", `lead-crash-${run}`, logger);
  stores = await createStores(database.connection, redis, logger);
  const made = await stores.leads.formOf(scope, DEFAULT_LEAD_FORM, new Date());
  form = (await stores.leads.save(
    made._id,
    {
      ...DEFAULT_LEAD_FORM,
      title: "Crash club",
      fields: [
        ...DEFAULT_LEAD_FORM.fields,
        { key: "company", label: "Company", type: "text", required: false, options: [] },
      ],
    },
    new Date(),
  ))!;
});

afterAll(async () => {
  await database.drop();
  redis.disconnect();
});

/** Crashes after each write in turn (until a run makes fewer writes than that), recovering with `recover`. */
async function everyCrashPoint(
  name: string,
  setup: (email: string) => Promise<void>,
  recover: (email: string, key: string, crashAfter: number) => Promise<void>,
  check: (email: string, seen: Awaited<ReturnType<typeof outcome>>) => void,
): Promise<number> {
  let points = 0;
  for (let crashAfter = 1; ; crashAfter++) {
    const email = `${name}-${crashAfter}-${run}@crash.test`;
    const key = `key-${name}-${crashAfter}`;
    await setup(email);
    const crashing = crashingStores(crashAfter);
    const first = await submit(depsWith(crashing.stores), email, key).then(
      () => "answered",
      (error: unknown) => {
        if (!(error instanceof Crash)) throw error;
        return "killed";
      },
    );
    if (first === "answered") break;
    points++;
    await recover(email, key, crashAfter);
    check(email, await outcome(email));
  }
  return points;
}

function newContactOnce(email: string, seen: Awaited<ReturnType<typeof outcome>>) {
  expect({ email, submissions: seen.submissions.length, contacts: seen.contacts.length }).toEqual({
    email,
    submissions: 1,
    contacts: 1,
  });
  const [submission] = seen.submissions;
  const [contact] = seen.contacts;
  expect(submission).toMatchObject({ status: "pending", contactId: contact!._id });
  // The double opt-in's ContactConsentRequested, once.
  expect(submission!.outbox.map((e) => e.type)).toEqual(["crafter.events.v1.ContactConsentRequested"]);
  expect(contact).toMatchObject({
    firstName: "Mallory",
    company: "Evil Corp",
    consent: "pending",
    source: "lead form",
  });
  expect(contact!.outbox.map((e) => e.type)).toEqual(["crafter.events.v1.ContactCreated"]);
  expect(seen.interactions).toHaveLength(1);
  expect(contact).toMatchObject({ interactionCount: 1, interactionCounts: { form: 1 } });
  expect(seen.consents.map((c) => c.status)).toEqual(["pending"]);
}

describe("a lead-form submission killed after any of its writes", () => {
  it("a new visitor's retry with the same key completes the one submission", async () => {
    const deps = depsWith(stores);
    const points = await everyCrashPoint(
      "retry",
      async () => {},
      async (email, key) => {
        await submit(deps, email, key);
      },
      newContactOnce,
    );
    // receive, insert, consent change, interaction, the contact's interaction count, settle.
    expect(points).toBe(6);
  });

  it("with no retry, the sweep settles what the crash left", async () => {
    const deps = depsWith(stores);
    const points = await everyCrashPoint(
      "sweep",
      async () => {},
      async () => {
        await settleUnsettled(deps, 0);
      },
      newContactOnce,
    );
    expect(points).toBe(6);
  });

  it("an existing subscribed contact keeps its fields, gets its empty ones filled, and is asked nothing", async () => {
    const deps = depsWith(stores);
    const points = await everyCrashPoint(
      "known",
      async (email) => {
        const now = new Date();
        await stores.contacts.model.create({
          ...scope,
          email,
          firstName: "Ada",
          tags: ["vip"],
          source: "manual",
          consent: "subscribed",
          updatedOn: now,
          createdAt: now,
          outbox: [],
        });
      },
      async (email, key, crashAfter) => {
        // Half the crash points retried, half swept: both end the same.
        if (crashAfter % 2 === 0) await submit(deps, email, key);
        else await settleUnsettled(deps, 0);
      },
      (email, seen) => {
        expect({ email, submissions: seen.submissions.length, contacts: seen.contacts.length }).toEqual({
          email,
          submissions: 1,
          contacts: 1,
        });
        expect(seen.submissions[0]).toMatchObject({ status: "confirmed", contactId: seen.contacts[0]!._id });
        expect(seen.submissions[0]!.outbox).toEqual([]);
        expect(seen.contacts[0]).toMatchObject({
          firstName: "Ada",
          company: "Evil Corp",
          consent: "subscribed",
          tags: ["vip"],
          interactionCount: 1,
        });
        expect(seen.interactions).toHaveLength(1);
      },
    );
    // receive, the company filled, interaction, interaction count, settle.
    expect(points).toBe(5);
  });
});
