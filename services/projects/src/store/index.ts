import type { OutboxModel } from "@crafter/kit";
import type { Connection } from "mongoose";
import { ActiveProjectRepository, activeProjectModel } from "./active-project.repository";
import { CustomDomainRepository, customDomainModel } from "./custom-domain.repository";
import { GoogleLocationRepository, googleLocationModel } from "./google-location.repository";
import { MemberRepository, memberModels } from "./member.repository";
import { ProfileRepository, profileModel } from "./profile.repository";
import { ProjectRepository, projectModel } from "./project.repository";
import { ProjectCraftRepository, projectCraftModel } from "./project-craft.repository";
import { ProjectDeletionRepository, projectDeletionModel } from "./project-deletion.repository";
import { ReviewRepository, reviewModel } from "./review.repository";

/** Every repository of the projects service, over its own database. */
export interface ProjectsStores {
  projects: ProjectRepository;
  profiles: ProfileRepository;
  active: ActiveProjectRepository;
  crafts: ProjectCraftRepository;
  reviews: ReviewRepository;
  /** The Google Business Profile location chosen per project, and its last sync. */
  googleLocations: GoogleLocationRepository;
  deletions: ProjectDeletionRepository;
  /** Team members and their invitations. */
  members: MemberRepository;
  /** Custom domains (`_id` the domain). */
  customDomains: CustomDomainRepository;
  /** Models whose documents carry an outbox (relayed to Kafka by the kit). */
  outbox: OutboxModel[];
}

/** Builds the repositories and waits until their indexes exist (the unique ones are the concurrency guards). */
export async function createStores(connection: Connection): Promise<ProjectsStores> {
  const models = {
    projects: projectModel(connection),
    profiles: profileModel(connection),
    active: activeProjectModel(connection),
    crafts: projectCraftModel(connection),
    reviews: reviewModel(connection),
    googleLocations: googleLocationModel(connection),
    deletions: projectDeletionModel(connection),
    ...memberModels(connection),
    customDomains: customDomainModel(connection),
  };
  await Promise.all(Object.values(models).map((model) => model.init()));
  return {
    projects: new ProjectRepository(models.projects),
    profiles: new ProfileRepository(models.profiles),
    active: new ActiveProjectRepository(models.active),
    crafts: new ProjectCraftRepository(models.crafts),
    reviews: new ReviewRepository(models.reviews),
    googleLocations: new GoogleLocationRepository(models.googleLocations),
    deletions: new ProjectDeletionRepository(models.deletions),
    members: new MemberRepository(models),
    customDomains: new CustomDomainRepository(models.customDomains),
    outbox: [models.projects, models.profiles, models.deletions, models.invites, models.reviews],
  };
}
