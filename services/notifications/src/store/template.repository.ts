import { idField, modelOn, type Plain, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/** A user's own template (email or social post): its MJML, and the HTML rendered when it was saved. */
export interface TemplateDoc {
  _id: string;
  userId: string;
  projectId: string;
  kind: "email" | "social";
  name: string;
  mjml: string;
  html: string;
  subject: string;
  createdAt: Date;
  updatedAt: Date;
}

export type StoredTemplate = Plain<TemplateDoc>;

const templateSchema = new Schema<TemplateDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    kind: { type: String, required: true },
    name: { type: String, required: true },
    mjml: { type: String, default: "" },
    html: { type: String, default: "" },
    subject: { type: String, default: "" },
  },
  { collection: "templates", timestamps: true, versionKey: false },
);
templateSchema.index({ userId: 1, projectId: 1, kind: 1, updatedAt: -1 });

export class TemplateRepository extends TenantRepository<TemplateDoc> {
  constructor(model: Model<TemplateDoc>) {
    super(model, "userId");
  }

  /** The user's templates of one kind in one project, last edited first. */
  page(userId: string, projectId: string, kind: TemplateDoc["kind"], page: number, pageSize: number) {
    return this.list(userId, { projectId, kind }, { page, pageSize, sort: { updatedAt: -1, _id: 1 } });
  }
}

export async function createTemplateRepository(connection: Connection): Promise<TemplateRepository> {
  const model = modelOn<TemplateDoc>(connection, "Template", templateSchema);
  await model.createIndexes();
  return new TemplateRepository(model);
}
