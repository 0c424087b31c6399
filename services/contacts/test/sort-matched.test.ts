import { describe, expect, it } from "@jest/globals";
import type { StoredContact } from "../src/store/contact.repository";
import type { ProjectSnapshot, SnapshotEntry } from "../src/store/contact-snapshot";
import { sortContacts, sortMatched } from "../src/usecases/query";

const contact = (n: number): StoredContact =>
  ({
    _id: `c${n}`,
    email: `p${n}@example.test`,
    firstName: `Name${(n * 7919) % 6007}`,
    lastName: "",
    updatedOn: new Date(1_700_000_000_000 + ((n * 104_729) % 9_973) * 60_000),
  }) as StoredContact;

function snapshot(count: number): ProjectSnapshot & { entries: Map<string, SnapshotEntry>; version: number } {
  const entries = new Map<string, SnapshotEntry>();
  for (let n = 0; n < count; n++) entries.set(`c${n}`, { contact: contact(n), words: [] });
  return { entries, version: 1 };
}

describe("sortMatched", () => {
  it("orders a large match as sortContacts does, from the project's kept order", () => {
    const project = snapshot(6_000);
    const all = [...project.entries.values()].map((e) => e.contact);
    const some = all.filter((_, i) => i % 3 !== 0);
    for (const field of ["updated_on", "name"] as const) {
      expect(sortMatched({ contacts: all, snapshot: project }, field, true)).toEqual(sortContacts(all, field, true));
      expect(sortMatched({ contacts: some, snapshot: project }, field, false)).toEqual(
        sortContacts(some, field, false),
      );
    }
  });

  it("sorts again after the snapshot changed", () => {
    const project = snapshot(6_000);
    const all = () => [...project.entries.values()].map((e) => e.contact);
    const before = sortMatched({ contacts: all(), snapshot: project }, "updated_on", true);
    expect(before[0]!._id).not.toBe("c1");
    project.entries.set("c1", { contact: { ...contact(1), updatedOn: new Date(1_900_000_000_000) }, words: [] });
    project.version++;
    expect(sortMatched({ contacts: all(), snapshot: project }, "updated_on", true)[0]!._id).toBe("c1");
  });
});
