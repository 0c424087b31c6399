import { DEFAULT_SETTINGS } from "@crafter/validation";
import { describe, expect, it } from "@jest/globals";
import type { Contact } from "../../api/contacts/types";
import { cellText, columnCatalogue, DEFAULT_COLUMNS, toggleColumn, visibleColumns } from "./columns";

/** A contact as GET /api/contacts answers it, with `fields` over empty defaults. */
const aContact = (fields: Partial<Contact> & Record<string, unknown>): Contact =>
  ({
    id: "",
    projectId: "p1",
    name: "",
    firstName: "",
    lastName: "",
    email: "",
    phone: "",
    company: "",
    timeZone: "",
    customerKind: "",
    contactType: "",
    tags: [],
    custom: {},
    consent: "pending",
    consentAt: null,
    source: "manual",
    customerSince: null,
    interactionCount: 0,
    updated_on: null,
    orderCount: null,
    totalSpent: null,
    spentCurrency: "",
    ...fields,
  }) as Contact;

const catalogue = columnCatalogue([
  { key: "vip", label: "VIP", type: "boolean" },
  { key: "size", label: "Shoe size", type: "number" },
]);
const keys = (columns: { key: string }[]) => columns.map((column) => column.key);

describe("customer profile columns", () => {
  it("defaults to the spec's columns, the same the settings service stores", () => {
    expect([...DEFAULT_COLUMNS]).toEqual(DEFAULT_SETTINGS.customerProfileColumns);
    expect(keys(visibleColumns(undefined, catalogue))).toEqual([...DEFAULT_COLUMNS]);
    expect(keys(visibleColumns([], catalogue))).toEqual([...DEFAULT_COLUMNS]);
  });

  it("offers custom fields as columns before the action column", () => {
    expect(keys(catalogue).slice(-3)).toEqual(["custom.vip", "custom.size", "action"]);
  });

  it("shows the saved choice in catalogue order and ignores unknown names", () => {
    expect(keys(visibleColumns(["tags", "custom.size", "gone", "email"], catalogue))).toEqual([
      "email",
      "tags",
      "custom.size",
    ]);
  });

  it("falls back to the defaults when nothing saved is known", () => {
    expect(keys(visibleColumns(["custom.deleted"], catalogue))).toEqual([...DEFAULT_COLUMNS]);
  });

  it("turns a column on and off, keeping names of other projects", () => {
    const on = toggleColumn(["name", "custom.other"], catalogue, "custom.vip", true);
    expect(on).toEqual(["name", "custom.other", "custom.vip"]);
    expect(toggleColumn(on, catalogue, "name", false)).toEqual(["custom.other", "custom.vip"]);
    expect(toggleColumn(undefined, catalogue, "tags", false)).toEqual([
      "name",
      "email",
      "customerSince",
      "updated_on",
      "action",
    ]);
  });

  it("never turns off the last visible column", () => {
    expect(toggleColumn(["email", "custom.other"], catalogue, "email", false)).toEqual(["email", "custom.other"]);
  });

  it("renders names, custom values and the two spellings of updated_on", () => {
    const contact = aContact({
      id: "1",
      email: "a@b.co",
      firstName: "Ada",
      lastName: "Lovelace",
      custom: { vip: true, size: 38 },
      tags: ["a", "b"],
      updatedOn: "2026-01-02",
    });
    expect(cellText(contact, "name")).toBe("Ada Lovelace");
    expect(cellText(contact, "custom.vip")).toBe("Yes");
    expect(cellText(contact, "custom.size")).toBe("38");
    expect(cellText(contact, "tags")).toBe("a, b");
    expect(cellText(contact, "updated_on")).toBe("2026-01-02");
    expect(cellText(aContact({ id: "2", email: "x@y.co", updated_on: "2026-03-04" }), "updated_on")).toBe("2026-03-04");
    expect(cellText(contact, "custom.missing")).toBe("");
  });
});

describe("a connected store's columns", () => {
  it("show orders, and the total spent in its currency", () => {
    const contact = aContact({ orderCount: 12, totalSpent: 1250.5, spentCurrency: "USD" });
    expect(cellText(contact, "orderCount")).toBe("12");
    expect(cellText(contact, "totalSpent")).toBe("$1,250.50");
    expect(cellText(aContact({}), "totalSpent")).toBe("");
  });
});
