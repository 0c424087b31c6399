import { idField, modelOn, type Page, type Plain, toPlain } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { AutomationStatus, Step, Trigger, TriggerKind } from "../domain/automation-model";

/**
 * An automation: a trigger and a step tree, owned by one user in one project. `triggerKind` repeats
 * `trigger.kind` at the top level, because FerretDB pushes down equality on top-level fields only and
 * the engine looks automations up by it on every contact event.
 */
export interface AutomationDoc {
  _id: string;
  userId: string;
  projectId: string;
  name: string;
  status: AutomationStatus;
  triggerKind: TriggerKind;
  trigger: Trigger;
  steps: Step[];
  createdAt: Date;
  updatedAt: Date;
}

export type Automation = Plain<AutomationDoc>;

const schema = new Schema<AutomationDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    name: { type: String, required: true },
    status: { type: String, required: true },
    triggerKind: { type: String, required: true },
    trigger: { type: Schema.Types.Mixed, required: true },
    steps: { type: Schema.Types.Mixed, default: [] },
  },
  { collection: "automations", timestamps: true, versionKey: false, minimize: false },
);
schema.index({ userId: 1, projectId: 1, triggerKind: 1 });
schema.index({ userId: 1, projectId: 1, createdAt: -1 });
schema.index({ triggerKind: 1, status: 1 });

/** Automations, always read within their user (and project). */
export class AutomationRepository {
  constructor(private readonly model: Model<AutomationDoc>) {}

  async create(doc: Omit<AutomationDoc, "_id" | "createdAt" | "updatedAt">): Promise<Automation> {
    const created = await this.model.create(doc);
    return toPlain(created.toObject() as AutomationDoc);
  }

  /** One automation by id (the engine's hot read); null when gone. */
  async byId(id: string): Promise<Automation | null> {
    const doc = await this.model.findById(id).lean<AutomationDoc>();
    return doc ? toPlain(doc) : null;
  }

  /** One automation of the user's project; null when it is not theirs. */
  async find(userId: string, projectId: string, id: string): Promise<Automation | null> {
    const doc = await this.model.findById(id).lean<AutomationDoc>();
    return doc && doc.userId === userId && doc.projectId === projectId ? toPlain(doc) : null;
  }

  async list(userId: string, projectId: string, page: number, pageSize: number): Promise<Page<Automation>> {
    const filter = { userId, projectId };
    const [docs, total] = await Promise.all([
      this.model
        .find(filter)
        .sort({ createdAt: -1, _id: 1 })
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .lean<AutomationDoc[]>(),
      this.model.countDocuments(filter),
    ]);
    return {
      items: docs.map((d) => toPlain(d)),
      total,
      page,
      totalPages: Math.max(1, Math.ceil(total / pageSize)),
    };
  }

  /** The active automations of a project with this trigger kind (what an event may start). */
  async activeWithTrigger(userId: string, projectId: string, triggerKind: TriggerKind): Promise<Automation[]> {
    const docs = await this.model.find({ userId, projectId, triggerKind }).lean<AutomationDoc[]>();
    return docs.filter((d) => d.status === "active").map((d) => toPlain(d));
  }

  /** Every user's active automations with this trigger kind (the date_field scan). */
  async allActiveWithTrigger(triggerKind: TriggerKind): Promise<Automation[]> {
    const docs = await this.model.find({ triggerKind, status: "active" }).lean<AutomationDoc[]>();
    return docs.map((d) => toPlain(d));
  }

  /** Changes an automation (one writer: its owner through the API). @returns it after the change, or null. */
  async update(
    userId: string,
    projectId: string,
    id: string,
    set: Partial<Pick<AutomationDoc, "name" | "status" | "trigger" | "triggerKind" | "steps">>,
  ): Promise<Automation | null> {
    const doc = await this.model
      .findOneAndUpdate({ _id: id, userId, projectId }, { $set: set }, { returnDocument: "after" })
      .lean<AutomationDoc>();
    return doc ? toPlain(doc) : null;
  }

  async delete(userId: string, projectId: string, id: string): Promise<boolean> {
    return (await this.model.deleteOne({ _id: id, userId, projectId })).deletedCount === 1;
  }
}

export async function createAutomationRepository(connection: Connection): Promise<AutomationRepository> {
  const model = modelOn<AutomationDoc>(connection, "Automation", schema);
  await model.init();
  return new AutomationRepository(model);
}
