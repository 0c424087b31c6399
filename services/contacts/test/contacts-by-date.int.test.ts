// ListContactsByDate on the test stack: the automations' date_field trigger pages a project's
// contacts whose date field falls on a month-day (UTC) by their month-day facet, as notifications.
import { randomUUID } from "node:crypto";
import { createServiceClient } from "@crafter/kit";
import { type GatewaySession, stackEnv, stackServiceCredentials } from "@crafter/kit/testing";
import { ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import { userWithProject } from "./helpers";

jest.setTimeout(60_000);

const rpc = () =>
  createServiceClient(ContactsService, stackEnv().CONTACTS_URL!, {
    timeoutMs: 20_000,
    as: "service",
    credentials: stackServiceCredentials("notifications"),
  });

let owner: GatewaySession;
let projectId: string;
let userId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ session: owner, projectId } = await userWithProject("by-date"));
  const token = owner.cookies.get("crafter_at")!;
  userId = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sub as string;
  const fields = await owner.put(`/api/contacts/settings/custom-fields?projectId=${projectId}`, [
    { key: "birthday", label: "Birthday", type: "date" },
    { key: "plan", label: "Plan", type: "text" },
  ]);
  expect(fields.status).toBe(200);
  const people: Record<string, Record<string, unknown>> = {
    ada: { custom: { birthday: "1990-12-10" } },
    bob: { custom: { birthday: "1985-12-10T22:00:00Z" } },
    cy: { custom: { birthday: "1990-12-11" } },
    leap: { custom: { birthday: "1992-02-29" } },
    since: { customerSince: "2020-12-10T00:00:00Z" },
  };
  for (const [name, fields] of Object.entries(people)) {
    const created = await owner.post(`/api/contacts?projectId=${projectId}`, {
      email: `${name}-${randomUUID().slice(0, 6)}@example.test`,
      ...fields,
    });
    expect(created.status).toBe(201);
    ids[name] = created.body.result.id;
  }
});

describe("ListContactsByDate", () => {
  it("finds the contacts whose date falls on the month-day, page by page", async () => {
    const first = await rpc().listContactsByDate({
      userId,
      projectId,
      field: "custom.birthday",
      monthDays: ["12-10"],
      limit: 1,
    });
    expect(first.contacts).toHaveLength(1);
    expect(first.next).toBe(first.contacts[0]!.contactId);
    const second = await rpc().listContactsByDate({
      userId,
      projectId,
      field: "custom.birthday",
      monthDays: ["12-10"],
      limit: 1,
      after: first.next,
    });
    const third = await rpc().listContactsByDate({
      userId,
      projectId,
      field: "custom.birthday",
      monthDays: ["12-10"],
      limit: 1,
      after: second.next,
    });
    expect(third).toMatchObject({ contacts: [], next: "" });
    expect([...first.contacts, ...second.contacts].map((c) => c.contactId).sort()).toEqual([ids.ada, ids.bob].sort());
    // 29 February rides with the 28th; Customer since is a date field too.
    const leap = await rpc().listContactsByDate({
      userId,
      projectId,
      field: "custom.birthday",
      monthDays: ["02-28", "02-29"],
    });
    expect(leap.contacts.map((c) => c.contactId)).toEqual([ids.leap]);
    const since = await rpc().listContactsByDate({ userId, projectId, field: "customerSince", monthDays: ["12-10"] });
    expect(since.contacts.map((c) => c.contactId)).toEqual([ids.since]);
  });

  it("refuses a field that is not a date field, a bad month-day, and a user's own token", async () => {
    for (const [field, monthDays] of [
      ["custom.plan", ["12-10"]],
      ["updated_on", ["12-10"]],
      ["custom.birthday", ["December 10"]],
      ["custom.birthday", []],
    ] as const) {
      await expect(rpc().listContactsByDate({ userId, projectId, field, monthDays: [...monthDays] })).rejects.toThrow(
        /date|MM-DD/,
      );
    }
    const asUser = createServiceClient(ContactsService, stackEnv().CONTACTS_URL!, { timeoutMs: 20_000 });
    await expect(
      asUser.listContactsByDate(
        { userId, projectId, field: "custom.birthday", monthDays: ["12-10"] },
        { headers: { authorization: `Bearer ${owner.cookies.get("crafter_at")}` } },
      ),
    ).rejects.toThrow(/not allowed|permission/i);
  });
});
