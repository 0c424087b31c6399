import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

export type RunStatus = "running" | "completed" | "failed";
export type StepStatus = "done" | "skipped" | "failed";

/**
 * One contact's run of one automation. `_id` is `runIdOf(automation, contact, occurrence)`, so a
 * redelivered event finds its run. Only the engine's job for this run writes it (steps run one at a
 * time per run), so its status and current step are plain updates.
 */
export interface RunDoc {
  _id: string;
  userId: string;
  projectId: string;
  automationId: string;
  automationName: string;
  contactId: string;
  email: string;
  status: RunStatus;
  currentStepId: string;
  startedAt: Date;
  endedAt: Date | null;
}

/**
 * One step of one run, append-only: `_id` is `stepKey(runId, stepId)` (unique), inserted once the
 * step's effect happened, so a retried job or a redelivered event never runs a step twice. A wait
 * records when it is due (`dueAt`), so a retry after a restart waits for the same moment.
 */
export interface StepRecordDoc {
  _id: string;
  runId: string;
  automationId: string;
  stepId: string;
  kind: string;
  status: StepStatus;
  detail: string;
  /** The branch a condition took. */
  branch: "" | "yes" | "no";
  dueAt: Date | null;
  at: Date;
}

/** A step held while its automation is paused; re-queued (and removed) when it is activated again. */
export interface HeldStepDoc {
  _id: string;
  automationId: string;
  runId: string;
  stepId: string;
  at: Date;
}

const runSchema = new Schema<RunDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    automationId: { type: String, required: true },
    automationName: { type: String, default: "" },
    contactId: { type: String, required: true },
    email: { type: String, default: "" },
    status: { type: String, required: true },
    currentStepId: { type: String, default: "" },
    startedAt: { type: Date, required: true },
    endedAt: { type: Date, default: null },
  },
  { collection: "automation_runs", versionKey: false },
);
runSchema.index({ userId: 1, automationId: 1, startedAt: -1 });
runSchema.index({ userId: 1, contactId: 1, startedAt: -1 });

const stepSchema = new Schema<StepRecordDoc>(
  {
    _id: { type: String, required: true },
    runId: { type: String, required: true },
    automationId: { type: String, required: true },
    stepId: { type: String, required: true },
    kind: { type: String, required: true },
    status: { type: String, required: true },
    detail: { type: String, default: "" },
    branch: { type: String, default: "" },
    dueAt: { type: Date, default: null },
    at: { type: Date, required: true },
  },
  { collection: "automation_steps", versionKey: false },
);
stepSchema.index({ runId: 1 });

const heldSchema = new Schema<HeldStepDoc>(
  {
    _id: { type: String, required: true },
    automationId: { type: String, required: true },
    runId: { type: String, required: true },
    stepId: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: "automation_held", versionKey: false },
);
heldSchema.index({ automationId: 1 });

export type Run = Omit<RunDoc, "_id"> & { id: string; steps: StepRecordDoc[] };

/** Runs, their step records and the steps held by a pause. */
export class AutomationRunRepository {
  constructor(
    private readonly runs: Model<RunDoc>,
    private readonly steps: Model<StepRecordDoc>,
    private readonly held: Model<HeldStepDoc>,
  ) {}

  /** Starts a run. @returns false when the run exists already (a redelivered event). */
  startRun(doc: RunDoc): Promise<boolean> {
    return insertOnce(this.runs, doc);
  }

  async run(runId: string): Promise<RunDoc | null> {
    return this.runs.findById(runId).lean<RunDoc>();
  }

  async setCurrent(runId: string, stepId: string): Promise<void> {
    await this.runs.updateOne({ _id: runId }, { $set: { currentStepId: stepId } });
  }

  async endRun(runId: string, status: Exclude<RunStatus, "running">, at: Date): Promise<void> {
    await this.runs.updateOne({ _id: runId }, { $set: { status, endedAt: at, currentStepId: "" } });
  }

  /** The record of one step of a run, or null when the step has not happened. */
  async step(key: string): Promise<StepRecordDoc | null> {
    return this.steps.findById(key).lean<StepRecordDoc>();
  }

  /** Appends a step record. @returns the record stored under its key (this one, or the first one written). */
  async record(doc: StepRecordDoc): Promise<StepRecordDoc> {
    if (await insertOnce(this.steps, doc)) return doc;
    return (await this.steps.findById(doc._id).lean<StepRecordDoc>()) ?? doc;
  }

  /** Runs of an automation or a contact, newest first, with their step records. */
  async list(
    filter: { userId: string; projectId: string } & ({ automationId: string } | { contactId: string }),
    page: number,
    pageSize: number,
  ): Promise<{ items: Run[]; total: number }> {
    const [docs, total] = await Promise.all([
      this.runs
        .find(filter)
        .sort({ startedAt: -1, _id: 1 })
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .lean<RunDoc[]>(),
      this.runs.countDocuments(filter),
    ]);
    // One query per run by `runId` equality: FerretDB pushes equality down, not `$in`, which read
    // every step record of every automation for each page.
    const perRun = await Promise.all(
      docs.map((d) => this.steps.find({ runId: d._id }).sort({ at: 1 }).lean<StepRecordDoc[]>()),
    );
    const byRun = new Map(docs.map((d, i) => [d._id, perRun[i]!] as const));
    return {
      items: docs.map(({ _id, ...rest }) => ({ ...rest, id: _id, steps: byRun.get(_id) ?? [] })),
      total,
    };
  }

  /** Runs per status for each automation given. */
  async stats(
    userId: string,
    automationIds: string[],
  ): Promise<Map<string, { running: number; completed: number; failed: number }>> {
    const out = new Map(automationIds.map((id) => [id, { running: 0, completed: 0, failed: 0 }]));
    await Promise.all(
      automationIds.map(async (automationId) => {
        const counts = out.get(automationId)!;
        const [running, completed, failed] = await Promise.all(
          (["running", "completed", "failed"] as const).map((status) =>
            this.runs.countDocuments({ userId, automationId, status }),
          ),
        );
        Object.assign(counts, { running, completed, failed });
      }),
    );
    return out;
  }

  /** Holds a step of a paused automation (once per step). */
  async hold(doc: HeldStepDoc): Promise<void> {
    await insertOnce(this.held, doc);
  }

  /** The steps held for an automation. */
  async heldFor(automationId: string): Promise<HeldStepDoc[]> {
    return this.held.find({ automationId }).lean<HeldStepDoc[]>();
  }

  async release(id: string): Promise<void> {
    await this.held.deleteOne({ _id: id });
  }
}

export async function createAutomationRunRepository(connection: Connection): Promise<AutomationRunRepository> {
  const runs = modelOn<RunDoc>(connection, "AutomationRun", runSchema);
  const steps = modelOn<StepRecordDoc>(connection, "AutomationStep", stepSchema);
  const held = modelOn<HeldStepDoc>(connection, "AutomationHeld", heldSchema);
  await Promise.all([runs.init(), steps.init(), held.init()]);
  return new AutomationRunRepository(runs, steps, held);
}
