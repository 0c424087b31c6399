import { Result } from "antd";
import useSWR from "swr";
import { fetcher } from "../../../api/api";
import { useFeature } from "../../../api/hooks/app";
import { type DesignDocument, mediaKeys } from "../../../api/media";
import type { CraftStep } from "../../../api/types";
import { ErrorState, FullPageSpin } from "../../../shared/states";
import { briefOf } from "./brief";
import { Designer } from "./DesignerPage";
import { fromTemplate, parseDesign } from "./model";

/** The design a VisualDesigner step's latest result keeps (`data.design.id`), if any. */
export function savedDesignId(step: Pick<CraftStep, "results">): string | null {
  const result = step.results?.at(-1);
  const design = (result?.data as { design?: { id?: unknown } } | undefined)?.design;
  return typeof design?.id === "string" && design.id ? design.id : null;
}

export interface CraftDesignStepProps {
  step: CraftStep;
  steps: readonly CraftStep[];
  /** Completes the step with the saved design (`{ designId }`). */
  onSave: (designId: string) => Promise<unknown>;
}

/**
 * A VisualDesigner step of a craft: the canvas opened with the brief of the steps before it applied
 * (page size, headline, brand colours, font) and its image prompts offered for generating an image;
 * once saved, the step's design (reopening it opens the same design). Saving completes the step.
 */
export default function CraftDesignStep({ step, steps, onSave }: CraftDesignStepProps) {
  const enabled = useFeature("visual_designer");
  const id = savedDesignId(step);
  const { data, error, mutate } = useSWR<DesignDocument>(id ? mediaKeys.design(id) : null, fetcher);
  if (!enabled) {
    return <Result status="info" title="The visual designer is not enabled for your account" />;
  }
  if (id && !data && !error) return <FullPageSpin label="Loading the design" />;
  if (id && !data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  const before = steps.slice(
    0,
    Math.max(
      0,
      steps.findIndex((candidate) => candidate.name === step.name),
    ),
  );
  const brief = briefOf(before);
  const saved = data
    ? parseDesign({ name: data.name, width: data.width, height: data.height, stages: data.stages })
    : undefined;
  const initial = saved ?? {
    ...fromTemplate(brief.template, brief.content),
    name: (brief.content.headline ?? step.title ?? "Design").slice(0, 120),
  };
  return (
    <div data-testid="craft-designer">
      <Designer
        key={id ?? "new"}
        initial={initial}
        savedId={saved ? id : null}
        onSaved={onSave}
        prompts={brief.prompts}
        saveLabel="Save design"
      />
    </div>
  );
}
