import { describe, expect, it } from "@jest/globals";
import { assignableRoles, can, canOnProject, PERMISSIONS, ROLES } from "../src";

describe("roles table", () => {
  it("lets only superadmin and admin see and use Admin", () => {
    const admins = ROLES.filter((role) => can(role, "admin.view"));
    expect(admins).toEqual(["superadmin", "admin"]);
    for (const permission of Object.keys(PERMISSIONS) as (keyof typeof PERMISSIONS)[]) {
      if (!permission.startsWith("admin.")) continue;
      for (const role of ["owner", "manager", "projectAdmin", "tester", "guest"]) {
        expect(can(role, permission)).toBe(false);
      }
    }
  });

  it("refuses unknown, empty and service roles", () => {
    expect(can("service", "admin.view")).toBe(false);
    expect(can("", "app.use")).toBe(false);
    expect(can(undefined, "app.use")).toBe(false);
    expect(can("guest", "app.use")).toBe(false);
    expect(can("owner", "app.use")).toBe(true);
  });

  it("keeps role changes for superadmin and never hands out superadmin", () => {
    expect(can("admin", "admin.roles.write")).toBe(false);
    expect(assignableRoles("admin")).toEqual([]);
    expect(assignableRoles("superadmin")).not.toContain("superadmin");
  });

  it("lets only a project's owner manage its members; managers write but do not configure", () => {
    expect(canOnProject("owner", "project.members")).toBe(true);
    expect(canOnProject("projectAdmin", "project.members")).toBe(false);
    expect(canOnProject("projectAdmin", "project.settings")).toBe(true);
    expect(canOnProject("manager", "project.settings")).toBe(false);
    expect(canOnProject("manager", "project.write")).toBe(true);
    expect(canOnProject("guest", "project.read")).toBe(false);
  });
});
