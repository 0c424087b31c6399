import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * Who was in which segment, as the segment_entered trigger saw it: an append-only log per contact
 * and segment. Mark `seq` 1 is the first entry, 2 the leaving after it, 3 the next entry… (odd:
 * inside). `_id` is `<segmentId>:<contactId>:<seq>`, so of two handlers that see the same change
 * (a redelivered event, or ContactUpdated and ContactTagged of one edit) exactly one writes the
 * mark, and only its entry starts runs (FerretDB has no update isolation: no state is updated).
 */
export interface SegmentMarkDoc {
  _id: string;
  userId: string;
  projectId: string;
  segmentId: string;
  contactId: string;
  seq: number;
  inside: boolean;
  /** The event (ce_id) whose handler wrote the mark: its redelivery finishes what a crash cut short. */
  eventId: string;
  at: Date;
}

const markSchema = new Schema<SegmentMarkDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    segmentId: { type: String, required: true },
    contactId: { type: String, required: true },
    seq: { type: Number, required: true },
    inside: { type: Boolean, required: true },
    eventId: { type: String, default: "" },
    at: { type: Date, required: true },
  },
  { collection: "automation_segment_marks", versionKey: false },
);
markSchema.index({ contactId: 1, segmentId: 1, seq: -1 });

export const markIdOf = (segmentId: string, contactId: string, seq: number) => `${segmentId}:${contactId}:${seq}`;

/** The automations' trigger state: the segment marks. */
export class AutomationTriggerRepository {
  constructor(private readonly marks: Model<SegmentMarkDoc>) {}

  /** The latest mark of a contact in a segment; null when the trigger never saw it inside. */
  async latestMark(segmentId: string, contactId: string): Promise<SegmentMarkDoc | null> {
    return this.marks.findOne({ contactId, segmentId }).sort({ seq: -1 }).lean<SegmentMarkDoc>();
  }

  /** Appends a mark. @returns false when a mark with its seq exists (someone else wrote it first). */
  addMark(doc: Omit<SegmentMarkDoc, "_id">): Promise<boolean> {
    return insertOnce(this.marks, { ...doc, _id: markIdOf(doc.segmentId, doc.contactId, doc.seq) });
  }
}

export async function createAutomationTriggerRepository(connection: Connection): Promise<AutomationTriggerRepository> {
  const marks = modelOn<SegmentMarkDoc>(connection, "AutomationSegmentMark", markSchema);
  await marks.init();
  return new AutomationTriggerRepository(marks);
}
