import { rpcAccess } from "@crafter/kit";
import { CustomDomainsService } from "@crafter/proto/crafter/projects/v1/custom_domains_pb";
import { MembersService } from "@crafter/proto/crafter/projects/v1/members_pb";
import { ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";

/**
 * Who may call each ProjectsService RPC: the gateway, and workflows (GetProfile, ListProjects,
 * GetActiveProject while a step runs), both forwarding the user's access token; and notifications
 * (ListProfiles), naming the user.
 */
export const access = rpcAccess(ProjectsService, {
  createProject: ["user"],
  listProjects: ["user"],
  getActiveProject: ["user"],
  setActiveProject: ["user"],
  getCheckList: ["user"],
  getProfile: ["user"],
  renameProject: ["user"],
  deleteProject: ["user"],
  // Also notifications, naming the user: the business's postal address an automation's email carries.
  listProfiles: ["user", "service:notifications"],
  createProfile: ["user"],
  updateProfile: ["user"],
  deleteProfile: ["user"],
  listProfileCrafts: ["user"],
  listReviews: ["user"],
  createReview: ["user"],
  importReviews: ["user"],
  replyToReview: ["user"],
  deleteReview: ["user"],
  // The Google Business Profile location, its reviews sync and its listing (the gateway, as the user).
  getGoogleBusiness: ["user"],
  listGoogleLocations: ["user"],
  chooseGoogleLocation: ["user"],
  syncGoogleReviews: ["user"],
  previewGoogleListing: ["user"],
  // Also read by workflows for every generation, with the user's token.
  getBrandVoice: ["user"],
  updateBrandVoice: ["user"],
  // The gateway's public lead pages and notifications' double opt-in email, naming the user.
  getPublicBrand: ["service:gateway", "service:notifications"],
});

/**
 * MembersService: the gateway with the user's token; the use cases check the caller's
 * role on the project (@crafter/roles). Other users are named `member_user_id`.
 */
export const membersAccess = rpcAccess(MembersService, {
  inviteMember: ["user"],
  listMembers: ["user"],
  revokeInvite: ["user"],
  removeMember: ["user"],
  acceptInvite: ["user"],
  // The gateway with a member's own token, before it calls another area in the owner's data.
  delegateAccess: ["user"],
});

/**
 * CustomDomainsService: the gateway with the user's token (the use cases check the caller's role on
 * the project); ResolveCustomDomain is the gateway's own lookup of a request's `Host`.
 */
export const customDomainsAccess = rpcAccess(CustomDomainsService, {
  getCustomDomain: ["user"],
  addCustomDomain: ["user"],
  checkCustomDomain: ["user"],
  removeCustomDomain: ["user"],
  resolveCustomDomain: ["service:gateway"],
});
