/** A project role as the team's pages name it. */
export const ROLE_LABELS: Record<string, string> = {
  owner: "Owner",
  manager: "Manager",
  projectAdmin: "Project admin",
};
