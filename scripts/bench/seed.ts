// Seeds the namespace's databases directly (not through the services: that would take an hour)
// with BENCH_SEED_USERS (10,000) accounts and BENCH_SEED_ENTRIES (100,000) ledger entries: per
// user one free grant and debits spending it, as billing writes them. The documents have the
// shape of the current stores (accounts keyed by `_id = userId`; no balance snapshots: billing
// rebuilds one on a user's first read). Idempotent: a marker says the namespace was seeded.
import { randomUUID } from "node:crypto";
import { connectMongo, createLogger, databaseName } from "@crafter/kit";

const BATCH = 1000;

export interface SeedResult {
  users: number;
  entries: number;
  seconds: number;
  /** False when the marker said the namespace was seeded already. */
  seeded: boolean;
}

export async function seed(env: Record<string, string>): Promise<SeedResult> {
  const users = Number(env.BENCH_SEED_USERS ?? 10_000);
  const entries = Number(env.BENCH_SEED_ENTRIES ?? 100_000);
  const namespace = env.CRAFTER_NAMESPACE ?? "crafter_test";
  const url = env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/";
  const logger = createLogger("bench-seed", "warn");
  const started = performance.now();
  const account = await connectMongo(url, databaseName(namespace, "account"), logger);
  const billing = await connectMongo(url, databaseName(namespace, "billing"), logger);
  try {
    const marker = billing.collection("bench_seed");
    const mark = `${users}:${entries}`;
    if (await marker.findOne({ _id: mark as never })) return { users, entries, seconds: 0, seeded: false };
    const perUser = Math.max(1, Math.floor(entries / users));
    const now = Date.now();
    let accounts: Record<string, unknown>[] = [];
    let ledger: Record<string, unknown>[] = [];
    const flush = async (force = false) => {
      if (accounts.length >= BATCH || (force && accounts.length)) {
        await account.collection("accounts").insertMany(accounts as never[], { ordered: false });
        accounts = [];
      }
      if (ledger.length >= BATCH || (force && ledger.length)) {
        await billing.collection("ledger_entries").insertMany(ledger as never[], { ordered: false });
        ledger = [];
      }
    };
    for (let u = 0; u < users; u++) {
      const userId = randomUUID();
      const at = new Date(now - (users - u) * 1000);
      accounts.push({
        _id: userId,
        userId,
        email: `seed-${u}@bench.example.test`,
        displayName: `Seed ${u}`,
        image: "",
        isSubscribed: false,
        access: [],
        role: "owner",
        emailVerified: true,
        createdAt: at,
        updatedAt: at,
      });
      const grantId = randomUUID();
      const credits = 100;
      const expiresAt = new Date(now + 30 * 86_400_000);
      ledger.push({
        _id: grantId,
        userId,
        seq: 1,
        kind: "grant",
        amount: credits,
        key: `grant:free-tier:${userId}`,
        expiresAt,
        source: "free-tier",
        reason: "",
        craftId: "",
        allocations: [],
        debitId: "",
        balanceAfter: credits,
        outbox: [],
        createdAt: at,
      });
      for (let seq = 2; seq <= perUser; seq++) {
        const id = randomUUID();
        ledger.push({
          _id: id,
          userId,
          seq,
          kind: "debit",
          amount: 1,
          key: `debit:${id}`,
          expiresAt: null,
          source: "",
          reason: "BlogWriter/seed",
          craftId: "",
          allocations: [{ grantId, amount: 1 }],
          debitId: "",
          balanceAfter: credits - (seq - 1),
          outbox: [],
          createdAt: at,
        });
      }
      await flush();
    }
    await flush(true);
    await marker.insertOne({ _id: mark as never, at: new Date() });
    return { users, entries: users * perUser, seconds: (performance.now() - started) / 1000, seeded: true };
  } finally {
    await account.close();
    await billing.close();
  }
}
