import { describe, expect, it } from "@jest/globals";
import {
  addElement,
  addStage,
  canRedo,
  canUndo,
  type Design,
  firstChild,
  fromTemplate,
  HISTORY_LIMIT,
  historyOf,
  moveElement,
  newElement,
  parseDesign,
  readableOn,
  record,
  redo,
  rememberColour,
  removeElement,
  removeStage,
  TEMPLATES,
  undo,
} from "./model";

const square = TEMPLATES.find((template) => template.id === "instagram-post");
if (!square) throw new Error("no Instagram template");

function stageOf(design: Design, index = 0) {
  const stage = design.stages[index];
  if (!stage) throw new Error("no stage");
  return stage;
}

describe("the first-child rule", () => {
  it("adds an element on top of a stage whose first child (the background) exists", () => {
    const design = fromTemplate(square);
    const stage = stageOf(design);
    const text = newElement("text", design.width, design.height);
    const next = addElement(design, stage.id, text);
    expect(stageOf(next).elements.at(-1)).toEqual(text);
    expect(stageOf(next).elements).toHaveLength(stage.elements.length + 1);
  });

  it("refuses a stage without its first child, and a stage that does not exist", () => {
    const design = fromTemplate(square);
    const stage = stageOf(design);
    const bare: Design = { ...design, stages: [{ ...stage, elements: stage.elements.slice(1) }] };
    expect(firstChild(stageOf(bare))).toBeUndefined();
    const shape = newElement("shape", design.width, design.height);
    expect(addElement(bare, stage.id, shape)).toBe(bare);
    expect(addElement(design, "no-such-stage", shape)).toBe(design);
  });

  it("never removes the background, nor moves anything below it", () => {
    const design = fromTemplate(square);
    const stage = stageOf(design);
    const background = stage.elements[0];
    if (!background) throw new Error("no background");
    expect(stageOf(removeElement(design, stage.id, background.id)).elements[0]).toEqual(background);
    const second = stage.elements[1];
    if (!second) throw new Error("no element");
    expect(stageOf(moveElement(design, stage.id, second.id, -1)).elements[0]).toEqual(background);
    expect(stageOf(moveElement(design, stage.id, second.id, 1)).elements[2]?.id).toBe(second.id);
  });
});

describe("recent colours per element", () => {
  it("stores a colour only if new, newest first", () => {
    let recent = rememberColour({}, "a", "#FF0000");
    recent = rememberColour(recent, "a", "#00ff00");
    const before = recent;
    recent = rememberColour(recent, "a", "#ff0000");
    expect(recent).toBe(before);
    expect(recent.a).toEqual(["#00ff00", "#ff0000"]);
  });

  it("keeps at most 4 per element, and elements apart", () => {
    let recent = {};
    for (const colour of ["#111111", "#222222", "#333333", "#444444", "#555555"]) {
      recent = rememberColour(recent, "a", colour);
    }
    recent = rememberColour(recent, "b", "#abcdef");
    expect(recent).toEqual({ a: ["#555555", "#444444", "#333333", "#222222"], b: ["#abcdef"] });
  });
});

describe("undo and redo", () => {
  it("undoes and redoes in order, and a new change drops the redo list", () => {
    let history = historyOf(0);
    history = record(history, 1);
    history = record(history, 2);
    history = undo(history);
    expect(history.present).toBe(1);
    expect(canRedo(history)).toBe(true);
    history = redo(history);
    expect(history.present).toBe(2);
    history = undo(undo(history));
    expect(history.present).toBe(0);
    expect(canUndo(history)).toBe(false);
    expect(undo(history)).toBe(history);
    history = record(history, 7);
    expect(canRedo(history)).toBe(false);
    expect(redo(history)).toBe(history);
  });

  it("keeps at most 50 entries: the oldest go first", () => {
    let history = historyOf(0);
    for (let value = 1; value <= 120; value += 1) history = record(history, value);
    expect(history.past.length + 1).toBe(HISTORY_LIMIT);
    while (canUndo(history)) history = undo(history);
    expect(history.present).toBe(120 - (HISTORY_LIMIT - 1));
    expect(history.future.length + 1).toBe(HISTORY_LIMIT);
  });

  it("does not record a change that is no change", () => {
    const history = historyOf({ a: 1 });
    expect(record(history, history.present)).toBe(history);
  });
});

describe("templates and pages", () => {
  it("has the networks' sizes", () => {
    const sizes = TEMPLATES.map((template) => `${template.width}x${template.height}`);
    expect(sizes).toEqual(expect.arrayContaining(["1080x1080", "1080x1920", "1200x628", "1080x1350", "1600x900"]));
  });

  it("builds a valid design with the brand's colours and headline", () => {
    for (const template of TEMPLATES) {
      const design = fromTemplate(template, { headline: "Fresh bread daily", colours: ["#102030", "#ffcc00"] });
      expect(parseDesign(JSON.parse(JSON.stringify(design)))).toEqual(design);
      const stage = stageOf(design);
      expect(firstChild(stage)?.fill).toBe("#102030");
      expect(firstChild(stage)).toMatchObject({ width: template.width, height: template.height });
      expect(stage.elements.some((element) => element.text === "Fresh bread daily")).toBe(true);
    }
  });

  it("adds pages with their own background and keeps the last page", () => {
    const design = addStage(fromTemplate(square));
    expect(design.stages).toHaveLength(2);
    expect(firstChild(stageOf(design, 1))).toMatchObject({ width: 1080, height: 1080 });
    const one = removeStage(design, stageOf(design, 0).id);
    expect(one.stages).toHaveLength(1);
    expect(removeStage(one, stageOf(one).id)).toBe(one);
  });

  it("refuses documents that are not designs", () => {
    expect(parseDesign({ name: "x", width: 10, height: 10, stages: [] })).toBeUndefined();
    expect(parseDesign("nope")).toBeUndefined();
  });
});

describe("readable text", () => {
  it("is white on dark pages and near-black on light ones", () => {
    expect(readableOn("#102030")).toBe("#ffffff");
    expect(readableOn("#ffffff")).toBe("#111111");
    expect(readableOn("#ffcc00")).toBe("#111111");
    expect(readableOn(undefined)).toBe("#111111");
  });
});
