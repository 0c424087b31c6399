import { DEFINITIONS, TEST_DEFINITIONS } from "../src/definitions/index";
import { DefinitionRegistry } from "../src/domain/registry";
import type { ProfileSnapshot } from "../src/domain/types";
import { COMPOSERS } from "../src/generation/offline/composers";

export const registry = new DefinitionRegistry(DEFINITIONS, COMPOSERS);
export const blogWriter = registry.latest("BlogWriter")!;

export const profile: ProfileSnapshot = {
  profileId: "profile-1",
  name: "Crumb & Co",
  description: "We bake slow-fermented sourdough in small batches in Leeds.",
  audience: "home bakers",
  keywords: ["sourdough starter", "wild yeast"],
  websiteUrl: "https://crumb.example.com",
};

/** A deep copy of raw BlogWriter data to break in definition tests. */
export function rawBlogWriter(): any {
  return structuredClone(DEFINITIONS.find((raw) => (raw as { name: string }).name === "BlogWriter"));
}

/** The hidden EngineCheck workflow: every engine feature (test stack fixture). */
export const engineCheck = new DefinitionRegistry(TEST_DEFINITIONS, COMPOSERS).latest("EngineCheck")!;
