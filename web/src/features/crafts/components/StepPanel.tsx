import { BgColorsOutlined, EditOutlined, EyeOutlined, StepForwardOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Descriptions, Divider, Empty, Flex, Tag } from "antd";
import { lazy, memo, Suspense, useState } from "react";
import { useFeature } from "../../../api/hooks/app";
import type { CraftStep } from "../../../api/types";
import { LinkButton } from "../../../shared/LinkButton";
import { LoadingBlock } from "../../../shared/states";
import { emailStepPanel, isEmailCraft, PourIntoTemplateButton } from "../../email/craft-steps";
import { identityDesignerHref } from "../../media/designer/brief";
import { isDesignStep, isMediaStep, isSkippedStep, keepsAssets } from "../actions";
import { ResultsPanel } from "./ResultsPanel";
import { StepForm } from "./StepForm";
import { displayValue, labelOf, type StepValues } from "./step-values";
import { StepResults } from "./viewers";

// The canvas (react-konva) loads only when a design step opens.
const CraftDesignStep = lazy(() => import("../../media/designer/CraftDesignStep"));

/** "Design with this identity": a VisualIdentity's palette and fonts opened in the visual designer. */
function IdentityDesignLink({ steps }: { steps: readonly CraftStep[] }) {
  const enabled = useFeature("visual_designer");
  const href = identityDesignerHref(steps);
  if (!enabled || !href) return null;
  return (
    <LinkButton to={href} icon={<BgColorsOutlined />} data-testid="open-identity-designer">
      Design with this identity
    </LinkButton>
  );
}

/** Completed or skipped (a skipped step never blocks the craft). */
export function isStepDone(step: CraftStep): boolean {
  return step.status === "completed" || step.state === "Completed" || isSkippedStep(step);
}

/** A view step (no inputs, no action) only shows results, so there is nothing to edit. */
export function isViewStep(step: CraftStep): boolean {
  return !step.action && (step.inputs?.length ?? 0) === 0;
}

/** The answers given to a completed step. */
function StepAnswers({ step }: { step: CraftStep }) {
  // Hidden inputs were neither saved nor used.
  const inputs = (step.inputs ?? []).filter((input) => !input.hidden);
  if (inputs.length === 0) return null;
  return (
    <Descriptions
      size="small"
      column={1}
      data-testid={`step-answers-${step.name}`}
      items={inputs.map((input) => ({
        key: input.name,
        label: labelOf(input),
        children: displayValue(input.kind, step.values?.[input.name]) || "—",
      }))}
    />
  );
}

export interface StepPanelProps {
  craftId: string;
  step: CraftStep;
  /** All steps (showWhen may read them) and the profile. */
  steps?: CraftStep[];
  profile?: Record<string, unknown> | null;
  /** Runs the step's action again; `params` (e.g. `{ assetId }`, an image the user picked) go with it. */
  onGenerateMore?: (step: CraftStep, params?: StepValues) => void;
  isCurrent: boolean;
  previousTitle?: string;
  busy: boolean;
  editing: boolean;
  onComplete: (step: CraftStep, values: StepValues) => Promise<unknown>;
  onEdit: (step: CraftStep) => void;
  /** A draft craft (craftId ""): see StepForm. */
  ensureCraft?: () => Promise<string>;
  onStored?: (craftId: string) => void;
}

/** One step: its form while it is the current step, its answers and results once completed. */
/** Memoised: the page re-renders on every streamed delta, the step's panel need not. */
export const StepPanel = memo(function StepPanel({
  craftId,
  step,
  steps,
  profile,
  onGenerateMore,
  isCurrent,
  previousTitle,
  busy,
  editing,
  onComplete,
  onEdit,
  ensureCraft,
  onStored,
}: StepPanelProps) {
  // A media step is done when it opens: its panel is where the image or audio is made, so it shows.
  const [resultsShown, setResultsShown] = useState(step.action?.resultViewTrigger !== "Manual" || keepsAssets(step));
  const title = step.title || labelOf({ name: step.name, kind: "text" });

  // The email kinds run in the browser (features/email): done when they open, the panel saves the picks.
  const EmailPanel = emailStepPanel(step.action?.kind);
  // (Crafts made before these kinds ran have the step skipped: its panel still keeps their files.)
  if (EmailPanel && isStepDone(step)) {
    return (
      <Card title={title} data-testid={`step-panel-${step.name}`} data-step-state="email">
        {step.description && <p>{step.description}</p>}
        <EmailPanel craftId={craftId} step={step} steps={steps ?? [step]} />
      </Card>
    );
  }

  if (isSkippedStep(step)) {
    return (
      <Card
        title={
          <Flex gap={8} align="center">
            {title}
            <Tag icon={<StepForwardOutlined />}>Skipped</Tag>
          </Flex>
        }
        data-testid={`step-panel-${step.name}`}
        data-step-state="skipped"
      >
        <Alert type="info" showIcon title="This step was skipped: your earlier answers make it unnecessary." />
      </Card>
    );
  }

  if (isStepDone(step)) {
    const results = step.results ?? [];
    return (
      <Card
        title={title}
        data-testid={`step-panel-${step.name}`}
        data-step-state="completed"
        extra={
          isViewStep(step) || (isMediaStep(step) && (step.inputs?.length ?? 0) === 0) ? undefined : (
            <Button
              icon={<EditOutlined />}
              onClick={() => onEdit(step)}
              loading={editing}
              disabled={busy}
              data-testid={`edit-step-${step.name}`}
            >
              Edit
            </Button>
          )
        }
      >
        {step.description && isViewStep(step) && <p>{step.description}</p>}
        <StepAnswers step={step} />
        {(step.inputs?.length ?? 0) > 0 && results.length > 0 && <Divider />}
        {isViewStep(step) && results.length > 0 && <StepResults viewer={step.viewer} results={results} />}
        {isViewStep(step) && results.length > 0 && steps?.at(-1) === step && isEmailCraft(steps) && (
          <PourIntoTemplateButton steps={steps} name={title} />
        )}
        {isViewStep(step) && results.length > 0 && steps?.at(-1) === step && <IdentityDesignLink steps={steps} />}
        {!isViewStep(step) &&
          (resultsShown ? (
            <ResultsPanel craftId={craftId} step={step} busy={busy} onGenerateMore={onGenerateMore} />
          ) : (
            <Button icon={<EyeOutlined />} onClick={() => setResultsShown(true)} data-testid="show-results">
              Show results
            </Button>
          ))}
      </Card>
    );
  }

  if (isCurrent && isDesignStep(step)) {
    return (
      <Card title={title} data-testid={`step-panel-${step.name}`} data-step-state="current">
        {step.description && <p>{step.description}</p>}
        <Suspense fallback={<LoadingBlock rows={8} />}>
          <CraftDesignStep step={step} steps={steps ?? [step]} onSave={(designId) => onComplete(step, { designId })} />
        </Suspense>
      </Card>
    );
  }

  if (isCurrent) {
    return (
      <Card title={title} data-testid={`step-panel-${step.name}`} data-step-state="current">
        {step.description && <p>{step.description}</p>}
        <StepForm
          key={`${step.name}:${step.state}`}
          craftId={craftId}
          step={step}
          steps={steps}
          profile={profile}
          busy={busy}
          onComplete={(values) => onComplete(step, values)}
          ensureCraft={ensureCraft}
          onStored={onStored}
        />
      </Card>
    );
  }

  return (
    <Card title={title} data-testid={`step-panel-${step.name}`} data-step-state="waiting">
      <Flex justify="center">
        <Empty
          description={previousTitle ? `Complete “${previousTitle}” first.` : "Complete the previous steps first."}
        />
      </Flex>
    </Card>
  );
});
