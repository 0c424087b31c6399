// The import's reading of real export layouts, from fixture files written after each provider's
// documented export columns: Mailchimp's audience export, HubSpot's contacts export with its
// default lifecycle stages, Shopify's customer export, and a German shop's `;`-separated Excel file
// whose consent column says ja/nein. What the mapping step shows comes from this check.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "@jest/globals";
import { fieldCatalogue } from "../src/domain/fields";
import { ImportCheck, type ImportCheckResult } from "../src/domain/import-check";
import { guessMapping } from "../src/domain/import-mapping";
import { readCsv, sniffDelimiter } from "../src/import/csv";

const fields = new Map(fieldCatalogue([]).map((field) => [field.key, field]));
const DEFAULT_TYPES = ["lead", "customer", "partner"];
const HUBSPOT_STAGES = [
  "subscriber",
  "lead",
  "marketingqualifiedlead",
  "salesqualifiedlead",
  "opportunity",
  "customer",
  "evangelist",
  "other",
];

async function check(file: string, types = DEFAULT_TYPES, change: Record<string, string | null> = {}) {
  const data = readFileSync(join(import.meta.dirname, "fixtures", file));
  const delimiter = sniffDelimiter(data.subarray(0, 4096).toString());
  const records = [];
  for await (const record of readCsv(Readable.from([data]), delimiter, () => {})) records.push(record);
  const headers = records[0]!.cells.map((h) => h.trim());
  const mapping = guessMapping(headers, []).map((target, i) => (headers[i]! in change ? change[headers[i]!]! : target));
  const run = new ImportCheck(mapping, fields, types);
  for (const record of records.slice(1)) {
    const cells: Record<string, string> = {};
    mapping.forEach((target, i) => {
      if (target) cells[target] = record.cells[i] ?? "";
    });
    run.add(record.line, cells);
  }
  const byHeader = Object.fromEntries(headers.map((h, i) => [h, mapping[i]]));
  return { delimiter, byHeader, result: run.finish() as ImportCheckResult };
}

describe("HubSpot contacts export", () => {
  it("guesses Lifecycle Stage as contact type and shows its stages outside the list instead of failing 56 rows", async () => {
    const { byHeader, result } = await check("hubspot-contacts.csv");
    expect(byHeader).toMatchObject({
      Email: "email",
      "First Name": "firstName",
      "Last Name": "lastName",
      "Phone Number": "phone",
      "Company Name": "company",
      "Lifecycle Stage": "contactType",
      "Create Date": "customerSince",
      "Unsubscribed from all email": "consent.unsubscribedAll",
      "Legal basis for processing contact's data": "consent.legalBasis",
      "Record ID": null,
    });
    expect(result.rows).toBe(80);
    expect(result.failing).toBe(0);
    expect(result.errors).toEqual([]);
    expect(result.unknown).toHaveLength(1);
    const unknown = result.unknown[0]!;
    expect(unknown.target).toBe("contactType");
    expect(unknown.values.map((v) => v.value).sort()).toEqual(
      ["subscriber", "marketingqualifiedlead", "salesqualifiedlead", "opportunity", "evangelist", "other"].sort(),
    );
    expect(unknown.values[0]).toEqual({ value: "subscriber", count: 22 });
    expect(unknown.rows).toBe(56);
    // Every row is counted by the consent it would carry: opt-in evidence, withdrawal, or pending.
    const { consent } = result;
    expect(consent.subscribed + consent.pending + consent.unsubscribed).toBe(80);
    expect(consent.unsubscribed).toBe(6);
    expect(consent.subscribed).toBeGreaterThan(0);
    expect(consent.pending).toBeGreaterThan(0);
  });

  it("has nothing left to decide once HubSpot's stages are contact types", async () => {
    const { result } = await check("hubspot-contacts.csv", [...DEFAULT_TYPES, ...HUBSPOT_STAGES]);
    expect(result.unknown).toEqual([]);
    expect(result.failing).toBe(0);
  });
});

describe("Mailchimp audience export", () => {
  it("subscribes every member of a subscribed export from OPTIN_TIME", async () => {
    const { byHeader, result } = await check("mailchimp-subscribed.csv");
    expect(byHeader).toMatchObject({
      "Email Address": "email",
      OPTIN_TIME: "consent.optedInAt",
      CONFIRM_TIME: null,
      TAGS: "tags",
    });
    expect(result).toMatchObject({ rows: 30, failing: 0, unknown: [], duplicatesInFile: 0 });
    expect(result.consent.subscribed).toBe(30);
  });
});

describe("Shopify customers export", () => {
  it("reads Accepts Email Marketing yes/no and the default address's company", async () => {
    const { byHeader, result } = await check("shopify-customers.csv");
    expect(byHeader).toMatchObject({
      Email: "email",
      "Accepts Email Marketing": "consent",
      "Default Address Company": "company",
      "Customer ID": null,
      Tags: "tags",
    });
    expect(result).toMatchObject({ rows: 25, failing: 0, unknown: [] });
    // Customers 0, 3, 6 … 24 said no.
    expect(result.consent).toMatchObject({ subscribed: 16, unsubscribed: 9, pending: 0 });
  });
});

describe("a European `;`-separated export", () => {
  it("reads German headers, ja/nein consent and a quoted `;`, and reports the email it repeats", async () => {
    const { delimiter, byHeader, result } = await check("european-semicolon.csv");
    expect(delimiter).toBe(";");
    expect(byHeader).toMatchObject({
      "E-Mail": "email",
      Vorname: "firstName",
      Nachname: "lastName",
      Firma: "company",
      Telefon: "phone",
      Newsletter: "consent",
      Kundentyp: "contactType",
    });
    expect(result).toMatchObject({ rows: 21, failing: 0, unknown: [], duplicatesInFile: 1 });
    // Rows 0, 3, 6 … 18 said nein.
    expect(result.consent).toMatchObject({ subscribed: 13, unsubscribed: 7, pending: 0 });
  });

  it("counts a value of a skipped column nowhere", async () => {
    const { result } = await check("hubspot-contacts.csv", DEFAULT_TYPES, { "Lifecycle Stage": null });
    expect(result.unknown).toEqual([]);
  });
});
