import { idField, insertOnce, modelOn, type Plain, toPlain } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

export type ImportStatus = "uploaded" | "processing" | "done" | "failed";
export type Dedupe = "update" | "skip";

/** One CSV import: the uploaded file's shape, the chosen mapping and where the run stands. */
export interface ImportDoc {
  _id: string;
  userId: string;
  projectId: string;
  fileName: string;
  delimiter: string;
  headers: string[];
  /** Target per column (see domain/import-mapping.ts); null skips the column. */
  mapping: Array<string | null>;
  dedupe: Dedupe;
  status: ImportStatus;
  size: number;
  chunks: number;
  createdAt: Date;
  startedAt?: Date;
  finishedAt?: Date;
  error?: string;
}

/** One piece of the uploaded file, kept until the import is done so a restart can read it again. */
export interface ImportChunkDoc {
  _id: string;
  importId: string;
  n: number;
  data: Buffer;
}

/**
 * A checkpoint: the rows up to `lastLine` are done, with these counts. Appended per batch under a
 * unique id, never updated, so the run's totals are the sum of its checkpoints and a resumed run
 * starts after the last one.
 */
export interface ImportCheckpointDoc {
  _id: string;
  importId: string;
  batch: number;
  lastLine: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  overLimit: number;
  limitCode?: string;
}

/** A row that was not imported: its line in the file, why, and its cells for the download. */
export interface ImportRowErrorDoc {
  _id: string;
  importId: string;
  line: number;
  reason: string;
  cells: string[];
}

export type Import = Plain<ImportDoc>;

const importSchema = new Schema<ImportDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    fileName: { type: String, required: true },
    delimiter: { type: String, required: true },
    headers: { type: [String], default: () => [] },
    mapping: { type: [Schema.Types.Mixed], default: () => [] },
    dedupe: { type: String, default: "update" },
    status: { type: String, required: true },
    size: { type: Number, required: true },
    chunks: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    startedAt: Date,
    finishedAt: Date,
    error: String,
  },
  { collection: "imports", versionKey: false },
);
importSchema.index({ status: 1 });

const chunkSchema = new Schema<ImportChunkDoc>(
  { _id: String, importId: { type: String, required: true }, n: Number, data: Buffer },
  { collection: "import_chunks", versionKey: false },
);
chunkSchema.index({ importId: 1 });

const checkpointSchema = new Schema<ImportCheckpointDoc>(
  {
    _id: String,
    importId: { type: String, required: true },
    batch: Number,
    lastLine: Number,
    created: Number,
    updated: Number,
    skipped: Number,
    failed: Number,
    overLimit: Number,
    limitCode: String,
  },
  { collection: "import_checkpoints", versionKey: false },
);
checkpointSchema.index({ importId: 1 });

const rowErrorSchema = new Schema<ImportRowErrorDoc>(
  { _id: String, importId: { type: String, required: true }, line: Number, reason: String, cells: [String] },
  { collection: "import_row_errors", versionKey: false },
);
rowErrorSchema.index({ importId: 1 });

export function importModels(connection: Connection) {
  return {
    imports: modelOn<ImportDoc>(connection, "Import", importSchema),
    chunks: modelOn<ImportChunkDoc>(connection, "ImportChunk", chunkSchema),
    checkpoints: modelOn<ImportCheckpointDoc>(connection, "ImportCheckpoint", checkpointSchema),
    rowErrors: modelOn<ImportRowErrorDoc>(connection, "ImportRowError", rowErrorSchema),
  };
}

/** The totals of a run so far: the sum of its checkpoints. */
export interface ImportTotals {
  lastLine: number;
  batches: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  overLimit: number;
  limitCode?: string;
}

export class ImportRepository {
  constructor(private readonly models: ReturnType<typeof importModels>) {}

  /** Stores a new import and its file, chunk by chunk. */
  async create(doc: Omit<ImportDoc, "_id" | "chunks">, chunks: readonly Buffer[]): Promise<Import> {
    const created = await this.models.imports.create({ ...doc, chunks: chunks.length });
    const importId = String(created._id);
    await this.models.chunks.insertMany(chunks.map((data, n) => ({ _id: `${importId}:${n}`, importId, n, data })));
    return toPlain(created.toObject() as ImportDoc);
  }

  async get(userId: string, importId: string): Promise<Import | null> {
    const doc = await this.models.imports.findOne({ _id: importId, userId }).lean<ImportDoc>();
    return doc ? toPlain(doc) : null;
  }

  /** Imports left processing (by a run that died with its service), for the resumer. */
  async processing(): Promise<Import[]> {
    const docs = await this.models.imports.find({ status: "processing" }).lean<ImportDoc[]>();
    return docs.map((doc) => toPlain(doc));
  }

  async setStatus(importId: string, fields: Partial<Pick<ImportDoc, "status" | "mapping" | "dedupe" | "startedAt" | "finishedAt" | "error">>): Promise<void> {
    await this.models.imports.updateOne({ _id: importId }, { $set: fields });
  }

  /** The file's chunks in order, read one at a time. */
  async *file(importId: string, chunks: number): AsyncGenerator<Buffer> {
    for (let n = 0; n < chunks; n++) {
      const chunk = await this.models.chunks.findById(`${importId}:${n}`).lean<ImportChunkDoc>();
      if (!chunk) throw new Error(`import ${importId}: chunk ${n} is missing`);
      const data = chunk.data as unknown as Buffer | { buffer: Uint8Array };
      yield Buffer.isBuffer(data) ? data : Buffer.from(data.buffer);
    }
  }

  /** Appends a checkpoint; false when that batch was already recorded (a resumed run repeating it). */
  async checkpoint(doc: Omit<ImportCheckpointDoc, "_id">): Promise<boolean> {
    return insertOnce(this.models.checkpoints, { ...doc, _id: `${doc.importId}:${doc.batch}` });
  }

  async totals(importId: string): Promise<ImportTotals> {
    const docs = await this.models.checkpoints.find({ importId }).lean<ImportCheckpointDoc[]>();
    const totals: ImportTotals = { lastLine: 1, batches: 0, created: 0, updated: 0, skipped: 0, failed: 0, overLimit: 0 };
    for (const doc of docs) {
      totals.lastLine = Math.max(totals.lastLine, doc.lastLine);
      totals.batches = Math.max(totals.batches, doc.batch + 1);
      totals.created += doc.created;
      totals.updated += doc.updated;
      totals.skipped += doc.skipped;
      totals.failed += doc.failed;
      totals.overLimit += doc.overLimit;
      totals.limitCode ??= doc.limitCode;
    }
    return totals;
  }

  /** Records a bad row once, whatever the number of runs that meet it. */
  async rowError(importId: string, line: number, reason: string, cells: string[]): Promise<void> {
    await insertOnce(this.models.rowErrors, { _id: `${importId}:${line}`, importId, line, reason, cells });
  }

  async rowErrors(importId: string): Promise<ImportRowErrorDoc[]> {
    const docs = await this.models.rowErrors.find({ importId }).lean<ImportRowErrorDoc[]>();
    return docs.sort((a, b) => a.line - b.line);
  }

  /** Drops the file once the run is over (the errors and checkpoints stay for the report). */
  async dropFile(importId: string): Promise<void> {
    await this.models.chunks.deleteMany({ importId });
  }
}
