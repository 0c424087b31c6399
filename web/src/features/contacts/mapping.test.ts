import { describe, expect, it } from "@jest/globals";
import {
  assignTarget,
  countOf,
  customFieldKeyFor,
  fileProblem,
  importPercent,
  listKeyFor,
  mappingFromServer,
  mappingProblems,
  mappingShape,
  mappingToServer,
  previewRows,
  targetOptions,
} from "./mapping";

const headers = ["Email Address", "First Name", "Plan"];

describe("import mapping", () => {
  it("reads the service's guess as a list or as an object", () => {
    expect(mappingFromServer(headers, ["email", "firstName", null])).toEqual(["email", "firstName", null]);
    expect(mappingFromServer(headers, { "Email Address": "email", Plan: "custom.plan" })).toEqual([
      "email",
      null,
      "custom.plan",
    ]);
    expect(mappingFromServer(headers, undefined)).toEqual([null, null, null]);
    expect(
      mappingFromServer(headers, [
        { header: "Email Address", target: "email" },
        { header: "First Name", target: null },
        { header: "Plan", target: "custom.plan" },
      ]),
    ).toEqual(["email", null, "custom.plan"]);
  });

  it("sends back the shape it got", () => {
    const mapping = ["email", null, "custom.plan"];
    expect(mappingShape({ a: "email" })).toBe("object");
    expect(mappingShape(["email", null])).toBe("list");
    expect(mappingShape([{ header: "a", target: null }])).toBe("entries");
    expect(mappingToServer(headers, mapping, "entries")).toEqual([
      { header: "Email Address", target: "email" },
      { header: "First Name", target: null },
      { header: "Plan", target: "custom.plan" },
    ]);
    expect(mappingToServer(headers, mapping, "list")).toEqual(mapping);
    expect(mappingToServer(headers, mapping, "object")).toEqual({
      "Email Address": "email",
      "First Name": null,
      Plan: "custom.plan",
    });
  });

  it("maps each field from one column only", () => {
    expect(assignTarget(["email", "firstName", null], 2, "email")).toEqual([null, "firstName", "email"]);
    expect(assignTarget(["email", "firstName", null], 1, null)).toEqual(["email", null, null]);
  });

  it("needs the email mapped", () => {
    expect(mappingProblems([null, "firstName"])).toHaveLength(1);
    expect(mappingProblems(["email"])).toEqual([]);
  });

  it("offers custom fields and keeps unknown server targets", () => {
    const options = targetOptions([{ key: "plan", label: "Plan", type: "select", options: ["a"] }], ["source"]);
    expect(options.find((o) => o.value === "custom.plan")?.label).toBe("Plan");
    expect(options.some((o) => o.value === "source")).toBe(true);
    expect(options.some((o) => o.value === "consent.optedInAt")).toBe(true);
  });

  it("aligns preview rows with the headers", () => {
    expect(previewRows(headers, [["a@b.co", "Ann"]])).toEqual([["a@b.co", "Ann", ""]]);
    expect(previewRows(headers, [{ "Email Address": "a@b.co", Plan: "pro" }])).toEqual([["a@b.co", "", "pro"]]);
    expect(previewRows(headers, null)).toEqual([]);
  });

  it("refuses empty, oversized and non-CSV files with a clear message", () => {
    expect(fileProblem({ name: "a.csv", size: 0 })).toBe("This file is empty.");
    expect(fileProblem({ name: "a.csv", size: 21 * 1024 * 1024 })).toContain("at most 20 MB");
    expect(fileProblem({ name: "a.xlsx", size: 10 })).toBe("Choose a CSV file (.csv).");
    expect(fileProblem({ name: "a.CSV", size: 10 })).toBeNull();
  });

  it("computes the progress", () => {
    expect(importPercent({ processed: 50, total: 200 })).toBe(25);
    expect(importPercent({ processed: 3, total: 0 })).toBe(0);
    expect(importPercent(null)).toBe(0);
    expect(importPercent({ processed: 10, total: 10 })).toBe(100);
  });
});

describe("import helpers", () => {
  it("counts with English plurals and grouped digits", () => {
    expect(countOf(1, "row")).toBe("1 row");
    expect(countOf(0, "row")).toBe("0 rows");
    expect(countOf(1200, "contact")).toBe("1,200 contacts");
    expect(countOf(2, "person", "people")).toBe("2 people");
  });
  it("makes a unique custom field key from a header", () => {
    expect(customFieldKeyFor("Lifecycle Stage", [])).toBe("lifecycleStage");
    expect(customFieldKeyFor("Lifecycle Stage", ["lifecyclestage"])).toBe("lifecycleStage2");
    expect(customFieldKeyFor("Étape du cycle", [])).toBe("etapeDuCycle");
    expect(customFieldKeyFor("***", [])).toBe("column");
  });
  it("makes a settings key from a value", () => {
    expect(listKeyFor("marketingqualifiedlead", ["lead"])).toBe("marketingqualifiedlead");
    expect(listKeyFor("Sales Qualified Lead", [])).toBe("Sales_Qualified_Lead");
    expect(listKeyFor("Lead", ["lead"])).toBe("Lead2");
  });
});
