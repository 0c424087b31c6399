// One crafting user of the benchmarks: signs up through the gateway and completes BlogWriter's
// steps (PUT /api/workflowsV2/{id}/step/complete) with the offline engine, one after the other.
import { concurrent, cpuPerCall, databasePids, type Row, rowOf, signedInUser, stackEnv, stackPids } from "./common";

const env = stackEnv();
const gateway = (env.GATEWAY_URL ?? "http://localhost:28080").replace("localhost", "127.0.0.1");
/** Generations one user makes before the benchmark signs up another (credits: 100 free per user). */
const GENERATIONS_PER_USER = 40;
export const TOPIC = {
  topic: "Why slow-fermented sourdough is easier to digest",
  keywords: ["sourdough", "fermentation"],
};

interface Step {
  name: string;
  values: Record<string, unknown>;
  /** What completing the step generates; steps without one (the draft editor) are not completed. */
  action?: { kind: string } | null;
}

/** What the benchmark reads of a craft and of a completion (docs/api.md). */
interface CraftView {
  craftId: string;
  steps: Step[];
}
interface Answer extends Partial<CraftView> {
  result?: { content?: string };
  craft: CraftView;
}

async function api(token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${gateway}${path}`, {
    method,
    headers: { cookie: `crafter_at=${token}`, "content-type": "application/json", origin: gateway },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { success: boolean; result: Answer; errorMessage: string | null };
  if (!response.ok || !envelope.success)
    throw new Error(`${method} ${path}: ${response.status} ${envelope.errorMessage}`);
  return envelope.result;
}

/** One crafting user: completes BlogWriter's steps in order, starting a new craft after the last. */
export class Crafter {
  private token = "";
  private generations = 0;
  private craftId = "";
  private steps: Step[] = [];
  private next = 0;

  /** Completes the next step through REST; resolves when the gateway answered with the result. */
  async completeStep(): Promise<void> {
    if (!this.token || this.generations >= GENERATIONS_PER_USER) {
      this.token = (await signedInUser("crafts")).accessToken;
      this.generations = 0;
      this.craftId = "";
    }
    while (this.next < this.steps.length && !this.steps[this.next]!.action) this.next++;
    if (!this.craftId || this.next >= this.steps.length) await this.newCraft();
    const step = this.steps[this.next]!;
    const values = this.next === 0 ? TOPIC : step.values;
    const done = await api(this.token, "PUT", `/api/workflowsV2/${this.craftId}/step/complete`, {
      stepName: step.name,
      values,
    });
    if (!done.result?.content) throw new Error("a completion without a result");
    this.generations++;
    this.steps = done.craft.steps;
    this.next++;
  }

  async newCraft(): Promise<{ craftId: string; token: string }> {
    if (!this.token) this.token = (await signedInUser("crafts")).accessToken;
    const craft = await api(this.token, "POST", "/api/workflowsV2", { workflowName: "BlogWriter" });
    this.craftId = craft.craftId!;
    this.steps = craft.steps!;
    this.next = 0;
    return { craftId: this.craftId, token: this.token };
  }
}

/**
 * Step completions per second of `users` users crafting at once for `seconds` (each completes its
 * next step as soon as the last answered), with their latencies; sign-ups happen before the clock.
 */
export async function stepCompletions(users: number, seconds: number): Promise<Row> {
  const crafters = Array.from({ length: users }, () => new Crafter());
  await Promise.all(crafters.map((crafter) => crafter.newCraft()));
  // Where a completion's CPU goes: the services it crosses, and the database behind them.
  const cpu = cpuPerCall({
    ...stackPids(["gateway", "workflows", "projects", "billing", "account"]),
    ...databasePids(),
  });
  const run = await concurrent(users, seconds, (worker) => crafters[worker]!.completeStep());
  const note = `CPU/completion: ${cpu(run.latencies.length)}`;
  return rowOf(`REST step completions, ${users} users at once`, run.latencies, run.seconds, run.errors, note);
}
