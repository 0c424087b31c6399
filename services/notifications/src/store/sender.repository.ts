import { isDuplicateKey, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { RecordCheck } from "../domain/dkim";

/** A project's sender identity (`_id` = project id), replaced whole by its owner or a project admin. */
export interface SenderIdentityDoc {
  _id: string;
  /** The project's owner (whose data the project is). */
  userId: string;
  fromName: string;
  fromAddress: string;
  replyTo: string;
  /** When a confirmation link was last sent to `fromAddress` (null: never). */
  linkSentAt: Date | null;
  updatedAt: Date;
}

/** An address confirmed for a project (`_id` = `<projectId>:<address>`); append-only. */
export interface VerifiedAddressDoc {
  _id: string;
  projectId: string;
  address: string;
  /** The confirmation link's token id (single use: its own unique index). */
  tokenId: string;
  at: Date;
}

/** A sending domain's DKIM key and its last DNS check (`_id` = `<projectId>:<domain>`). */
export interface SendingDomainDoc {
  _id: string;
  projectId: string;
  userId: string;
  domain: string;
  selector: string;
  /** Base64 DER (SubjectPublicKeyInfo), as published in `p=`. */
  publicKey: string;
  /** The PKCS#8 PEM private key sealed with the key ring (kit secret-box), owner = `_id`. */
  privateKeySealed: string;
  createdAt: Date;
  /** The last live check of its records (null: never checked). */
  checkedAt: Date | null;
  checks: RecordCheck[];
}

const identitySchema = new Schema<SenderIdentityDoc>(
  {
    _id: String,
    userId: { type: String, required: true },
    fromName: { type: String, default: "" },
    fromAddress: { type: String, default: "" },
    replyTo: { type: String, default: "" },
    linkSentAt: { type: Date, default: null },
    updatedAt: Date,
  },
  { collection: "sender_identities", versionKey: false },
);

const verifiedSchema = new Schema<VerifiedAddressDoc>(
  { _id: String, projectId: String, address: String, tokenId: String, at: Date },
  { collection: "sender_verified_addresses", versionKey: false },
);
verifiedSchema.index({ tokenId: 1 }, { unique: true });

const domainSchema = new Schema<SendingDomainDoc>(
  {
    _id: String,
    projectId: { type: String, required: true },
    userId: { type: String, required: true },
    domain: { type: String, required: true },
    selector: { type: String, required: true },
    publicKey: { type: String, required: true },
    privateKeySealed: { type: String, required: true },
    createdAt: Date,
    checkedAt: { type: Date, default: null },
    checks: { type: Schema.Types.Mixed, default: [] },
  },
  { collection: "sender_domains", versionKey: false },
);
domainSchema.index({ projectId: 1, domain: 1 });

export const verifiedId = (projectId: string, address: string) => `${projectId}:${address}`;
export const domainId = (projectId: string, domain: string) => `${projectId}:${domain}`;

/** Sender identities, confirmed addresses and sending domains. */
export class SenderRepository {
  constructor(
    readonly identities: Model<SenderIdentityDoc>,
    readonly verified: Model<VerifiedAddressDoc>,
    readonly domains: Model<SendingDomainDoc>,
  ) {}

  identity(projectId: string): Promise<SenderIdentityDoc | null> {
    return this.identities.findById(projectId).lean<SenderIdentityDoc>().exec();
  }

  async saveIdentity(doc: SenderIdentityDoc): Promise<void> {
    await this.identities.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  async markLinkSent(projectId: string, at: Date): Promise<void> {
    await this.identities.updateOne({ _id: projectId }, { $set: { linkSentAt: at } });
  }

  async isVerified(projectId: string, address: string): Promise<boolean> {
    if (!address) return false;
    return (await this.verified.exists({ _id: verifiedId(projectId, address) })) !== null;
  }

  /**
   * Records a confirmation. @returns "used" when this token confirmed before (single use);
   * "confirmed" otherwise (also when the address was confirmed earlier by another link).
   */
  async confirm(projectId: string, address: string, tokenId: string, at: Date): Promise<"confirmed" | "used"> {
    if (await this.verified.exists({ tokenId })) return "used";
    try {
      await this.verified.create({ _id: verifiedId(projectId, address), projectId, address, tokenId, at });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // The address was confirmed before (another link): still fine, unless this very token raced in.
      const known = await this.verified.findById(verifiedId(projectId, address)).lean<VerifiedAddressDoc>();
      if (known?.tokenId === tokenId) return "used";
    }
    return "confirmed";
  }

  domainsOf(projectId: string): Promise<SendingDomainDoc[]> {
    return this.domains.find({ projectId }).sort({ domain: 1 }).lean<SendingDomainDoc[]>().exec();
  }

  domain(projectId: string, domain: string): Promise<SendingDomainDoc | null> {
    return this.domains.findById(domainId(projectId, domain)).lean<SendingDomainDoc>().exec();
  }

  /** @returns false when the domain already has a key (the first one stays). */
  async addDomain(doc: SendingDomainDoc): Promise<boolean> {
    try {
      await this.domains.create(doc);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async saveChecks(projectId: string, domain: string, checks: RecordCheck[], at: Date): Promise<void> {
    await this.domains.updateOne({ _id: domainId(projectId, domain) }, { $set: { checks, checkedAt: at } });
  }

  async removeDomain(projectId: string, domain: string): Promise<boolean> {
    return (await this.domains.deleteOne({ _id: domainId(projectId, domain) })).deletedCount > 0;
  }
}

export async function createSenderRepository(connection: Connection): Promise<SenderRepository> {
  const identities = modelOn<SenderIdentityDoc>(connection, "SenderIdentity", identitySchema);
  const verified = modelOn<VerifiedAddressDoc>(connection, "SenderVerifiedAddress", verifiedSchema);
  const domains = modelOn<SendingDomainDoc>(connection, "SendingDomain", domainSchema);
  await Promise.all([identities.createIndexes(), verified.createIndexes(), domains.createIndexes()]);
  return new SenderRepository(identities, verified, domains);
}
