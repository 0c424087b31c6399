import { randomBytes } from "node:crypto";
import { appError, badRequest, type Caller } from "@crafter/kit";
import { canOnProject, type ProjectPermission } from "@crafter/roles";
import { normalizeHostname } from "@crafter/validation";
import type { ProjectsDeps } from "../deps";
import { checkDomainInput, judge, nextStatus, recordsToCreate } from "../domain/custom-domain";
import type { CustomDomainRecord } from "../store/custom-domain.repository";
import type { Project } from "../store/project.repository";
import { projectAccess } from "./project-access";

/**
 * The project, if the caller may do `permission` on it: its owner or a member whose role allows it
 * (a member's delegated token carries its project role).
 * @throws CR_ERR_BAD_REQUEST without an id, NOT_FOUND (no access), FORBIDDEN (the role does not allow it).
 */
async function projectFor(
  deps: ProjectsDeps,
  caller: Caller,
  projectId: string,
  permission: ProjectPermission,
): Promise<Project> {
  if (!projectId) throw badRequest({ projectId: "Project id is required" });
  if (caller.delegatedProjectId) {
    const project = caller.delegatedProjectId === projectId ? await deps.stores.projects.anyById(projectId) : null;
    if (!project || project.userId !== caller.userId) throw appError("NOT_FOUND", "Project not found");
    if (!canOnProject(caller.role, permission))
      throw appError("FORBIDDEN", "Your role on this project does not allow this.");
    return project;
  }
  const access = await projectAccess(deps, caller.userId, projectId);
  if (!access) throw appError("NOT_FOUND", "Project not found");
  if (!canOnProject(access.role, permission))
    throw appError("FORBIDDEN", "Only the project's owner or a project admin manages its custom domain.");
  return access.project;
}

/** The project's custom domain, or null. @throws NOT_FOUND (no access). */
export async function getCustomDomain(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<CustomDomainRecord | null> {
  const project = await projectFor(deps, caller, input.projectId, "project.read");
  return deps.stores.customDomains.ofProject(project.id);
}

/**
 * Adds the project's custom domain with a new verification token, then checks it once (records
 * published beforehand verify at once).
 * @throws CR_ERR_BAD_REQUEST (fields.domain), NOT_FOUND, FORBIDDEN, CUSTOM_DOMAIN_TAKEN (another
 *   project's), CONFLICT (the project has a domain: remove it first).
 */
export async function addCustomDomain(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string; domain: string },
): Promise<CustomDomainRecord> {
  const { target } = deps.customDomains;
  const checked = checkDomainInput(input.domain, [target, ...deps.customDomains.platformHosts]);
  if (!checked.ok) throw badRequest({ domain: checked.message });
  const project = await projectFor(deps, caller, input.projectId, "project.settings");
  const token = `crafter-verification=${randomBytes(24).toString("base64url")}`;
  const added = await deps.stores.customDomains.add({
    domain: checked.domain,
    projectId: project.id,
    userId: project.userId,
    token,
    target,
    status: "pending",
    records: recordsToCreate(checked.domain, target, token),
    createdAt: deps.now(),
  });
  if (!added) {
    const existing = await deps.stores.customDomains.byDomain(checked.domain);
    if (existing && existing.projectId !== project.id) throw appError("CUSTOM_DOMAIN_TAKEN");
    const own = await deps.stores.customDomains.ofProject(project.id);
    if (own?.domain === checked.domain) return own;
    throw appError("CONFLICT", "This project has a custom domain already: remove it to add another.");
  }
  const domain = await deps.stores.customDomains.byDomain(checked.domain);
  if (!domain) throw appError("CONFLICT", "The domain was removed meanwhile.");
  return (await checkDomain(deps, domain)) ?? domain;
}

/**
 * Looks the domain's records up now and records the outcome.
 * @returns the domain as recorded, or null when it was removed meanwhile.
 */
export async function checkDomain(deps: ProjectsDeps, domain: CustomDomainRecord): Promise<CustomDomainRecord | null> {
  const txtName = recordsToCreate(domain.domain, domain.target, domain.token)[1]?.name ?? "";
  const [cname, txt] = await Promise.all([deps.dns.cname(domain.domain), deps.dns.txt(txtName)]);
  const verdict = judge(domain.domain, domain.target, domain.token, { cname, txt });
  const status = nextStatus(domain.status, verdict);
  const now = deps.now();
  return deps.stores.customDomains.recordCheck(domain.domain, domain.token, {
    status,
    // An inconclusive lookup keeps what the last conclusive one found.
    records: verdict.inconclusive && status === "verified" ? domain.records : verdict.records,
    problem: verdict.ok ? "" : verdict.problem,
    checkedAt: now,
    verifiedAt: verdict.ok ? (domain.status === "verified" ? (domain.verifiedAt ?? now) : now) : domain.verifiedAt,
  });
}

/** "Check now". @throws NOT_FOUND (no access, or no custom domain). */
export async function checkCustomDomain(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<CustomDomainRecord> {
  const project = await projectFor(deps, caller, input.projectId, "project.read");
  const domain = await deps.stores.customDomains.ofProject(project.id);
  if (!domain) throw appError("NOT_FOUND", "This project has no custom domain.");
  const checked = await checkDomain(deps, domain);
  if (!checked) throw appError("NOT_FOUND", "This project has no custom domain.");
  return checked;
}

/** Removes the project's custom domain (idempotent). @throws NOT_FOUND, FORBIDDEN. */
export async function removeCustomDomain(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<void> {
  const project = await projectFor(deps, caller, input.projectId, "project.settings");
  await deps.stores.customDomains.remove(project.id);
}

/**
 * The gateway's lookup: the verified domain at `host` (a read by `_id`), or the verified domain of
 * `projectId`. @throws NOT_FOUND when there is none.
 */
export async function resolveCustomDomain(
  deps: ProjectsDeps,
  input: { host: string; projectId: string },
): Promise<CustomDomainRecord> {
  const host = input.host ? normalizeHostname(input.host) : "";
  const domain = host
    ? await deps.stores.customDomains.byDomain(host)
    : input.projectId
      ? await deps.stores.customDomains.ofProject(input.projectId)
      : null;
  if (domain?.status !== "verified") throw appError("NOT_FOUND", "No verified custom domain.");
  return domain;
}

/**
 * The periodic check: domains not verified yet (or failing), and verified ones last checked
 * before `recheckVerifiedMs`, at most `limit` per run. @returns how many were checked.
 */
export async function checkDueDomains(
  deps: ProjectsDeps,
  options: { recheckVerifiedMs: number; limit: number },
): Promise<number> {
  const due = await deps.stores.customDomains.due(
    new Date(deps.now().getTime() - options.recheckVerifiedMs),
    options.limit,
  );
  for (const domain of due) {
    try {
      await checkDomain(deps, domain);
    } catch (err) {
      deps.logger.warn({ err, domain: domain.domain }, "custom domain check failed");
    }
  }
  return due.length;
}
