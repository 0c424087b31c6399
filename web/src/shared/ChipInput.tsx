import { CloseOutlined } from "@ant-design/icons";
import { Flex, Input, Tag } from "antd";
import { type KeyboardEvent, useState } from "react";

export interface ChipInputProps {
  id?: string;
  value?: string[];
  onChange?: (value: string[]) => void;
  onBlur?: () => void;
  placeholder?: string;
  disabled?: boolean;
  status?: "error" | "warning";
  "aria-label"?: string;
  "data-testid"?: string;
  maxChips?: number;
  /** Characters per chip. */
  maxLength?: number;
}

/**
 * Tags typed into a text box: Enter or comma adds one, Backspace on an empty box removes the last,
 * leaving the box adds what is pending (so a form submitted by mouse keeps it). Enter with an
 * empty box is left alone, so it still submits the form. `data-testid` marks the wrapper (the
 * text box is its first input).
 */
export function ChipInput({
  id,
  value = [],
  onChange,
  onBlur,
  placeholder = "Type and press Enter",
  disabled,
  status,
  maxChips = 50,
  maxLength,
  ...rest
}: ChipInputProps) {
  const [draft, setDraft] = useState("");

  const add = (raw: string) => {
    const parts = raw
      .split(",")
      .map((part) => (maxLength ? part.trim().slice(0, maxLength) : part.trim()))
      .filter(Boolean);
    if (parts.length === 0) return;
    const next = [...value];
    for (const part of parts) {
      if (!next.some((chip) => chip.toLowerCase() === part.toLowerCase()) && next.length < maxChips) next.push(part);
    }
    onChange?.(next);
    setDraft("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if ((event.key === "Enter" || event.key === ",") && draft.trim()) {
      event.preventDefault();
      add(draft);
    } else if (event.key === "Backspace" && draft === "" && value.length > 0) {
      onChange?.(value.slice(0, -1));
    }
  };

  return (
    <Flex vertical gap={8} data-testid={rest["data-testid"]}>
      <Input
        id={id}
        value={draft}
        disabled={disabled}
        status={status}
        placeholder={placeholder}
        aria-label={rest["aria-label"]}
        onChange={(event) => {
          const text = event.target.value;
          if (text.includes(",")) add(text);
          else setDraft(text);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (draft.trim()) add(draft);
          onBlur?.();
        }}
      />
      {value.length > 0 && (
        <Flex wrap gap={6} role="list" aria-label="Added values">
          {value.map((chip) => (
            <Tag
              key={chip}
              role="listitem"
              closable={!disabled}
              color="purple"
              closeIcon={<CloseOutlined aria-label={`Remove ${chip}`} />}
              onClose={(event) => {
                event.preventDefault();
                onChange?.(value.filter((item) => item !== chip));
              }}
            >
              {chip}
            </Tag>
          ))}
        </Flex>
      )}
    </Flex>
  );
}
