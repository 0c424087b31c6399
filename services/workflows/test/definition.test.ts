import type { TextActionDefinition } from "@crafter/workflow-language";
import { DefinitionError, loadDefinition } from "@crafter/workflow-language";
import { describe, expect, it } from "@jest/globals";
import { DEFINITIONS } from "../src/definitions/index";
import { DefinitionRegistry } from "../src/domain/registry";
import { COMPOSERS } from "../src/generation/offline/composers";
import { rawBlogWriter, registry } from "./fixtures";

function loadError(raw: unknown): string {
  try {
    loadDefinition(raw, { composers: COMPOSERS });
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
    expect((def.steps[0]!.action as TextActionDefinition).prompt.template).toContain("{{values.topic}}");
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

  it("loads the spec's kinds: iterator, function caller, inline commands, media steps priced by the media service", () => {
    const raw = rawBlogWriter();
    raw.steps[1].kind = "IteratorStep";
    raw.steps[1].iterator = { over: "steps.topic.result.titles" };
    raw.steps[1].action.prompt.template.push("Title {{itemIndex}}: {{item}}");
    raw.steps[0].inputs[0].showWhen = { not: { ref: "values.keywords", op: "contains", value: "x" } };
    raw.steps[1].skipWhen = { any: [{ ref: "steps.topic.values.topic", op: "hasValue" }, { all: [] }] };
    raw.steps.push(
      {
        name: "audit",
        title: "Audit",
        kind: "FormStep",
        inputs: [{ name: "site", kind: "url", label: "Site" }],
        viewer: "website audit summary",
        action: {
          kind: "FunctionCaller",
          label: "Audit",
          resultMode: "ReplaceResults",
          resultViewTrigger: "Manual",
          function: "websiteAudit",
          args: { url: "{{values.site}}" },
        },
      },
      {
        name: "picture",
        title: "Picture",
        kind: "FormStep",
        viewer: "image select",
        action: { kind: "ImageAppender", label: "Add", resultMode: "AppendResults", resultViewTrigger: "Manual" },
      },
    );
    const def = loadDefinition(raw);
    expect(def.steps[1]!.iterator).toEqual({ over: "steps.topic.result.titles", maxItems: 10 });
    const audit = def.steps[3]!.action!;
    expect(audit).toMatchObject({ kind: "FunctionCaller", credits: 0, output: { format: "data" } });
    // The media service debits the image itself (IMAGE_CREDITS): the step adds no credits of its own.
    expect(def.steps[4]!.action).toMatchObject({ kind: "ImageAppender", credits: 0 });
    expect((def.steps[0]!.action as TextActionDefinition).credits).toBe(1);
  });

  it("rejects iterators, conditions and extras that cannot work, naming the field", () => {
    const raw = rawBlogWriter();
    raw.steps[1].kind = "IteratorStep";
    raw.steps[2].iterator = { over: "steps.outline.result.content" };
    raw.steps[0].skipWhen = { ref: "steps.draft.values.x", op: "hasValue" };
    raw.steps[0].inputs[0].showWhen = { ref: "values.topic", op: "==", value: "a" };
    raw.steps[0].inputs[1].min = 3;
    raw.steps[0].action.prompt.template.push("{{item}}");
    raw.steps[0].action.kind = "promptWriterAction";
    const message = loadError(raw);
    expect(message).toContain('steps[1] "outline" → iterator: an IteratorStep needs iterator');
    expect(message).toContain('steps[2] "draft" → iterator: only an IteratorStep has an iterator');
    expect(message).toContain("iterator → over: must name a list section, not content or one item");
    expect(message).toContain('skipWhen: steps.draft.values.x: "draft" is not an earlier step');
    expect(message).toContain("showWhen: values.topic: an input cannot depend on itself");
    expect(message).toContain("→ min: only applies to number, slider, datePicker and dateRangePicker inputs");
    expect(message).toContain("{{item}}: {{item}} is only allowed in an IteratorStep's action");
    expect(message).toContain('a promptWriterAction writes a list with the section "prompts"');
  });

  it("rejects an unknown function and an unknown condition operator", () => {
    const raw = rawBlogWriter();
    raw.steps[0].inputs[0].showWhen = { ref: "values.keywords", op: "like", value: "a" };
    raw.steps[2].action = {
      kind: "FunctionCaller",
      label: "Call",
      resultMode: "ReplaceResults",
      resultViewTrigger: "Manual",
      function: "weather",
    };
    const message = loadError(raw);
    expect(message).toContain("showWhen");
    expect(message).toContain("action → function");
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

  it("refuses a definition defined twice, and one whose offline composer the engine lacks", () => {
    const raw = rawBlogWriter();
    expect(() => new DefinitionRegistry([raw, raw], COMPOSERS)).toThrow("BlogWriter v1 is defined twice");
    expect(() => new DefinitionRegistry([raw], {})).toThrow("offline → composer: unknown composer");
  });
});

describe("GetHeaders", () => {
  it("lists every workflow of the spec, available only with a definition", () => {
    const headers = registry.headers();
    expect(headers.names).toHaveLength(25);
    expect(headers.names).toEqual(
      expect.arrayContaining(["BlogWriter", "PodcastWriter", "TopicResearch", "SmartEditor"]),
    );
    // Every workflow of the spec has a definition: none is listed as unavailable.
    expect(headers.headers.filter((header) => header.available).map((header) => header.name)).toEqual(headers.names);
    expect(headers.headers.find((header) => header.name === "AdsWriter")).toMatchObject({
      available: true,
      version: 1,
    });
    expect(Object.values(headers.defaultVersions)).toEqual(headers.names.map(() => 1));
    // Tools are the available workflows usable without a project.
    const tools = ["CompetitorResearch", "KeywordResearch", "SmartEditor", "VisualDesigner", "TopicResearch"];
    expect([...headers.toolsList].sort()).toEqual([...tools].sort());
    // "New" is a badge for the few workflows released last, not for every card.
    expect([...headers.newToolsList].sort()).toEqual(["SmartEditor", "VisualDesigner"]);
    expect(
      headers.headers
        .filter((header) => header.new)
        .map((header) => header.name)
        .sort(),
    ).toEqual(["PodcastWriter", "SmartEditor", "VisualDesigner"]);
    expect(headers.headers.find((header) => header.name === "BlogWriter")).toMatchObject({
      standalone: false,
      new: false,
    });
    expect(headers.headers.find((header) => header.name === "SmartEditor")).toMatchObject({
      standalone: true,
      available: true,
    });
    const bare = new DefinitionRegistry([rawBlogWriter()], COMPOSERS).headers();
    expect(bare.names).toEqual(["BlogWriter"]);
    expect(bare.toolsList).toEqual([]);
    // The headers keep the definitions' order and take their text from the definitions.
    expect(headers.names.slice(0, 3)).toEqual(["AudienceSegmentDiscovery", "AdsWriter", "BlogWriter"]);
    const blog = DEFINITIONS.find((raw) => (raw as { name: string }).name === "BlogWriter") as {
      title: string;
      description: string;
    };
    expect(headers.headers.find((header) => header.name === "BlogWriter")).toMatchObject({
      title: blog.title,
      description: blog.description,
    });
  });

  it("lists available standalone workflows as tools, and the new ones of them", () => {
    const tool = { ...rawBlogWriter(), standalone: true, new: true };
    const headers = new DefinitionRegistry([tool], COMPOSERS).headers();
    expect(headers.toolsList).toEqual(["BlogWriter"]);
    expect(headers.newToolsList).toEqual(["BlogWriter"]);
    const quiet = { ...tool, new: false };
    expect(new DefinitionRegistry([quiet], COMPOSERS).headers().newToolsList).toEqual([]);
    const hidden = { ...tool, hidden: true };
    expect(new DefinitionRegistry([hidden], COMPOSERS).headers().names).toEqual([]);
  });

  it("serves the highest version as the default and keeps older ones", () => {
    const v2 = { ...rawBlogWriter(), version: 2 };
    const versions = new DefinitionRegistry([rawBlogWriter(), v2], COMPOSERS);
    expect(versions.latest("BlogWriter")!.version).toBe(2);
    expect(versions.get("BlogWriter", 1)!.version).toBe(1);
    expect(versions.headers().defaultVersions.BlogWriter).toBe(2);
  });
});
