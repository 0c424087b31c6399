import { type GatewaySession, verifiedSession } from "@crafter/kit/testing";
import { expect } from "@jest/globals";

/** A verified user with one project (the active one). @returns the session, the project and its business profile. */
export async function userWithProject(
  prefix: string,
): Promise<{ session: GatewaySession; projectId: string; profileId: string; email: string }> {
  const { session, email } = await verifiedSession(prefix);
  const created = await session.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
  });
  expect(created.status).toBe(201);
  return {
    session,
    email,
    projectId: created.body.result.project.projectId,
    profileId: created.body.result.profile.profileId,
  };
}

export const patch = (s: GatewaySession, path: string, body: unknown) => s.request("PATCH", path, body);
export const del = (s: GatewaySession, path: string) => s.request("DELETE", path, {});

/** A raw GET (non-enveloped answers: CSV downloads). */
export async function rawGet(s: GatewaySession, path: string): Promise<{ status: number; type: string; text: string }> {
  const cookie = [...s.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const response = await fetch(`${s.baseUrl}${path}`, { headers: { cookie } });
  return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() };
}
