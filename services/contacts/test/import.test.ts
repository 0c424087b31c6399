import { Readable } from "node:stream";
import { describe, expect, it } from "@jest/globals";
import { checkContactFields } from "../src/domain/contact";
import { type CustomFieldDefinition, fieldCatalogue } from "../src/domain/fields";
import { guessMapping } from "../src/domain/import-mapping";
import { consentOf, parseTags, readRow } from "../src/domain/import-row";
import { type CsvProblem, readCsv, sniffDelimiter } from "../src/import/csv";

const custom: CustomFieldDefinition[] = [{ key: "plan", label: "Plan", kind: "select", options: ["Gold", "Silver"] }];
const fields = new Map(fieldCatalogue(custom).map((field) => [field.key, field]));

async function records(text: string | Buffer) {
  const problems: CsvProblem[] = [];
  const delimiter = sniffDelimiter(text.toString());
  const out = [];
  for await (const record of readCsv(Readable.from([text]), delimiter, (p) => problems.push(p))) out.push(record);
  return { out, problems, delimiter };
}

describe("CSV edge cases", () => {
  it("drops a UTF-8 BOM and reads CRLF", async () => {
    const { out } = await records(Buffer.from("\uFEFFEmail,First Name\r\nada@example.com,Ada\r\n"));
    expect(out[0]?.cells).toEqual(["Email", "First Name"]);
    expect(out[1]).toEqual({ line: 2, cells: ["ada@example.com", "Ada"] });
  });
  it("sniffs ; as the separator and keeps quoted commas, semicolons and newlines", async () => {
    const { out, delimiter } = await records(
      'Email;Company;Notes\nada@example.com;"Lovelace; Babbage, Ltd";"two\nlines"\n',
    );
    expect(delimiter).toBe(";");
    expect(out[1]?.cells).toEqual(["ada@example.com", "Lovelace; Babbage, Ltd", "two\nlines"]);
  });
  it("skips blank lines and reports line numbers of the file", async () => {
    const { out } = await records("Email\n\nada@example.com\n\n\nbob@example.com\n");
    expect(out.map((r) => r.line)).toEqual([1, 3, 6]);
  });
  it("reads rows of other lengths", async () => {
    const { out } = await records("Email,First Name\nada@example.com\nbob@example.com,Bob,extra\n");
    expect(out.map((r) => r.cells.length)).toEqual([2, 1, 3]);
  });
  it("sniffs tabs and defaults to commas", () => {
    expect(sniffDelimiter("a\tb\tc")).toBe("\t");
    expect(sniffDelimiter("email")).toBe(",");
    expect(sniffDelimiter('"a;b",c')).toBe(",");
  });
});

describe("mapping guesses", () => {
  it("reads a Mailchimp audience export's columns", () => {
    const headers = [
      "Email Address",
      "First Name",
      "Last Name",
      "Address",
      "Phone Number",
      "Birthday",
      "MEMBER_RATING",
      "OPTIN_TIME",
      "OPTIN_IP",
      "CONFIRM_TIME",
      "CONFIRM_IP",
      "LATITUDE",
      "LONGITUDE",
      "GMTOFF",
      "DSTOFF",
      "TIMEZONE",
      "CC",
      "REGION",
      "LAST_CHANGED",
      "LEID",
      "EUID",
      "NOTES",
      "TAGS",
    ];
    const mapping = guessMapping(headers, custom);
    const byHeader = Object.fromEntries(headers.map((h, i) => [h, mapping[i]]));
    expect(byHeader).toMatchObject({
      "Email Address": "email",
      "First Name": "firstName",
      "Last Name": "lastName",
      "Phone Number": "phone",
      OPTIN_TIME: "consent.optedInAt",
      CONFIRM_TIME: null, // the first opt-in column wins
      TAGS: "tags",
      MEMBER_RATING: null,
    });
  });
  it("reads a HubSpot contacts export's columns", () => {
    const headers = [
      "Record ID",
      "First Name",
      "Last Name",
      "Email",
      "Phone Number",
      "Company Name",
      "Lifecycle Stage",
      "Create Date",
      "Unsubscribed from all email",
      "Legal basis for processing contact's data",
      "Plan",
    ];
    expect(guessMapping(headers, custom)).toEqual([
      null,
      "firstName",
      "lastName",
      "email",
      "phone",
      "company",
      "contactType",
      "customerSince",
      "consent.unsubscribedAll",
      "consent.legalBasis",
      "custom.plan",
    ]);
  });
});

describe("rows", () => {
  it("imports a good row, normalising the email and reading custom fields", () => {
    const result = readRow(
      { email: "  Ada@Example.COM ", firstName: "Ada", tags: '"VIP","newsletter",vip', "custom.plan": "gold" },
      fields,
      [],
    );
    expect(result).toEqual({
      ok: true,
      contact: {
        email: "ada@example.com",
        firstName: "Ada",
        tags: ["VIP", "newsletter"],
        consent: "pending",
        custom: { plan: "Gold" },
      },
    });
  });
  it("gives the reason of a bad row", () => {
    expect(readRow({ email: "" }, fields, [])).toEqual({ ok: false, reason: "Email is required" });
    expect(readRow({ email: "not-an-email" }, fields, [])).toEqual({
      ok: false,
      reason: "Invalid email: not-an-email",
      value: "not-an-email",
    });
    expect(readRow({ email: "a@example.com", "custom.plan": "Bronze" }, fields, [])).toEqual({
      ok: false,
      reason: "Unknown option of Plan: Bronze",
      value: "Bronze",
    });
    expect(readRow({ email: "a@example.com", contactType: "Partner" }, fields, ["Lead"])).toEqual({
      ok: false,
      reason: "Unknown contact type: Partner",
      value: "Partner",
    });
    expect(readRow({ email: "a@example.com", firstName: "x".repeat(101) }, fields, [])).toEqual({
      ok: false,
      reason: "First name is longer than 100 characters",
      value: "x".repeat(101),
    });
  });
  it("subscribes only when the file says the person opted in", () => {
    expect(consentOf({}).status).toBe("pending");
    expect(consentOf({ "consent.optedInAt": "2024-03-01 10:20:30" }).status).toBe("subscribed");
    expect(consentOf({ "consent.optedInAt": "2024-03-01", "consent.unsubscribedAt": "2024-05-01" }).status).toBe(
      "unsubscribed",
    );
    expect(consentOf({ "consent.bouncedAt": "2024-05-01" }).status).toBe("bounced");
    expect(consentOf({ "consent.unsubscribedAll": "true", consent: "yes" }).status).toBe("unsubscribed");
    expect(consentOf({ "consent.legalBasis": "Freely given consent from contact" }).status).toBe("subscribed");
    expect(consentOf({ "consent.legalBasis": "Legitimate interest – prospect/lead" }).status).toBe("pending");
    expect(consentOf({ consent: "no" }).status).toBe("unsubscribed");
    expect(consentOf({ consent: "maybe" }).status).toBe("pending");
    // European exports answer in their own language.
    expect(consentOf({ consent: "ja" }).status).toBe("subscribed");
    expect(consentOf({ consent: "Nein" }).status).toBe("unsubscribed");
    expect(consentOf({ consent: "oui" }).status).toBe("subscribed");
    expect(consentOf({ consent: "non" }).status).toBe("unsubscribed");
    expect(consentOf({ consent: "sí" }).status).toBe("subscribed");
    expect(consentOf({ consent: "não" }).status).toBe("unsubscribed");
  });
  it("reads Mailchimp's quoted tag lists", () => {
    expect(parseTags('"Customer","VIP"')).toEqual(["Customer", "VIP"]);
    expect(parseTags("a; b ,, A")).toEqual(["a", "b"]);
  });
});

describe("a contact's own time zone", () => {
  it("maps a 'Time zone' or 'Timezone' column and stores the zone's canonical name", () => {
    expect(guessMapping(["Email", "Time zone"], [])).toEqual(["email", "timeZone"]);
    expect(guessMapping(["Email", "Timezone"], [])).toEqual(["email", "timeZone"]);
    const row = readRow({ email: "ada@example.com", timeZone: "US/Pacific" }, fields, []);
    expect(row).toMatchObject({ ok: true, contact: { timeZone: "America/Los_Angeles" } });
    expect(readRow({ email: "ada@example.com", timeZone: "Europe/London" }, fields, [])).toMatchObject({
      ok: true,
      contact: { timeZone: "Europe/London" },
    });
  });

  it("refuses a row whose zone is no IANA name, with the cell", () => {
    expect(readRow({ email: "ada@example.com", timeZone: "+01:00" }, fields, [])).toEqual({
      ok: false,
      reason: "Unknown time zone: +01:00",
      value: "+01:00",
    });
  });

  it("checks a zone given on the form or the API, and clears it with an empty one", () => {
    const settings = { customFields: [], contactTypes: [] };
    const set = checkContactFields({ email: "ada@example.com", timeZone: " US/Pacific " }, settings);
    expect(set).toMatchObject({ ok: true, value: { timeZone: "America/Los_Angeles" } });
    if (!set.ok) return;
    expect(checkContactFields({ timeZone: "" }, settings, set.value)).toMatchObject({
      ok: true,
      value: { timeZone: "" },
    });
    expect(checkContactFields({ timeZone: "Mars/Olympus" }, settings, set.value)).toEqual({
      ok: false,
      fields: { timeZone: "Time zone must be an IANA name such as Europe/London" },
    });
  });
});
