import { describe, expect, it } from "@jest/globals";
import { CATALOG } from "../src/definitions/index";
import { DefinitionError, loadDefinition } from "../src/domain/definition";
import { DefinitionRegistry } from "../src/domain/registry";
import { rawBlogWriter, registry } from "./fixtures";

function loadError(raw: unknown): string {
  try {
    loadDefinition(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as Error).message;
  }
  throw new Error("the definition loaded");
}

describe("workflow definitions", () => {
  it("loads BlogWriter v1 with its three steps", () => {
    const def = loadDefinition(rawBlogWriter());
    expect(def.name).toBe("BlogWriter");
    expect(def.version).toBe(1);
    expect(def.steps.map((step) => step.name)).toEqual(["topic", "outline", "draft"]);
    expect(def.steps[0]!.action!.prompt.template).toContain("{{values.topic}}");
    expect(def.steps[0]!.inputs.find((input) => input.name === "keywords")!.required).toBe(false);
  });

  it("names the bad field of an unknown input kind", () => {
    const raw = rawBlogWriter();
    raw.steps[0].inputs[1].kind = "chips";
    const message = loadError(raw);
    expect(message).toContain("BlogWriter v1");
    expect(message).toContain('steps[0] "topic" → inputs[1] "keywords" → kind');
  });

  it("rejects a missing required field and an unknown field", () => {
    const raw = rawBlogWriter();
    delete raw.steps[1].title;
    raw.steps[1].colour = "blue";
    const message = loadError(raw);
    expect(message).toContain('steps[1] "outline" → title');
    expect(message).toMatch(/colour/);
  });

  it("rejects a defaultFrom that points at a later or unknown step", () => {
    const raw = rawBlogWriter();
    raw.steps[0].inputs[0].defaultFrom = "steps.outline.values.title";
    expect(loadError(raw)).toContain('inputs[0] "topic" → defaultFrom: "outline" is not an earlier step');
  });

  it("rejects a defaultFrom to an unknown profile field or result section", () => {
    const raw = rawBlogWriter();
    raw.steps[0].inputs[2].defaultFrom = "profile.age";
    raw.steps[1].inputs[0].defaultFrom = "steps.topic.result.headlines[0]";
    const message = loadError(raw);
    expect(message).toContain('inputs[2] "audience" → defaultFrom: unknown profile field "age"');
    expect(message).toContain('inputs[0] "title" → defaultFrom: step "topic" has no result section "headlines"');
  });

  it("rejects a prompt placeholder naming an unknown input", () => {
    const raw = rawBlogWriter();
    raw.steps[0].action.prompt.template.push("Goal: {{values.goal}}");
    expect(loadError(raw)).toContain('action → prompt → template: {{values.goal}}: step "topic" has no input "goal"');
  });

  it("rejects a select without options and a default outside them", () => {
    const raw = rawBlogWriter();
    delete raw.steps[0].inputs[3].options;
    expect(loadError(raw)).toContain('inputs[3] "tone" → options: a select input needs options');
    const other = rawBlogWriter();
    other.steps[1].inputs[2].default = "huge";
    expect(loadError(other)).toContain('inputs[2] "length" → default: "huge" is not one of the options');
  });

  it("rejects kinds the engine cannot run yet, with what it supports", () => {
    const raw = rawBlogWriter();
    raw.steps[0].action.kind = "AudioGenerator";
    raw.steps[1].kind = "IteratorStep";
    const message = loadError(raw);
    expect(message).toContain("action → kind: AudioGenerator is not supported yet (supported: TextGenerator)");
    expect(message).toContain('steps[1] "outline" → kind: IteratorStep is not supported yet');
  });

  it("checks the offline composer and framework", () => {
    const raw = rawBlogWriter();
    raw.steps[0].action.offline.composer = "poem";
    expect(loadError(raw)).toContain("offline → composer: unknown composer");
    const other = rawBlogWriter();
    other.steps[1].action.offline.framework = "AIDA";
    expect(loadError(other)).toContain("offline → framework: blogDraft writes with PAS");
  });

  it("rejects duplicate names and a resultsFrom that is not an earlier step with an action", () => {
    const raw = rawBlogWriter();
    raw.steps[1].name = "topic";
    raw.steps[2].resultsFrom = "nowhere";
    const message = loadError(raw);
    expect(message).toContain('duplicate step name "topic"');
    expect(message).toContain('resultsFrom: "nowhere" is not an earlier step');
  });

  it("refuses a definition that is not in the catalogue or is defined twice", () => {
    const raw = rawBlogWriter();
    expect(() => new DefinitionRegistry(CATALOG, [raw, raw])).toThrow("BlogWriter v1 is defined twice");
    expect(() => new DefinitionRegistry([], [raw])).toThrow("not in the catalogue");
  });
});

describe("GetHeaders", () => {
  it("lists every workflow of the spec, available only with a definition", () => {
    const headers = registry.headers();
    expect(headers.names).toHaveLength(25);
    expect(headers.names).toEqual(
      expect.arrayContaining(["BlogWriter", "PodcastWriter", "TopicResearch", "SmartEditor"]),
    );
    expect(headers.headers.filter((header) => header.available).map((header) => header.name)).toEqual(["BlogWriter"]);
    expect(headers.headers.find((header) => header.name === "AdsWriter")).toMatchObject({
      available: false,
      version: 0,
    });
    expect(headers.defaultVersions).toEqual({ BlogWriter: 1 });
    // Tools are the available workflows usable without a project; BlogWriter is not one.
    expect(headers.toolsList).toEqual([]);
    expect(headers.newToolsList).toEqual([]);
    expect(headers.headers.find((header) => header.name === "BlogWriter")).toMatchObject({
      standalone: false,
      new: true,
    });
    expect(headers.headers.find((header) => header.name === "SmartEditor")).toMatchObject({
      standalone: true,
      available: false,
    });
  });

  it("lists available standalone workflows as tools, and the new ones of them", () => {
    const catalog = CATALOG.map((entry) => (entry.name === "BlogWriter" ? { ...entry, standalone: true } : entry));
    const headers = new DefinitionRegistry(catalog, [rawBlogWriter()]).headers();
    expect(headers.toolsList).toEqual(["BlogWriter"]);
    expect(headers.newToolsList).toEqual(["BlogWriter"]);
    const quiet = catalog.map((entry) => (entry.name === "BlogWriter" ? { ...entry, new: false } : entry));
    expect(new DefinitionRegistry(quiet, [rawBlogWriter()]).headers().newToolsList).toEqual([]);
  });

  it("serves the highest version as the default and keeps older ones", () => {
    const v2 = { ...rawBlogWriter(), version: 2 };
    const versions = new DefinitionRegistry(CATALOG, [rawBlogWriter(), v2]);
    expect(versions.latest("BlogWriter")!.version).toBe(2);
    expect(versions.get("BlogWriter", 1)!.version).toBe(1);
    expect(versions.headers().defaultVersions.BlogWriter).toBe(2);
  });
});
