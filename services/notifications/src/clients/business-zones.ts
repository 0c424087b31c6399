import { createServiceClient, modelOn, type ServiceCredentials } from "@crafter/kit";
import { ProfileType, ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import { canonicalTimeZone, UTC } from "@crafter/time";
import { type Connection, Schema } from "mongoose";

/** The business time zone of each project, as notifications computes its days and hours in it. */
export interface BusinessZonesPort {
  /**
   * The project's IANA time zone: its business profile's `timeZone`, UTC when it has none (or
   * when it cannot be learnt now; the next read asks again). A read by `_id` of a local copy.
   */
  zoneOf(userId: string, projectId: string): Promise<string>;
  /** Keeps the zone a projects event carried ("" for none: UTC). */
  remember(userId: string, projectId: string, timeZone: string): Promise<void>;
}

interface ZoneDoc {
  /** The project id. */
  _id: string;
  userId: string;
  /** Canonical IANA name; "" when the business has none. */
  timeZone: string;
  at: Date;
}

const zoneSchema = new Schema<ZoneDoc>(
  { _id: String, userId: String, timeZone: String, at: Date },
  { collection: "business_zones", versionKey: false },
);

/**
 * The project's zones, kept from projects' ProjectCreated and ProfileUpdated events (which carry
 * the business's zone); a project not seen yet (made before this copy existed) is read once from
 * the projects service with the notifications service's token (ListProfiles naming the user).
 */
export function businessZones(
  connection: Connection,
  projects?: { url: string; timeoutMs: number; credentials: ServiceCredentials },
): BusinessZonesPort {
  const zones = modelOn<ZoneDoc>(connection, "BusinessZone", zoneSchema);
  const service = projects
    ? createServiceClient(ProjectsService, projects.url, {
        timeoutMs: projects.timeoutMs,
        as: "service",
        credentials: projects.credentials,
      })
    : undefined;
  const remember = async (userId: string, projectId: string, timeZone: string) => {
    const zone = canonicalTimeZone(timeZone) ?? "";
    await zones.replaceOne({ _id: projectId }, { userId, timeZone: zone, at: new Date() }, { upsert: true });
  };
  return {
    remember,
    async zoneOf(userId, projectId) {
      const known = await zones.findById(projectId).lean<ZoneDoc>();
      if (known) return known.timeZone || UTC;
      if (!service) return UTC;
      try {
        const { profiles } = await service.listProfiles({ userId, projectId, type: ProfileType.PROJECT });
        const raw = profiles[0]?.fields?.timeZone;
        const zone = typeof raw === "string" ? raw : "";
        if (profiles[0]) await remember(userId, projectId, zone);
        return canonicalTimeZone(zone) ?? UTC;
      } catch {
        // Projects away: UTC this time, asked again next time.
        return UTC;
      }
    },
  };
}
