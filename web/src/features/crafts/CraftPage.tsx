import { CheckCircleOutlined, LoadingOutlined } from "@ant-design/icons";
import { Button, Card, Flex, Result, Skeleton, Steps, Typography } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { api } from "../../api/api";
import { isApiError } from "../../api/errors";
import { useInitial } from "../../api/hooks/app";
import {
  useCraft,
  useCreateCraft,
  useEditStep,
  useNewCraft,
  useRefreshCraft,
  useRefreshCredits,
} from "../../api/hooks/crafts";
import { paths } from "../../api/paths";
import { type CompleteStepOutcome, completeStepStream, runActionStream } from "../../api/rpc";
import type { Craft, CraftStep } from "../../api/types";
import { humanize } from "../../shared/format";
import { LinkButton } from "../../shared/LinkButton";
import { notify } from "../../shared/notify";
import { ErrorState } from "../../shared/states";
import { ApprovalSummary, ShareForApprovalButton } from "../approvals/ApprovalPanel";
import { PublishSocialButton } from "../calendar/PublishSocialButton";
import { ScheduleButton } from "../calendar/ScheduleButton";
import { WriteBackButton } from "../projects/components/WriteBackButton";
import { useActiveProfile } from "../projects/context";
import { PublishPageButton } from "../public/PublishPageButton";
import { CraftActions } from "./components/CraftActions";
import { CraftTitle } from "./components/CraftTitle";
import { ResultView } from "./components/ResultView";
import { SendEmailCraftButtons } from "./components/SendEmailCraftButtons";
import { isStepDone, StepPanel } from "./components/StepPanel";
import { StreamPanel, type StreamState } from "./components/StreamPanel";
import type { StepValues } from "./components/step-values";
import { useCraftErrorHandler } from "./craft-errors";
import { BLOG_WRITER } from "./links";

/** The Loading state of the craft page (spec section 2: Loading, Craft, Result). */
function CraftLoading({ label }: { label: string }) {
  return (
    <Card data-testid="craft-loading" aria-busy role="status" aria-label={label}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Skeleton active paragraph={{ rows: 6 }} />
    </Card>
  );
}

/** A step completion asked for on a draft, run by the stored craft's page once it opens. */
interface PendingCompletion {
  complete: { stepName: string; values: StepValues };
}

/**
 * Without ?craftId: the workflow's first step, prefilled (`GET /api/workflowsV2/new`), stored only
 * when the user first saves, completes or generates something; leaving it leaves nothing behind.
 */
function NewCraft({ workflowName, standalone }: { workflowName: string; standalone: boolean }) {
  const { data: initial } = useInitial();
  const project = initial?.activeProjectInfo;
  // The context selector's profile (the business unless another was chosen).
  const activeProfile = useActiveProfile();
  const {
    data: draft,
    error,
    mutate,
  } = useNewCraft(
    project
      ? {
          workflowName,
          standalone,
          projectId: project.projectId,
          profileId: activeProfile?.profileId ?? project.profile?.profileId,
        }
      : null,
  );
  const createCraft = useCreateCraft();
  const navigate = useNavigate();
  const handleError = useCraftErrorHandler();
  const created = useRef<Promise<string> | null>(null);
  const [creating, setCreating] = useState(false);

  // One craft per draft, however many actions ask for it at once.
  const ensureCraft = useCallback(() => {
    if (!created.current) {
      created.current = createCraft(
        standalone
          ? { workflowName, standalone: true }
          : { workflowName, projectId: draft?.projectId || undefined, profileId: draft?.profileId || undefined },
      ).then(
        (craft) => craft.craftId,
        (failure) => {
          created.current = null;
          throw failure;
        },
      );
    }
    return created.current;
  }, [createCraft, workflowName, standalone, draft?.projectId, draft?.profileId]);

  const open = useCallback(
    (craftId: string, state?: PendingCompletion) =>
      navigate({ search: `?craftId=${encodeURIComponent(craftId)}` }, { replace: true, state }),
    [navigate],
  );

  const complete = useCallback(
    async (step: CraftStep, values: StepValues): Promise<unknown> => {
      setCreating(true);
      try {
        // The values are saved first, so a refusal of the completion leaves them in the form.
        const craftId = await ensureCraft();
        await api.put(paths.craft(craftId), { stepName: step.name, values });
        open(craftId, { complete: { stepName: step.name, values } });
        return null;
      } catch (failure) {
        handleError(failure, `We could not start a ${humanize(workflowName).toLowerCase()}`);
        return failure;
      } finally {
        setCreating(false);
      }
    },
    [ensureCraft, open, handleError, workflowName],
  );

  if (error) {
    return (
      <ErrorState
        error={error}
        title={`We could not start a ${humanize(workflowName).toLowerCase()}`}
        onRetry={() => void mutate()}
      />
    );
  }
  if (!draft) return <CraftLoading label={`Setting up your ${humanize(workflowName).toLowerCase()}…`} />;
  const steps = draft.steps ?? [];
  const currentName = currentStepOf(draft);
  const index = Math.max(
    0,
    steps.findIndex((step) => step.name === currentName),
  );
  const current = steps[index];
  return (
    <Flex vertical gap={16} data-testid="craft-page" data-mode="draft">
      <Flex vertical gap={4}>
        <Typography.Title level={3} style={{ margin: 0 }} data-testid="craft-name">
          New {humanize(workflowName).toLowerCase()}
        </Typography.Title>
        <Typography.Text type="secondary" data-testid="craft-draft-note">
          It is saved once you save or complete a step, and named after what you write.
        </Typography.Text>
      </Flex>
      <Card size="small">
        <Steps
          current={index}
          data-testid="craft-steps"
          items={steps.map((step) => ({
            key: step.name,
            title: <span data-testid={`step-tab-${step.name}`}>{step.title || humanize(step.name)}</span>,
            status: step.name === currentName ? "process" : "wait",
            disabled: step.name !== currentName,
          }))}
        />
      </Card>
      {current && (
        <StepPanel
          key={current.name}
          craftId=""
          step={current}
          steps={steps}
          profile={(initial?.activeProjectInfo?.profile ?? null) as Record<string, unknown> | null}
          isCurrent
          busy={creating}
          editing={false}
          onComplete={complete}
          onEdit={() => undefined}
          ensureCraft={ensureCraft}
          onStored={(craftId) => open(craftId)}
        />
      )}
    </Flex>
  );
}

function currentStepOf(craft: Craft): string | undefined {
  const steps = craft.steps ?? [];
  if (craft.currentStep && steps.some((step) => step.name === craft.currentStep)) return craft.currentStep;
  return steps.find((step) => !isStepDone(step))?.name ?? steps.at(-1)?.name;
}

/** An existing craft: its steps (Craft state) or its final draft (Result state). */
function CraftView({ craftId }: { craftId: string }) {
  const { data: craft, error, mutate } = useCraft(craftId);
  const navigate = useNavigate();
  const refreshCraft = useRefreshCraft();
  const editStep = useEditStep(craftId);
  const handleError = useCraftErrorHandler();
  const [selected, setSelected] = useState<string | null>(null);
  const [view, setView] = useState<"auto" | "craft" | "result">("auto");
  const [stream, setStream] = useState<StreamState | null>(null);
  const [editingStep, setEditingStep] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  // A cancelled stream saves nothing (workflows.proto): stop it when the page goes away.
  useEffect(() => () => abort.current?.abort(), []);

  const refreshCredits = useRefreshCredits();
  const { data: initial } = useInitial();
  const profile = (initial?.activeProjectInfo?.profile ?? null) as Record<string, unknown> | null;

  /**
   * Runs a generation with the live draft panel: CompleteStep for the step's own action, or
   * RunAction ("generate more") when `actionType` is given. Resolves with the failure, if any, so
   * the form can put field messages on its inputs.
   */
  const run = useCallback(
    async (step: CraftStep, values: StepValues, actionType?: string): Promise<unknown> => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      setStream({ stepName: step.name, stepTitle: step.title || humanize(step.name), text: "", status: "connecting" });
      const handlers = {
        onStarted: (info: { engine: string; framework: string }) =>
          setStream((s) => (s ? { ...s, ...info, status: "streaming" } : s)),
        onDelta: (text: string) => setStream((s) => (s ? { ...s, text: s.text + text, status: "streaming" } : s)),
      };
      let outcome: CompleteStepOutcome;
      try {
        outcome = actionType
          ? await runActionStream(
              { craftId, stepName: step.name, actionType, params: values },
              handlers,
              controller.signal,
            )
          : await completeStepStream({ craftId, stepName: step.name, values }, handlers, controller.signal);
      } catch (failure) {
        if (controller.signal.aborted) {
          setStream((s) => (s ? { ...s, status: "failed", cancelled: true } : s));
          refreshCredits();
          return null;
        }
        // Refused before anything was written (invalid input, busy…): no draft panel to keep.
        setStream((s) => (s && s.status !== "connecting" ? { ...s, status: "failed" } : null));
        handleError(
          failure,
          isApiError(failure) && Object.keys(failure.fields).length > 0 ? "Please check your answers" : undefined,
        );
        refreshCredits();
        return failure;
      } finally {
        if (abort.current === controller) abort.current = null;
      }
      setStream((s) => (s ? { ...s, status: "done" } : s));
      refreshCredits();
      // "Should" rules do not block a step; the server returns them as `[{ field, message }]`.
      const warnings = outcome.meta?.warnings;
      const messages = Array.isArray(warnings)
        ? warnings.map((warning) => (warning as { message?: unknown })?.message).filter((m) => typeof m === "string")
        : warnings && typeof warnings === "object"
          ? Object.values(warnings).filter((m) => typeof m === "string")
          : [];
      if (messages.length > 0) notify.warning("Worth a second look", messages.join(" "));
      try {
        await refreshCraft(craftId, outcome.craft);
      } catch (failure) {
        handleError(failure, "The step is done, but the craft could not be reloaded");
        return null;
      }
      // The step now shows its results; the next stream starts from an empty panel.
      setStream(null);
      if (!actionType) setSelected(null);
      // "Generate more" (a media step's recording too) keeps the steps in view, even on a completed craft.
      setView(actionType ? "craft" : "auto");
      return null;
    },
    [craftId, refreshCraft, refreshCredits, handleError],
  );

  const complete = useCallback((step: CraftStep, values: StepValues) => run(step, values), [run]);

  // A draft's first completion (NewCraft stored the craft, then opened it here): run it once.
  const location = useLocation();
  const pending = (location.state as PendingCompletion | null)?.complete;
  const pendingRun = useRef(false);
  useEffect(() => {
    if (!pending || !craft || pendingRun.current) return;
    pendingRun.current = true;
    navigate({ search: location.search }, { replace: true, state: null });
    const step = craft.steps?.find((candidate) => candidate.name === pending.stepName);
    if (step) void run(step, pending.values);
  }, [pending, craft, run, navigate, location.search]);
  const generateMore = useCallback(
    (step: CraftStep, params?: StepValues) => {
      setSelected(step.name);
      void run(step, { ...(step.values ?? {}), ...(params ?? {}) }, step.action?.kind);
    },
    [run],
  );
  const cancel = useCallback(() => abort.current?.abort(), []);

  const edit = useCallback(
    async (step: CraftStep) => {
      setEditingStep(step.name);
      try {
        await editStep.trigger(step.name);
        setStream(null);
        setSelected(step.name);
        setView("auto");
      } catch (failure) {
        handleError(failure, "Could not reopen the step");
      } finally {
        setEditingStep(null);
      }
    },
    [editStep, handleError],
  );

  if (!craft) {
    if (!error) return <CraftLoading label="Loading your craft…" />;
    if (isApiError(error) && (error.status === 404 || error.status === 403)) {
      return (
        <Result
          status="404"
          title="This craft can't be found"
          subTitle="It may have been deleted, or it belongs to another account."
          data-testid="craft-not-found"
          extra={
            <LinkButton to="/app/crafts" type="primary">
              See your crafts
            </LinkButton>
          }
        />
      );
    }
    return <ErrorState error={error} onRetry={() => void mutate()} />;
  }

  const steps = craft.steps ?? [];
  const currentName = currentStepOf(craft);
  const mode = view === "auto" ? (craft.state === "Completed" ? "result" : "craft") : view;
  const streaming = stream?.status === "streaming" || stream?.status === "connecting";

  if (mode === "result") {
    return (
      <Flex vertical gap={16} data-testid="craft-page" data-mode="result">
        <Flex justify="space-between" align="center" wrap gap={8}>
          <CraftTitle craft={craft} />
          <Flex gap={8} wrap>
            <SendEmailCraftButtons craft={craft} />
            <WriteBackButton craft={craft} />
            <ScheduleButton craftId={craft.craftId} />
            <PublishSocialButton craftId={craft.craftId} workflowName={craft.workflowName} />
            <PublishPageButton craftId={craft.craftId} workflowName={craft.workflowName} craftName={craft.craftName} />
            <ShareForApprovalButton
              kind="craft"
              id={craft.craftId}
              projectId={craft.projectId || undefined}
              name={craft.craftName}
            />
            <CraftActions craft={craft} onDeleted={() => navigate("/app/crafts", { replace: true })} />
          </Flex>
        </Flex>
        <ApprovalSummary kind="craft" id={craft.craftId} projectId={craft.projectId || undefined} />
        <ResultView craft={craft} onShowSteps={() => setView("craft")} />
      </Flex>
    );
  }

  const selectedName = selected && steps.some((step) => step.name === selected) ? selected : currentName;
  const selectedIndex = Math.max(
    0,
    steps.findIndex((step) => step.name === selectedName),
  );
  const selectedStep = steps[selectedIndex];

  return (
    <Flex vertical gap={16} data-testid="craft-page" data-mode="craft">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <CraftTitle craft={craft} />
        <Flex gap={8} wrap>
          {craft.state === "Completed" && (
            <Button icon={<CheckCircleOutlined />} onClick={() => setView("result")} data-testid="view-result">
              See the result
            </Button>
          )}
          <SendEmailCraftButtons craft={craft} />
          <WriteBackButton craft={craft} />
          <ScheduleButton craftId={craft.craftId} />
          <PublishSocialButton craftId={craft.craftId} workflowName={craft.workflowName} />
          <PublishPageButton craftId={craft.craftId} workflowName={craft.workflowName} craftName={craft.craftName} />
          {craft.state === "Completed" && (
            <ShareForApprovalButton
              kind="craft"
              id={craft.craftId}
              projectId={craft.projectId || undefined}
              name={craft.craftName}
            />
          )}
          <CraftActions craft={craft} onDeleted={() => navigate("/app/crafts", { replace: true })} />
        </Flex>
      </Flex>
      <ApprovalSummary kind="craft" id={craft.craftId} projectId={craft.projectId || undefined} />
      {steps.length === 0 ? (
        <Result status="warning" title="This workflow has no steps." />
      ) : (
        <>
          <Card size="small">
            <Steps
              current={selectedIndex}
              onChange={(index) => setSelected(steps[index]?.name ?? null)}
              data-testid="craft-steps"
              items={steps.map((step) => {
                const done = isStepDone(step);
                const isCurrent = step.name === currentName;
                return {
                  key: step.name,
                  title: <span data-testid={`step-tab-${step.name}`}>{step.title || humanize(step.name)}</span>,
                  status: done ? "finish" : isCurrent ? "process" : "wait",
                  icon: streaming && stream?.stepName === step.name ? <LoadingOutlined /> : undefined,
                  disabled: !done && !isCurrent,
                };
              })}
            />
          </Card>
          {stream && <StreamPanel stream={stream} onCancel={cancel} />}
          {selectedStep && (
            <StepPanel
              key={selectedStep.name}
              craftId={craftId}
              step={selectedStep}
              steps={steps}
              profile={profile}
              onGenerateMore={generateMore}
              isCurrent={selectedStep.name === currentName}
              previousTitle={steps[selectedIndex - 1]?.title}
              busy={streaming}
              editing={editingStep === selectedStep.name}
              onComplete={complete}
              onEdit={edit}
            />
          )}
        </>
      )}
    </Flex>
  );
}

/**
 * /app/crafts/:workflowName[?craftId=|?standalone=1]: the craft page (states Loading, Craft,
 * Result). `standalone=1` (tools, smart documents) creates a craft without a project.
 */
export default function CraftPage() {
  const { workflowName = BLOG_WRITER } = useParams();
  const [params] = useSearchParams();
  const craftId = params.get("craftId");
  const standalone = params.get("standalone") === "1";
  if (!craftId) return <NewCraft key={workflowName} workflowName={workflowName} standalone={standalone} />;
  return <CraftView key={craftId} craftId={craftId} />;
}
