import { insertOnce, isDuplicateKey, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/** An uploaded CSV and, once started, how to read it. Written at upload; `start` fields set once. */
export interface ImportDoc {
  _id: string;
  userId: string;
  projectId: string;
  fileName: string;
  size: number;
  chunks: number;
  delimiter: string;
  headers: string[];
  /** The first rows; FerretDB stores no nested arrays, so each row is `{ cells }`. */
  preview: Array<{ cells: string[] }>;
  guessed: Array<string | null>;
  rowsTotal: number;
  /** Set by the one StartImport that won the start marker. */
  mapping?: Array<string | null>;
  dedupe?: "update" | "skip";
  /** Which row of an email repeated inside the file is imported (absent: first). */
  inFile?: "first" | "last";
  started?: boolean;
  createdAt: Date;
}

/** One slice of the file: `_id` = `<importId>:<n>`. */
export interface ImportChunkDoc {
  _id: string;
  importId: string;
  n: number;
  data: Buffer;
}

/**
 * Progress after a batch, appended: `_id` = `<importId>:<batch>`, so a second runner of the same
 * import fails on its first checkpoint and stops. Counts are cumulative. `done` on the last one.
 */
export interface ImportCheckpointDoc {
  _id: string;
  importId: string;
  batch: number;
  /** The last CSV line this batch covered. */
  line: number;
  processed: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  overLimit: number;
  /** Rows whose email appeared earlier in the file (absent on checkpoints written before it was counted). */
  duplicates?: number;
  limit: number;
  limitCode: string;
  done: boolean;
  error: string;
  at: Date;
}

/** A row that was not imported: `_id` = `<importId>:<line>`. */
export interface ImportErrorDoc {
  _id: string;
  importId: string;
  line: number;
  email: string;
  /** The refused cell, when one was (absent on errors recorded before it was kept). */
  value?: string;
  reason: string;
}

/** Imports in progress, by equality on `state` (only "running" ones are looked up at start). */
export interface ImportRunDoc {
  _id: string;
  state: "running";
  at: Date;
}

const importSchema = new Schema<ImportDoc>(
  {
    _id: String,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    fileName: String,
    size: Number,
    chunks: Number,
    delimiter: String,
    headers: [String],
    preview: Schema.Types.Mixed,
    guessed: Schema.Types.Mixed,
    rowsTotal: Number,
    mapping: Schema.Types.Mixed,
    dedupe: String,
    inFile: String,
    started: Boolean,
    createdAt: Date,
  },
  { collection: "imports", versionKey: false, minimize: false },
);
importSchema.index({ userId: 1, projectId: 1 });

const chunkSchema = new Schema<ImportChunkDoc>(
  { _id: String, importId: String, n: Number, data: Buffer },
  { collection: "import_chunks", versionKey: false },
);
chunkSchema.index({ importId: 1 });

const checkpointSchema = new Schema<ImportCheckpointDoc>(
  {
    _id: String,
    importId: String,
    batch: Number,
    line: Number,
    processed: Number,
    created: Number,
    updated: Number,
    skipped: Number,
    failed: Number,
    overLimit: Number,
    duplicates: Number,
    limit: Number,
    limitCode: String,
    done: Boolean,
    error: String,
    at: Date,
  },
  { collection: "import_checkpoints", versionKey: false },
);
checkpointSchema.index({ importId: 1 });

const errorSchema = new Schema<ImportErrorDoc>(
  { _id: String, importId: String, line: Number, email: String, value: String, reason: String },
  { collection: "import_errors", versionKey: false },
);
errorSchema.index({ importId: 1 });

const runSchema = new Schema<ImportRunDoc>(
  { _id: String, state: String, at: Date },
  { collection: "import_runs", versionKey: false },
);
runSchema.index({ state: 1 });

/** Imports: the file in chunks, append-only checkpoints and errors (docs/adr/0001 rule 3). */
export class ImportRepository {
  readonly imports: Model<ImportDoc>;
  readonly chunks: Model<ImportChunkDoc>;
  readonly checkpoints: Model<ImportCheckpointDoc>;
  readonly errors: Model<ImportErrorDoc>;
  readonly runs: Model<ImportRunDoc>;

  constructor(connection: Connection) {
    this.imports = modelOn<ImportDoc>(connection, "Import", importSchema);
    this.chunks = modelOn<ImportChunkDoc>(connection, "ImportChunk", chunkSchema);
    this.checkpoints = modelOn<ImportCheckpointDoc>(connection, "ImportCheckpoint", checkpointSchema);
    this.errors = modelOn<ImportErrorDoc>(connection, "ImportError", errorSchema);
    this.runs = modelOn<ImportRunDoc>(connection, "ImportRun", runSchema);
  }

  async init(): Promise<void> {
    await Promise.all([this.imports, this.chunks, this.checkpoints, this.errors, this.runs].map((m) => m.init()));
  }

  async saveChunk(importId: string, n: number, data: Buffer): Promise<void> {
    await this.chunks.create({ _id: `${importId}:${n}`, importId, n, data });
  }

  async chunk(importId: string, n: number): Promise<Buffer> {
    const doc = await this.chunks.findById(`${importId}:${n}`).lean<ImportChunkDoc>();
    if (!doc) throw new Error(`import ${importId} lost chunk ${n}`);
    const data = doc.data as unknown as Buffer | { buffer: Uint8Array };
    return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer);
  }

  async create(doc: ImportDoc): Promise<void> {
    await this.imports.create(doc);
  }

  get(userId: string, id: string): Promise<ImportDoc | null> {
    return this.imports.findOne({ _id: id, userId }).lean<ImportDoc>();
  }

  byId(id: string): Promise<ImportDoc | null> {
    return this.imports.findById(id).lean<ImportDoc>();
  }

  /** Newest first, at most 20. */
  async recent(userId: string, projectId: string): Promise<ImportDoc[]> {
    const docs = await this.imports.find({ userId, projectId }, { preview: 0 }).lean<ImportDoc[]>();
    return docs.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, 20);
  }

  /** Claims the start of an import: true for exactly one caller. */
  async claimStart(id: string, at: Date): Promise<boolean> {
    return insertOnce(this.runs, { _id: id, state: "running", at });
  }

  async setStart(
    id: string,
    mapping: Array<string | null>,
    dedupe: "update" | "skip",
    inFile: "first" | "last",
  ): Promise<void> {
    await this.imports.updateOne({ _id: id }, { $set: { mapping, dedupe, inFile, started: true } });
  }

  /** Ends a run (its last checkpoint says done): it is no longer resumed. */
  async finishRun(id: string): Promise<void> {
    await this.runs.deleteOne({ _id: id });
  }

  async running(): Promise<string[]> {
    return (await this.runs.find({ state: "running" }).lean<ImportRunDoc[]>()).map((r) => r._id);
  }

  /** Oldest first. */
  async checkpointsOf(id: string): Promise<ImportCheckpointDoc[]> {
    const docs = await this.checkpoints.find({ importId: id }).lean<ImportCheckpointDoc[]>();
    return docs.sort((a, b) => a.batch - b.batch);
  }

  /** @returns false when that batch's checkpoint exists (another runner is ahead). */
  async checkpoint(doc: ImportCheckpointDoc): Promise<boolean> {
    return insertOnce(this.checkpoints, doc);
  }

  async addErrors(docs: ImportErrorDoc[]): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.errors.insertMany(docs, { ordered: false });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** The first `limit` rows not imported, by line. */
  async firstErrors(id: string, limit: number): Promise<ImportErrorDoc[]> {
    return this.errors.find({ importId: id }).sort({ line: 1 }).limit(limit).lean<ImportErrorDoc[]>();
  }

  /** By line. */
  async errorsOf(id: string): Promise<ImportErrorDoc[]> {
    const docs = await this.errors.find({ importId: id }).lean<ImportErrorDoc[]>();
    return docs.sort((a, b) => a.line - b.line);
  }
}
