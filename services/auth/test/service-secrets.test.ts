import { describe, expect, it } from "@jest/globals";
import { parseServiceSecrets, serviceSecretMatches } from "../src/domain/service-secrets";

const A = "a".repeat(32);
const B = "b".repeat(43);

describe("parseServiceSecrets", () => {
  it("reads name=secret pairs separated by commas or newlines", () => {
    const parsed = parseServiceSecrets(`workflows=${A}, gateway=${B}\n\n`);
    if ("error" in parsed) throw new Error(parsed.error);
    expect([...parsed.secrets.keys()]).toEqual(["workflows", "gateway"]);
    expect(parseServiceSecrets("")).toEqual({ secrets: new Map() });
  });

  it("refuses short secrets, bad names and duplicates without echoing a secret", () => {
    expect(parseServiceSecrets("workflows=short")).toEqual({
      error: "the secret of workflows is shorter than 32 characters",
    });
    expect(parseServiceSecrets(`=${A}`)).toMatchObject({ error: expect.stringContaining("no valid service name") });
    expect(parseServiceSecrets(`Work Flows=${A}`)).toMatchObject({ error: expect.not.stringContaining(A) });
    expect(parseServiceSecrets(`workflows=${A},workflows=${B}`)).toEqual({ error: "workflows is listed twice" });
  });
});

describe("serviceSecretMatches", () => {
  const parsed = parseServiceSecrets(`workflows=${A},gateway=${B}`);
  const secrets = "secrets" in parsed ? parsed.secrets : new Map();

  it("accepts only the named service's own secret", () => {
    expect(serviceSecretMatches(secrets, "workflows", A)).toBe(true);
    expect(serviceSecretMatches(secrets, "workflows", B)).toBe(false);
    expect(serviceSecretMatches(secrets, "gateway", A)).toBe(false);
    expect(serviceSecretMatches(secrets, "billing", A)).toBe(false);
    expect(serviceSecretMatches(secrets, "workflows", "")).toBe(false);
  });
});
