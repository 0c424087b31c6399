import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * A page published from a craft. `_id` is its slug: the unique `_id` index is what keeps
 * an address to one page across all users, so of two concurrent publishes of one slug exactly one
 * inserts. The content is a sanitized copy taken when it was (re)published.
 */
export interface PageDoc {
  _id: string;
  userId: string;
  craftId: string;
  /** The craft's project ("" on pages published before pages recorded it). */
  projectId?: string;
  title: string;
  description: string;
  html: string;
  businessName: string;
  publishedAt: Date;
  updatedAt: Date;
}

/** A published page as the use cases see it: the document with its slug named. */
export type PublishedPageRecord = Omit<PageDoc, "_id" | "projectId"> & { slug: string; projectId: string };

const pageSchema = new Schema<PageDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    craftId: { type: String, required: true },
    projectId: { type: String, default: "" },
    title: { type: String, default: "" },
    description: { type: String, default: "" },
    html: { type: String, default: "" },
    businessName: { type: String, default: "" },
    publishedAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
// A craft's page is read by its craft (the craft page and unpublish), scoped to its user.
pageSchema.index({ userId: 1, craftId: 1 });
// A custom domain's `/` lists its project's pages.
pageSchema.index({ userId: 1, projectId: 1, publishedAt: -1 });

function toRecord(doc: PageDoc): PublishedPageRecord {
  const { _id, ...rest } = doc;
  return { slug: _id, ...rest, projectId: doc.projectId ?? "" };
}

export type PageContentFields = Pick<PageDoc, "title" | "description" | "html" | "businessName" | "projectId">;

/** Published pages, by slug (public reads) and by the user's craft. */
export class PageRepository {
  constructor(private readonly model: Model<PageDoc>) {}

  /** The page at `slug` (a read by `_id`), or null. */
  async bySlug(slug: string): Promise<PublishedPageRecord | null> {
    const doc = await this.model.findById(slug).lean<PageDoc>();
    return doc ? toRecord(doc) : null;
  }

  /** The user's pages of a craft (one, but two for a moment while it moves to a new slug). */
  async byCraft(userId: string, craftId: string): Promise<PublishedPageRecord[]> {
    const docs = await this.model.find({ userId, craftId }).sort({ publishedAt: -1 }).lean<PageDoc[]>();
    return docs.map(toRecord);
  }

  /** The pages of the user's project, newest first, at most `limit`, without their HTML (read whole). */
  async ofProject(userId: string, projectId: string, limit: number): Promise<PublishedPageRecord[]> {
    const docs = await this.model
      .find({ userId, projectId }, { html: 0 })
      .sort({ publishedAt: -1 })
      .limit(limit)
      .lean<PageDoc[]>();
    return docs.map((doc) => toRecord({ ...doc, html: "" }));
  }

  /** Claims `slug` for the craft. @returns false when the slug is taken (by anyone). */
  async claim(slug: string, page: { userId: string; craftId: string } & PageContentFields, at: Date): Promise<boolean> {
    return insertOnce(this.model, { _id: slug, ...page, publishedAt: at, updatedAt: at });
  }

  /** Refreshes the content of the user's page at `slug`. @returns the page, or null when it is not theirs. */
  async refresh(
    userId: string,
    slug: string,
    content: PageContentFields,
    at: Date,
  ): Promise<PublishedPageRecord | null> {
    const doc = await this.model
      .findOneAndUpdate({ _id: slug, userId }, { $set: { ...content, updatedAt: at } }, { returnDocument: "after" })
      .lean<PageDoc>();
    return doc ? toRecord(doc) : null;
  }

  /** Removes the user's pages of a craft, except `keep`. @returns how many were removed. */
  async removeForCraft(userId: string, craftId: string, keep?: string): Promise<number> {
    const filter = keep ? { userId, craftId, _id: { $ne: keep } } : { userId, craftId };
    const { deletedCount } = await this.model.deleteMany(filter);
    return deletedCount;
  }
}

export function pageModel(connection: Connection): Model<PageDoc> {
  return modelOn<PageDoc>(connection, "PublishedPage", pageSchema, "published_pages");
}
