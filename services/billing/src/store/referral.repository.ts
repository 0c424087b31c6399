import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/** A user's referral code: `_id` = the user; `code` unique across users. */
interface CodeDoc {
  _id: string;
  code: string;
  createdAt: Date;
}

/** Who referred whom: `_id` = the referred user, so a user is recorded with one referrer, once. */
interface ReferralDoc {
  _id: string;
  referrerId: string;
  code: string;
  createdAt: Date;
}

/** A referral whose referred user paid: `_id` = the referred user (insert-once: rewarded once). */
interface RewardDoc {
  _id: string;
  referrerId: string;
  createdAt: Date;
}

const codeSchema = new Schema<CodeDoc>(
  { _id: String, code: { type: String, required: true }, createdAt: { type: Date, required: true } },
  { versionKey: false },
);
codeSchema.index({ code: 1 }, { unique: true });

const referralSchema = new Schema<ReferralDoc>(
  {
    _id: String,
    referrerId: { type: String, required: true },
    code: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
referralSchema.index({ referrerId: 1 });

const rewardSchema = new Schema<RewardDoc>(
  { _id: String, referrerId: { type: String, required: true }, createdAt: { type: Date, required: true } },
  { versionKey: false },
);
rewardSchema.index({ referrerId: 1 });

export function referralModels(connection: Connection) {
  return {
    codes: modelOn<CodeDoc>(connection, "ReferralCode", codeSchema, "referral_codes"),
    referrals: modelOn<ReferralDoc>(connection, "Referral", referralSchema, "referrals"),
    rewards: modelOn<RewardDoc>(connection, "ReferralReward", rewardSchema, "referral_rewards"),
  };
}

/** Referral codes, referrals and their rewards: every write an insert guarded by a unique index. */
export class ReferralRepository {
  constructor(
    private readonly codes: Model<CodeDoc>,
    private readonly referrals: Model<ReferralDoc>,
    private readonly rewards: Model<RewardDoc>,
  ) {}

  /** The user's code, or null before they have one. */
  async codeOf(userId: string): Promise<string | null> {
    return (await this.codes.findById(userId).lean<CodeDoc>())?.code ?? null;
  }

  /** Gives the user `code`. @returns false when the user has a code already or another user has this one. */
  async addCode(userId: string, code: string, at: Date): Promise<boolean> {
    return insertOnce(this.codes, { _id: userId, code, createdAt: at });
  }

  /** The user whose code this is, or null. */
  async ownerOf(code: string): Promise<string | null> {
    return (await this.codes.findOne({ code }).lean<CodeDoc>())?._id ?? null;
  }

  /** Records that `referrerId` referred the user. @returns false when the user was recorded before. */
  async record(referredUserId: string, referrerId: string, code: string, at: Date): Promise<boolean> {
    return insertOnce(this.referrals, { _id: referredUserId, referrerId, code, createdAt: at });
  }

  /** Who referred the user, or null. */
  async referrerOf(referredUserId: string): Promise<string | null> {
    return (await this.referrals.findById(referredUserId).lean<ReferralDoc>())?.referrerId ?? null;
  }

  /** Marks the referral rewarded. @returns false when it was before. */
  async markRewarded(referredUserId: string, referrerId: string, at: Date): Promise<boolean> {
    return insertOnce(this.rewards, { _id: referredUserId, referrerId, createdAt: at });
  }

  /** How many signed up with the referrer's code, and how many of them paid. */
  async counts(referrerId: string): Promise<{ signedUp: number; paid: number }> {
    const [signedUp, paid] = await Promise.all([
      this.referrals.countDocuments({ referrerId }),
      this.rewards.countDocuments({ referrerId }),
    ]);
    return { signedUp, paid };
  }
}
