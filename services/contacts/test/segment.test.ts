import { describe, expect, it } from "@jest/globals";
import { type ContactState, missingMonthDayFacets } from "../src/domain/contact";
import { type CustomFieldDefinition, fieldCatalogue } from "../src/domain/fields";
import {
  contactFacets,
  matches,
  monthDayFacet,
  OPERATORS,
  requiredFacets,
  type SegmentContact,
  type SegmentGroup,
  type SegmentRule,
  validateSegment,
} from "../src/domain/segment";

const custom: CustomFieldDefinition[] = [
  { key: "plan", label: "Plan", kind: "select", options: ["Gold", "Silver"] },
  { key: "visits", label: "Visits", kind: "number" },
  { key: "birthday", label: "Birthday", kind: "date" },
  { key: "vip", label: "VIP", kind: "boolean" },
  { key: "notes", label: "Notes", kind: "text" },
];
const catalogue = fieldCatalogue(custom);
const fields = new Map(catalogue.map((field) => [field.key, field]));

const ada: SegmentContact = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  company: "Analytical Engines",
  consent: "subscribed",
  customerKind: "business",
  tags: ["VIP", "newsletter"],
  interactions: ["call", "meeting", "call"],
  customerSince: "2021-05-01T00:00:00Z",
  custom: { plan: "Gold", visits: 12, birthday: "1990-12-10", vip: true, notes: "Prefers email" },
};
const bob: SegmentContact = { firstName: "Bob", email: "bob@example.com", consent: "pending", tags: [], custom: {} };

const one = (rule: SegmentRule, contact: SegmentContact) =>
  matches({ combinator: "and", rules: [rule] }, fields, contact);

describe("segment operators over every field kind", () => {
  const table: Array<[string, SegmentRule, boolean, boolean]> = [
    // text
    ["text ==, any case", { field: "firstName", operator: "==", value: "ada" }, true, false],
    ["text !=", { field: "firstName", operator: "!=", value: "Ada" }, false, true],
    ["text contains", { field: "company", operator: "contains", value: "engine" }, true, false],
    [
      "text notContains (missing value counts as not containing)",
      { field: "company", operator: "notContains", value: "engine" },
      false,
      true,
    ],
    ["text in", { field: "firstName", operator: "in", value: ["Bob", "Ada"] }, true, true],
    ["text not in", { field: "firstName", operator: "not in", value: ["Bob"] }, true, false],
    ["text hasValue true", { field: "company", operator: "hasValue", value: true }, true, false],
    ["text hasValue false", { field: "company", operator: "hasValue", value: false }, false, true],
    // select (built-in and custom)
    ["select ==", { field: "consent", operator: "==", value: "subscribed" }, true, false],
    ["select !=", { field: "consent", operator: "!=", value: "subscribed" }, false, true],
    ["custom select in", { field: "custom.plan", operator: "in", value: ["gold"] }, true, false],
    ["custom select not in", { field: "custom.plan", operator: "not in", value: ["Gold"] }, false, true],
    // number
    ["number >", { field: "custom.visits", operator: ">", value: 10 }, true, false],
    ["number <", { field: "custom.visits", operator: "<", value: "12" }, false, false],
    ["number >=", { field: "custom.visits", operator: ">=", value: 12 }, true, false],
    ["number <=", { field: "custom.visits", operator: "<=", value: 12 }, true, false],
    ["number ==", { field: "custom.visits", operator: "==", value: "12" }, true, false],
    ["number != (missing is different)", { field: "custom.visits", operator: "!=", value: 12 }, false, true],
    // date
    ["date >", { field: "customerSince", operator: ">", value: "2021-01-01" }, true, false],
    ["date <", { field: "custom.birthday", operator: "<", value: "2000-01-01" }, true, false],
    ["date hasValue", { field: "customerSince", operator: "hasValue", value: true }, true, false],
    // boolean
    ["boolean == true", { field: "custom.vip", operator: "==", value: true }, true, false],
    ["boolean == 'false'", { field: "custom.vip", operator: "==", value: "false" }, false, false],
    ["boolean !=", { field: "custom.vip", operator: "!=", value: true }, false, true],
    // list (tags, interactions)
    ["list contains, any case", { field: "tags", operator: "contains", value: "vip" }, true, false],
    ["list notContains", { field: "tags", operator: "notContains", value: "vip" }, false, true],
    ["list ==", { field: "tags", operator: "==", value: "newsletter" }, true, false],
    ["list in (any of)", { field: "tags", operator: "in", value: ["x", "newsletter"] }, true, false],
    ["list not in (none of)", { field: "tags", operator: "not in", value: ["x", "newsletter"] }, false, true],
    ["list count >", { field: "interactions", operator: ">", value: 2 }, true, false],
    ["list count <=", { field: "interactions", operator: "<=", value: 0 }, false, true],
    ["list hasValue false", { field: "tags", operator: "hasValue", value: false }, false, true],
  ];
  it.each(table)("%s", (_name, rule, forAda, forBob) => {
    expect(validateSegment({ combinator: "and", rules: [rule] }, fields)).toEqual([]);
    expect(one(rule, ada)).toBe(forAda);
    expect(one(rule, bob)).toBe(forBob);
  });

  it("covers all 11 operators of the spec", () => {
    expect(new Set(table.map(([, rule]) => rule.operator))).toEqual(new Set(OPERATORS));
  });
});

describe("nesting", () => {
  const tree: SegmentGroup = {
    combinator: "and",
    rules: [
      { field: "consent", operator: "==", value: "subscribed" },
      {
        combinator: "or",
        rules: [
          { field: "tags", operator: "contains", value: "vip" },
          { field: "custom.visits", operator: ">", value: 100 },
        ],
      },
    ],
  };
  it("combines and/or and negation", () => {
    expect(matches(tree, fields, ada)).toBe(true);
    expect(matches({ ...tree, not: true }, fields, ada)).toBe(false);
    expect(matches(tree, fields, { ...ada, tags: [] })).toBe(false);
    expect(matches(tree, fields, bob)).toBe(false);
  });
  it("narrows by the facets every match must carry", () => {
    expect(requiredFacets(tree, fields)).toEqual(["consent:subscribed"]);
    expect(requiredFacets({ combinator: "or", rules: tree.rules }, fields)).toEqual([]);
    expect(requiredFacets({ ...tree, not: true }, fields)).toEqual([]);
    const facets = contactFacets(ada, catalogue);
    expect(facets).toEqual(
      expect.arrayContaining(["consent:subscribed", "tags:vip", "custom.plan:gold", "custom.vip:true"]),
    );
    // Every contact that matches carries the required facets, so narrowing never loses one.
    for (const facet of requiredFacets(tree, fields)) expect(facets).toContain(facet);
  });
  it("gives every date field but updated_on a month-day facet in UTC, for the date_field trigger", () => {
    const facets = contactFacets({ ...ada, updated_on: "2024-03-04T10:00:00Z" }, catalogue);
    expect(facets).toEqual(
      expect.arrayContaining([monthDayFacet("custom.birthday", "12-10"), monthDayFacet("customerSince", "05-01")]),
    );
    expect(monthDayFacet("custom.birthday", "12-10")).toBe("custom.birthday@md:12-10");
    expect(facets.filter((f) => f.startsWith("updated_on"))).toEqual([]);
    // 23:30 at UTC−5 is already the next day in UTC.
    expect(contactFacets({ ...bob, customerSince: "2020-02-28T23:30:00-05:00" }, catalogue)).toContain(
      "customerSince@md:02-29",
    );
    expect(contactFacets({ ...bob, custom: { birthday: "not a date" } }, catalogue)).toEqual(
      expect.not.arrayContaining([expect.stringContaining("@md:")]),
    );
  });
  it("names the month-day facets a contact saved before them lacks, and none once it has them", () => {
    const old: ContactState & { facets: string[] } = {
      firstName: "Ada",
      lastName: "",
      email: "ada@example.com",
      phone: "",
      company: "",
      customerKind: "",
      contactType: "",
      tags: ["vip"],
      custom: { birthday: new Date("1990-12-10T00:00:00Z"), notes: "x" },
      customerSince: new Date("2021-05-01T00:00:00Z"),
      source: "manual",
      consent: "subscribed",
      updatedOn: new Date("2024-03-04T10:00:00Z"),
      interactionCounts: {},
      facets: ["tags:vip", "consent:subscribed"],
    };
    expect(missingMonthDayFacets(old, custom).sort()).toEqual(["custom.birthday@md:12-10", "customerSince@md:05-01"]);
    expect(missingMonthDayFacets({ ...old, facets: [...old.facets, "custom.birthday@md:12-10"] }, custom)).toEqual([
      "customerSince@md:05-01",
    ]);
    expect(missingMonthDayFacets({ ...old, customerSince: undefined, custom: {} }, custom)).toEqual([]);
    // A field the project no longer defines gives no facet.
    expect(missingMonthDayFacets({ ...old, customerSince: undefined }, [])).toEqual([]);
  });
});

describe("validation", () => {
  it("names unknown fields, wrong operators and bad values", () => {
    const problems = validateSegment(
      {
        combinator: "and",
        rules: [
          { field: "nope", operator: "==", value: "x" },
          { field: "custom.vip", operator: "contains", value: "x" },
          { field: "custom.visits", operator: ">", value: "many" },
          { field: "custom.plan", operator: "==", value: "Bronze" },
          { field: "firstName", operator: "in", value: [] },
        ],
      },
      fields,
    );
    expect(problems.map((p) => p.message)).toEqual([
      "Unknown field nope",
      "VIP does not take the operator contains",
      "Visits: many is not a number",
      "Plan: Bronze is not one of its options",
      "First name: choose at least one value",
    ]);
  });
  it("limits depth", () => {
    let tree: SegmentGroup = { combinator: "and", rules: [{ field: "firstName", operator: "==", value: "a" }] };
    for (let i = 0; i < 6; i++) tree = { combinator: "and", rules: [tree] };
    expect(validateSegment(tree, fields).some((p) => p.message.includes("nest"))).toBe(true);
  });
});
