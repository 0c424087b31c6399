import { idField, modelOn, type Plain, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/** A visual-designer document: the stages JSON the browser saves, and the PNG it last rendered. */
export interface DesignDoc {
  _id: string;
  userId: string;
  name: string;
  width: number;
  height: number;
  stagesJson: string;
  /** Object key of the last PNG the browser posted, if any. */
  previewKey?: string;
  createdAt: Date;
  updatedAt: Date;
}

export type Design = Plain<DesignDoc>;

const designSchema = new Schema<DesignDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    name: { type: String, required: true },
    width: { type: Number, required: true },
    height: { type: Number, required: true },
    stagesJson: { type: String, required: true },
    previewKey: String,
  },
  { collection: "designs", timestamps: true, versionKey: false },
);
designSchema.index({ userId: 1 });

export function designModel(connection: Connection): Model<DesignDoc> {
  return modelOn<DesignDoc>(connection, "Design", designSchema);
}

export class DesignRepository extends TenantRepository<DesignDoc> {
  constructor(model: Model<DesignDoc>) {
    super(model, "userId");
  }

  page(userId: string, page: number, pageSize: number) {
    return this.list(userId, {}, { page, pageSize, sort: { updatedAt: -1, _id: 1 } });
  }
}
