import { DeleteOutlined, PlusOutlined, ThunderboltOutlined } from "@ant-design/icons";
import { type InputKind, isInputKind } from "@crafter/workflow-language";
import {
  Alert,
  AutoComplete,
  Button,
  ColorPicker,
  Flex,
  Input,
  InputNumber,
  Radio,
  Select,
  Slider,
  Space,
  Typography,
} from "antd";
import { type ComponentType, createContext, type InputHTMLAttributes, useContext, useState } from "react";
import { useFeature, useInitial } from "../../../api/hooks/app";
import { generateInlineText, useCrafts } from "../../../api/hooks/crafts";
import { useProjects } from "../../../api/hooks/projects";
import type { StepInput } from "../../../api/types";
import { ChipInput } from "../../../shared/ChipInput";
import { humanize } from "../../../shared/format";
import { useCraftErrorHandler } from "../craft-errors";
import {
  type ContextValue,
  type DateRange,
  labelOf,
  normalizeColor,
  type StepValues,
  type ThirdPartyObject,
} from "./step-values";

/**
 * One component per input kind of the spec (section 3, "Input kinds"); value shapes as in
 * docs/engine-contract.md section 5. A new workflow needs data, not code; a new kind needs its
 * component here before the web compiles.
 */
export interface InputProps {
  input: StepInput;
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur: () => void;
  disabled?: boolean;
  invalid?: boolean;
}

/** What a few kinds need beyond their value: the craft and step they write for. */
export interface StepFormContextValue {
  craftId: string;
  /** The craft's id, storing the craft first when it is still a draft (not stored until used). */
  resolveCraftId: () => Promise<string>;
  stepName: string;
  /** The form's live values (InlineTextGenerator sends them as params). */
  getValues: () => StepValues;
}

export const StepFormContext = createContext<StepFormContextValue | null>(null);

const asString = (value: unknown) => (value === null || value === undefined ? "" : String(value));
const asList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(asString) : value ? [asString(value)] : [];
const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const optionsOf = (input: StepInput) =>
  (input.options ?? []).map((option) => ({ label: option.label, value: option.value }));
const numberOr = (value: unknown, fallback: number | undefined) => (typeof value === "number" ? value : fallback);
const dateOr = (value: unknown) => (typeof value === "string" ? value : undefined);

function TextInput({
  input,
  id,
  value,
  onChange,
  onBlur,
  disabled,
  invalid,
  ...extra
}: InputProps & Pick<InputHTMLAttributes<HTMLInputElement>, "inputMode" | "autoComplete">) {
  return (
    <Input
      {...extra}
      id={id}
      value={asString(value)}
      maxLength={input.maxLength}
      placeholder={input.placeholder}
      disabled={disabled}
      status={invalid ? "error" : undefined}
      aria-invalid={invalid}
      data-testid={`input-${input.name}`}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
}

function UrlInput(props: InputProps) {
  const input = { ...props.input, placeholder: props.input.placeholder ?? "example.com" };
  return <TextInput {...props} input={input} inputMode="url" autoComplete="url" />;
}

function NumberInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  return (
    <InputNumber
      id={id}
      value={
        typeof value === "number" ? value : value === "" || value === null || value === undefined ? null : Number(value)
      }
      min={numberOr(input.min, undefined)}
      max={numberOr(input.max, undefined)}
      step={input.step}
      placeholder={input.placeholder}
      disabled={disabled}
      status={invalid ? "error" : undefined}
      aria-invalid={invalid}
      data-testid={`input-${input.name}`}
      style={{ width: "100%", maxWidth: 240 }}
      onChange={(next) => onChange(next ?? null)}
      onBlur={onBlur}
    />
  );
}

/** A slider with its number box beside it (the box is the keyboard's way in). */
function SliderInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  const min = numberOr(input.min, 0) ?? 0;
  const max = numberOr(input.max, 100) ?? 100;
  const current = typeof value === "number" ? value : null;
  return (
    <Flex gap={16} align="center" data-testid={`input-${input.name}`}>
      <Slider
        style={{ flex: 1 }}
        min={min}
        max={max}
        step={input.step ?? 1}
        value={current ?? min}
        disabled={disabled}
        aria-label={labelOf(input)}
        onChange={(next) => onChange(next)}
        onChangeComplete={onBlur}
      />
      <InputNumber
        id={id}
        min={min}
        max={max}
        step={input.step ?? 1}
        value={current}
        disabled={disabled}
        status={invalid ? "error" : undefined}
        onChange={(next) => onChange(next ?? null)}
        onBlur={onBlur}
        style={{ width: 96 }}
      />
    </Flex>
  );
}

function SelectInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  return (
    <Select
      id={id}
      value={value === "" || value === null || value === undefined ? undefined : (value as string | number)}
      options={optionsOf(input)}
      placeholder={input.placeholder ?? `Choose ${labelOf(input).toLowerCase()}`}
      disabled={disabled}
      status={invalid ? "error" : undefined}
      aria-invalid={invalid}
      data-testid={`input-${input.name}`}
      style={{ width: "100%" }}
      allowClear={!input.required}
      showSearch={{ optionFilterProp: "label" }}
      onChange={(next) => onChange(next ?? "")}
      onBlur={onBlur}
    />
  );
}

/** Font families from the definition's options, each shown in its own face. */
function FontInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  return (
    <Select
      id={id}
      value={asString(value) || undefined}
      options={optionsOf(input).map((option) => ({
        ...option,
        label: <span style={{ fontFamily: `"${String(option.value)}", sans-serif` }}>{option.label}</span>,
        title: option.label,
      }))}
      placeholder={input.placeholder ?? "Choose a font"}
      disabled={disabled}
      status={invalid ? "error" : undefined}
      data-testid={`input-${input.name}`}
      style={{ width: "100%" }}
      allowClear={!input.required}
      showSearch={{ optionFilterProp: "title" }}
      onChange={(next) => onChange(next ?? "")}
      onBlur={onBlur}
    />
  );
}

/** Free text with the definition's options as suggestions. */
function AutoCompleteInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  const text = asString(value);
  const suggestions = optionsOf(input)
    .map((option) => ({ value: String(option.value), label: option.label }))
    .filter((option) => !text || option.label.toLowerCase().includes(text.toLowerCase()));
  return (
    <AutoComplete
      id={id}
      value={text}
      options={suggestions}
      placeholder={input.placeholder}
      disabled={disabled}
      status={invalid ? "error" : undefined}
      data-testid={`input-${input.name}`}
      style={{ width: "100%" }}
      onChange={(next) => onChange(next ?? "")}
      onBlur={onBlur}
    />
  );
}

function RadioSelectInput({ input, id, value, onChange, onBlur, disabled }: InputProps) {
  return (
    <Radio.Group
      id={id}
      value={value === "" ? undefined : value}
      disabled={disabled}
      data-testid={`input-${input.name}`}
      aria-label={labelOf(input)}
      onChange={(event) => {
        onChange(event.target.value);
        onBlur();
      }}
    >
      <Flex wrap gap={8}>
        {optionsOf(input).map((option) => (
          <Radio key={String(option.value)} value={option.value}>
            {option.label}
          </Radio>
        ))}
      </Flex>
    </Radio.Group>
  );
}

/** A colour swatch plus a hex box; the value is always `#rrggbb`. */
function ColorPickerInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  const hex = normalizeColor(value);
  return (
    <Flex gap={8} align="center" data-testid={`input-${input.name}`}>
      <ColorPicker
        value={hex || undefined}
        disabledAlpha
        disabled={disabled}
        aria-label={`${labelOf(input)} swatch`}
        onChangeComplete={(color) => {
          onChange(color.toHexString().slice(0, 7).toLowerCase());
          onBlur();
        }}
      />
      <Input
        id={id}
        value={asString(value)}
        placeholder="#1f6feb"
        maxLength={7}
        disabled={disabled}
        status={invalid ? "error" : undefined}
        style={{ width: 120 }}
        onChange={(event) => onChange(event.target.value)}
        onBlur={() => {
          const normal = normalizeColor(value);
          if (normal) onChange(normal);
          onBlur();
        }}
      />
    </Flex>
  );
}

/** A native date box: keyboard friendly, and its value is already `YYYY-MM-DD`. */
function DatePickerInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  return (
    <Input
      type="date"
      id={id}
      value={asString(value)}
      min={dateOr(input.min)}
      max={dateOr(input.max)}
      disabled={disabled}
      status={invalid ? "error" : undefined}
      data-testid={`input-${input.name}`}
      style={{ maxWidth: 220 }}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
}

function DateRangePickerInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  const range = asRecord(value);
  const start = asString(range?.start);
  const end = asString(range?.end);
  const set = (next: Partial<DateRange>) => onChange({ start, end, ...next });
  const label = labelOf(input);
  return (
    <Space.Compact data-testid={`input-${input.name}`}>
      <Input
        type="date"
        id={id}
        aria-label={`${label} start`}
        value={start}
        min={dateOr(input.min)}
        max={end || dateOr(input.max)}
        disabled={disabled}
        status={invalid ? "error" : undefined}
        onChange={(event) => set({ start: event.target.value })}
        onBlur={onBlur}
      />
      <Input
        type="date"
        aria-label={`${label} end`}
        value={end}
        min={start || dateOr(input.min)}
        max={dateOr(input.max)}
        disabled={disabled}
        status={invalid ? "error" : undefined}
        onChange={(event) => set({ end: event.target.value })}
        onBlur={onBlur}
      />
    </Space.Compact>
  );
}

function ChipTextInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  return (
    <ChipInput
      id={id}
      value={asList(value)}
      placeholder={input.placeholder ?? "Type and press Enter"}
      maxChips={input.maxItems}
      maxLength={input.maxLength}
      disabled={disabled}
      status={invalid ? "error" : undefined}
      data-testid={`input-${input.name}`}
      onChange={onChange}
      onBlur={onBlur}
    />
  );
}

/** An editable list of points: edit in place, add, remove. */
function BulletPointInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  const points = asList(value);
  const items = points.length > 0 ? points : [""];
  const label = labelOf(input);
  const full = input.maxItems !== undefined && items.length >= input.maxItems;
  const update = (next: string[]) => onChange(next);
  return (
    <Flex vertical gap={8} data-testid={`input-${input.name}`} role="group" aria-label={label}>
      {items.map((point, index) => (
        <Flex key={index} gap={8} align="center">
          <span aria-hidden className="crafter-bullet">
            •
          </span>
          <Input
            id={index === 0 ? id : `${id}-${index}`}
            value={point}
            maxLength={input.maxLength}
            placeholder={input.placeholder}
            disabled={disabled}
            status={invalid ? "error" : undefined}
            aria-label={`${label} ${index + 1}`}
            onChange={(event) => update(items.map((item, at) => (at === index ? event.target.value : item)))}
            onBlur={onBlur}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.nativeEvent.isComposing && point.trim() && !full) {
                event.preventDefault();
                update([...items.slice(0, index + 1), "", ...items.slice(index + 1)]);
              }
            }}
          />
          <Button
            icon={<DeleteOutlined />}
            type="text"
            disabled={disabled || items.length === 1}
            aria-label={`Remove ${label.toLowerCase()} ${index + 1}`}
            onClick={() => update(items.filter((_, at) => at !== index))}
          />
        </Flex>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        disabled={disabled || full}
        onClick={() => update([...items, ""])}
        style={{ alignSelf: "flex-start" }}
      >
        Add a point
      </Button>
    </Flex>
  );
}

/** One of the user's crafts of the source's workflows; the value is its craftId. */
function CraftPickerInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  const workflowName = input.source?.workflowNames?.length === 1 ? input.source.workflowNames[0] : undefined;
  const { data, isLoading, error } = useCrafts(1, 50, { workflowName });
  const allowed = input.source?.workflowNames;
  const crafts = (data?.crafts ?? []).filter((craft) => !allowed?.length || allowed.includes(craft.workflowName));
  return (
    <Select
      id={id}
      value={asString(value) || undefined}
      loading={isLoading}
      options={crafts.map((craft) => ({
        value: craft.craftId,
        label: `${craft.craftName || "Untitled craft"} · ${humanize(craft.workflowName)}`,
      }))}
      notFoundContent={error ? "Your crafts could not be loaded." : "No crafts of this kind yet."}
      placeholder={input.placeholder ?? "Choose a craft"}
      disabled={disabled}
      status={invalid ? "error" : undefined}
      data-testid={`input-${input.name}`}
      style={{ width: "100%" }}
      allowClear={!input.required}
      showSearch={{ optionFilterProp: "label" }}
      onChange={(next) => onChange(next ?? "")}
      onBlur={onBlur}
    />
  );
}

/** The inline variant: the same choice (the definition places it inside an editor step). */
function InlineCraftPickerInput(props: InputProps) {
  return <CraftPickerInput {...props} />;
}

/** One of the project's profiles; the value is `{ profileId, profileType }`. */
function ContextSelectorInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  const { data: initial } = useInitial();
  const { data, isLoading } = useProjects();
  const active = initial?.activeProjectInfo?.profile;
  const choices = new Map<string, { label: string; profileType: string }>();
  if (active)
    choices.set(active.profileId, { label: `${active.name} (active project)`, profileType: active.profileType });
  for (const project of data?.projects ?? []) {
    if (project.profileId && !choices.has(project.profileId)) {
      choices.set(project.profileId, { label: project.projectTitle, profileType: "PROJECT" });
    }
  }
  const current = asRecord(value) as Partial<ContextValue> | null;
  return (
    <Select
      id={id}
      value={current?.profileId || undefined}
      loading={isLoading}
      options={[...choices].map(([profileId, choice]) => ({ value: profileId, label: choice.label }))}
      placeholder={input.placeholder ?? "Choose a profile"}
      disabled={disabled}
      status={invalid ? "error" : undefined}
      data-testid={`input-${input.name}`}
      style={{ width: "100%" }}
      allowClear={!input.required}
      onChange={(profileId?: string) =>
        onChange(profileId ? { profileId, profileType: choices.get(profileId)?.profileType ?? "PROJECT" } : null)
      }
      onBlur={onBlur}
    />
  );
}

/**
 * An object of a connected store or account (`source.provider`, e.g. shopify). Integrations are
 * gated by their flag (`<provider>_integration`) and none can be connected yet, so this says so
 * instead of offering a picker that cannot load anything.
 */
function ThirdPartyObjectPickerInput({ input, value }: InputProps) {
  const provider = input.source?.provider ?? "";
  const enabled = useFeature(`${provider}_integration`);
  const picked = asRecord(value) as Partial<ThirdPartyObject> | null;
  const name = humanize(provider || "integration");
  return (
    <Alert
      type="info"
      showIcon
      data-testid={`input-${input.name}`}
      data-connected="false"
      title={
        !provider
          ? "No integration is set for this field."
          : enabled
            ? `Your ${name} store is not connected.`
            : `The ${name} integration is not available on your account yet.`
      }
      description={
        picked?.title
          ? `Chosen earlier: ${picked.title}.`
          : `Connect ${name} in Settings → Integrations to pick a ${input.source?.objectType ?? "item"} here.`
      }
    />
  );
}

/** A text area with a Generate button that writes it through `generateInlineText`. */
function InlineTextGeneratorInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  const context = useContext(StepFormContext);
  const handleError = useCraftErrorHandler();
  const [generating, setGenerating] = useState(false);
  const maxLength = input.maxLength ?? input.generator?.maxLength;
  const generate = async () => {
    if (!context) return;
    setGenerating(true);
    try {
      const { text } = await generateInlineText(
        await context.resolveCraftId(),
        context.stepName,
        input.name,
        context.getValues(),
      );
      onChange(maxLength ? text.slice(0, maxLength) : text);
    } catch (error) {
      handleError(error, "Could not generate the text");
    } finally {
      setGenerating(false);
    }
  };
  return (
    <Flex vertical gap={8}>
      <Input.TextArea
        id={id}
        value={asString(value)}
        maxLength={maxLength}
        showCount={!!maxLength}
        autoSize={{ minRows: 3, maxRows: 12 }}
        placeholder={input.placeholder}
        disabled={disabled || generating}
        status={invalid ? "error" : undefined}
        data-testid={`input-${input.name}`}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      <Button
        icon={<ThunderboltOutlined />}
        onClick={() => void generate()}
        loading={generating}
        disabled={disabled || !context}
        style={{ alignSelf: "flex-start" }}
        data-testid={`generate-${input.name}`}
      >
        Generate
      </Button>
      {!context && <Typography.Text type="secondary">Generation is available inside a craft.</Typography.Text>}
    </Flex>
  );
}

/** A renderer for every input kind: a kind added to the language does not compile without one. */
export const INPUT_COMPONENTS: Record<InputKind, ComponentType<InputProps>> = {
  text: TextInput,
  url: UrlInput,
  font: FontInput,
  number: NumberInput,
  slider: SliderInput,
  autoComplete: AutoCompleteInput,
  select: SelectInput,
  radioSelect: RadioSelectInput,
  thirdPartyObjectPicker: ThirdPartyObjectPickerInput,
  craftPicker: CraftPickerInput,
  colorPicker: ColorPickerInput,
  chipText: ChipTextInput,
  datePicker: DatePickerInput,
  dateRangePicker: DateRangePickerInput,
  contextSelector: ContextSelectorInput,
  bulletPoint: BulletPointInput,
  inlineCraftPicker: InlineCraftPickerInput,
  InlineTextGenerator: InlineTextGeneratorInput,
};

/** The renderer of a kind; a text box for a kind this build of the web does not know yet. */
export function inputComponentFor(kind: string): ComponentType<InputProps> {
  return isInputKind(kind) ? INPUT_COMPONENTS[kind] : TextInput;
}
