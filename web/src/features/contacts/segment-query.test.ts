import { describe, expect, it } from "@jest/globals";
import type { SegmentQuery } from "../../api/contacts/types";
import {
  editorFor,
  incompleteRules,
  OPERATORS_BY_KIND,
  ruleCount,
  SEGMENT_OPERATORS,
  segmentFields,
  toBuilderQuery,
  toStoredQuery,
} from "./segment-query";

const fields = segmentFields(
  [
    { key: "plan", label: "Plan", type: "select", options: ["basic", "pro"] },
    { key: "size", label: "Size", type: "number" },
    { key: "vip", label: "VIP", type: "boolean" },
  ],
  [{ key: "call", label: "Call" }],
  [{ key: "lead", label: "Lead" }],
);
const field = (name: string) => fields.find((f) => f.name === name);

describe("segment builder query", () => {
  it("offers exactly the spec's 11 operators", () => {
    expect([...SEGMENT_OPERATORS]).toEqual([
      "==",
      "!=",
      ">",
      "<",
      ">=",
      "<=",
      "hasValue",
      "in",
      "not in",
      "contains",
      "notContains",
    ]);
    expect([...OPERATORS_BY_KIND.list]).toEqual([...SEGMENT_OPERATORS]);
    const used = new Set(Object.values(OPERATORS_BY_KIND).flat());
    expect(used.size).toBe(11);
  });

  it("has contact fields, tags, consent, interaction counts and custom fields", () => {
    const names = fields.map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "email",
        "tags",
        "consent",
        "updated_on",
        "interactions.call",
        "custom.plan",
        "custom.vip",
      ]),
    );
    expect(field("interactions.call")?.kind).toBe("number");
    expect(field("custom.plan")?.values).toEqual([
      { name: "basic", label: "basic" },
      { name: "pro", label: "pro" },
    ]);
    expect(field("contactType")?.values).toEqual([{ name: "lead", label: "Lead" }]);
  });

  it("converts to the stored query with typed values and no ids", () => {
    const builder = {
      id: "root",
      combinator: "and",
      rules: [
        { id: "r1", field: "custom.size", operator: ">=", value: "38" },
        { id: "r2", field: "tags", operator: "in", value: "vip, , early " },
        { id: "r3", field: "custom.vip", operator: "==", value: "true" },
        { id: "r4", field: "email", operator: "hasValue", value: "false" },
        {
          id: "g1",
          combinator: "or",
          not: true,
          rules: [
            { id: "r5", field: "interactions.call", operator: ">", value: "2" },
            { id: "r6", field: "company", operator: "notContains", value: " Acme " },
            { id: "r7", field: "custom.plan", operator: "not in", value: ["pro"] },
          ],
        },
      ],
    } as SegmentQuery;
    expect(toStoredQuery(builder, fields)).toEqual({
      combinator: "and",
      rules: [
        { field: "custom.size", operator: ">=", value: 38 },
        { field: "tags", operator: "in", value: ["vip", "early"] },
        { field: "custom.vip", operator: "==", value: true },
        { field: "email", operator: "hasValue", value: false },
        {
          combinator: "or",
          not: true,
          rules: [
            { field: "interactions.call", operator: ">", value: 2 },
            { field: "company", operator: "notContains", value: "Acme" },
            { field: "custom.plan", operator: "not in", value: ["pro"] },
          ],
        },
      ],
    });
  });

  it("compares the tag count as a number", () => {
    const stored = toStoredQuery({ combinator: "and", rules: [{ field: "tags", operator: "<", value: "3" }] }, fields);
    expect(stored.rules[0]).toEqual({ field: "tags", operator: "<", value: 3 });
  });

  it("round-trips a stored query through the builder", () => {
    const stored: SegmentQuery = {
      combinator: "or",
      rules: [
        { field: "tags", operator: "in", value: ["a", "b"] },
        { field: "custom.plan", operator: "in", value: ["pro"] },
        { field: "custom.vip", operator: "==", value: true },
        { field: "custom.size", operator: "<=", value: 40 },
      ],
    };
    const builder = toBuilderQuery(stored, fields);
    expect(builder.rules).toEqual([
      { field: "tags", operator: "in", value: "a, b" },
      { field: "custom.plan", operator: "in", value: ["pro"] },
      { field: "custom.vip", operator: "==", value: "true" },
      { field: "custom.size", operator: "<=", value: "40" },
    ]);
    expect(toStoredQuery(builder, fields)).toEqual(stored);
  });

  it("picks the editor by field and operator", () => {
    expect(editorFor(field("custom.plan"), "in")).toBe("multiselect");
    expect(editorFor(field("custom.plan"), "==")).toBe("select");
    expect(editorFor(field("email"), "hasValue")).toBe("select");
    expect(editorFor(field("custom.vip"), "==")).toBe("select");
    expect(editorFor(field("tags"), "contains")).toBe("text");
  });

  it("counts incomplete rules so the preview waits for them", () => {
    const query: SegmentQuery = {
      combinator: "and",
      rules: [
        { field: "email", operator: "contains", value: "" },
        { field: "email", operator: "hasValue", value: "true" },
        { field: "tags", operator: "in", value: [] },
        { field: "tags", operator: "beginsWith", value: "x" },
        { combinator: "or", rules: [{ field: "company", operator: "==", value: "Acme" }] },
      ],
    };
    expect(incompleteRules(query)).toBe(3);
    expect(ruleCount(query)).toBe(5);
  });
});
