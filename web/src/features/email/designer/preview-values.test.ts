import { describe, expect, it } from "@jest/globals";
import { PREVIEW_VALUES, previewValues } from "./preview-values";

describe("the designer preview's values", () => {
  it("uses the business profile's name and postal address, its lines joined as in the footer", () => {
    const values = previewValues({ name: "Crumb & Co.", fields: { address: "1 Mill Lane\n Bristol BS1 4DJ \n" } });
    expect(values["business.name"]).toBe("Crumb & Co.");
    expect(values["business.address"]).toBe("1 Mill Lane, Bristol BS1 4DJ");
    expect(values["contact.firstName"]).toBe("Ada");
  });

  it("falls back to the samples for what the profile lacks", () => {
    expect(previewValues(undefined)).toEqual(PREVIEW_VALUES);
    expect(previewValues({ name: " ", fields: { address: "  " } })).toEqual(PREVIEW_VALUES);
    const nameOnly = previewValues({ name: "Crumb & Co.", fields: {} });
    expect(nameOnly["business.name"]).toBe("Crumb & Co.");
    expect(nameOnly["business.address"]).toBe(PREVIEW_VALUES["business.address"]);
  });
});
