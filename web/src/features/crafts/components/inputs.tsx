import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Flex, Input, InputNumber, Select } from "antd";
import type { ComponentType, InputHTMLAttributes } from "react";
import type { StepInput } from "../../../api/types";
import { ChipInput } from "../../../shared/ChipInput";
import { labelOf } from "./step-values";

/**
 * One component per input kind of the spec (section 3, "Input kinds"). A new workflow needs data,
 * not code: a kind missing here falls back to a text box.
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

const asString = (value: unknown) => (value === null || value === undefined ? "" : String(value));
const asList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(asString) : value ? [asString(value)] : [];

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
      min={input.min}
      max={input.max}
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

function SelectInput({ input, id, value, onChange, onBlur, disabled, invalid }: InputProps) {
  return (
    <Select
      id={id}
      value={value === "" || value === null || value === undefined ? undefined : (value as string | number)}
      options={(input.options ?? []).map((option) => ({ label: option.label, value: option.value }))}
      placeholder={input.placeholder ?? `Choose ${labelOf(input).toLowerCase()}`}
      disabled={disabled}
      status={invalid ? "error" : undefined}
      aria-invalid={invalid}
      data-testid={`input-${input.name}`}
      style={{ width: "100%" }}
      allowClear={!input.required}
      onChange={(next) => onChange(next ?? "")}
      onBlur={onBlur}
    />
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

export const INPUT_COMPONENTS: Record<string, ComponentType<InputProps>> = {
  text: TextInput,
  url: UrlInput,
  number: NumberInput,
  select: SelectInput,
  chipText: ChipTextInput,
  bulletPoint: BulletPointInput,
};

export function inputComponentFor(kind: string): ComponentType<InputProps> {
  return INPUT_COMPONENTS[kind] ?? TextInput;
}
