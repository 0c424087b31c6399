import { PROFILE_FIELD_DEFS, type ProfileFieldDef, type ProfileTypeName } from "@crafter/validation";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Flex, Form, Input } from "antd";
import { useMemo } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { isApiError } from "../../../api/errors";
import type { Profile } from "../../../api/types";
import { ChipInput } from "../../../shared/ChipInput";
import { FormField } from "../../../shared/FormField";
import { notify } from "../../../shared/notify";
import { TimeZoneSelect } from "../../../shared/time-zone";
import { LogoInput } from "./LogoInput";

type FormValues = Record<string, string | string[]>;

const isList = (def: ProfileFieldDef) => def.kind === "list" || def.kind === "images";

/** The form's zod schema from the field catalogue: required fields and lengths; the server checks the rest. */
export function profileFormSchema(type: ProfileTypeName) {
  const shape: Record<string, z.ZodType> = {};
  for (const def of PROFILE_FIELD_DEFS[type]) {
    if (isList(def)) {
      shape[def.key] = z
        .array(z.string().max(def.max, `Each item must be at most ${def.max} characters`))
        .max(def.maxItems ?? 50, `At most ${def.maxItems} items`);
    } else {
      let text = z.string().trim().max(def.max, `${def.label} must be at most ${def.max} characters`);
      if (def.required) text = text.min(1, `${def.label} is required`);
      shape[def.key] = text;
    }
  }
  return z.object(shape);
}

/** A profile's values as the form holds them (every field present). */
export function formValuesOf(type: ProfileTypeName, profile?: Profile | null): FormValues {
  const values: FormValues = {};
  for (const def of PROFILE_FIELD_DEFS[type]) {
    const own = profile ? (profile as unknown as Record<string, unknown>)[def.key] : undefined;
    const raw = own !== undefined && def.key !== "fields" ? own : profile?.fields?.[def.key];
    values[def.key] = isList(def) ? (Array.isArray(raw) ? raw.map(String) : []) : typeof raw === "string" ? raw : "";
  }
  return values;
}

/** Under the time zone: what it drives, and that an unset one means UTC. */
const timeZoneHint = (saved: string) =>
  saved
    ? "Schedules, the calendar, automation waits and birthday emails follow this zone."
    : "Not set yet: days and hours are counted in UTC until you choose your business's time zone.";

const fieldId = (type: ProfileTypeName, key: string) => `profile-${type.toLowerCase()}-${key}`;

/**
 * The form of a profile of any type, one control per field of the spec (PROFILE_FIELD_DEFS):
 * text, paragraphs, lists (chips), URLs, dates and image URLs. Server field errors land on their
 * inputs.
 */
export function ProfileForm({
  type,
  profile,
  submitLabel,
  onSubmit,
  onCancel,
  testId = "profile-form",
}: {
  type: ProfileTypeName;
  profile?: Profile | null;
  submitLabel: string;
  onSubmit: (values: FormValues) => Promise<unknown>;
  onCancel?: () => void;
  testId?: string;
}) {
  const schema = useMemo(() => profileFormSchema(type), [type]);
  const defaults = useMemo(() => formValuesOf(type, profile), [type, profile]);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({ resolver: zodResolver(schema) as never, defaultValues: defaults, values: defaults });

  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      if (isApiError(error) && Object.keys(error.fields).length > 0) {
        for (const [key, message] of Object.entries(error.fields)) setError(key, { message });
        notify.error(error, "Please check the highlighted fields");
      } else {
        notify.error(error, "Could not save");
      }
    }
  });

  return (
    <Form layout="vertical" component="div" data-testid={testId}>
      <form onSubmit={submit} noValidate>
        {PROFILE_FIELD_DEFS[type].map((def) => {
          const id = fieldId(type, def.key);
          const testid = `profile-field-${def.key}`;
          return (
            <FormField
              key={def.key}
              id={id}
              label={def.label}
              required={def.required}
              error={errors[def.key] as { message?: string } | undefined}
              extra={
                def.kind === "images"
                  ? "Image links (https://… or /media/…), one per entry"
                  : def.kind === "timeZone"
                    ? timeZoneHint(defaults[def.key] as string)
                    : def.kind === "image"
                      ? "Choose it from your media for a link that keeps working in sent emails and on your lead form."
                      : undefined
              }
            >
              <Controller
                control={control}
                name={def.key}
                render={({ field }) =>
                  def.kind === "timeZone" ? (
                    <TimeZoneSelect
                      id={id}
                      value={field.value as string}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      testId={testid}
                    />
                  ) : def.kind === "image" ? (
                    <LogoInput
                      id={id}
                      value={field.value as string}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      maxLength={def.max}
                      testId={testid}
                    />
                  ) : isList(def) ? (
                    <ChipInput
                      id={id}
                      value={field.value as string[]}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      maxChips={def.maxItems}
                      maxLength={def.max}
                      aria-label={def.label}
                      data-testid={testid}
                    />
                  ) : def.kind === "longText" ? (
                    <Input.TextArea
                      id={id}
                      {...field}
                      value={field.value as string}
                      autoSize={{ minRows: 2, maxRows: 8 }}
                      maxLength={def.max}
                      showCount={def.max <= 1000}
                      data-testid={testid}
                    />
                  ) : (
                    <Input
                      id={id}
                      {...field}
                      value={field.value as string}
                      type={def.kind === "date" ? "date" : def.kind === "url" ? "url" : "text"}
                      placeholder={
                        def.kind === "url" ? "example.com/page" : def.kind === "slug" ? "my-product" : undefined
                      }
                      maxLength={def.max}
                      data-testid={testid}
                    />
                  )
                }
              />
            </FormField>
          );
        })}
        <Flex gap={8} justify="flex-end">
          {onCancel && <Button onClick={onCancel}>Cancel</Button>}
          <Button type="primary" htmlType="submit" loading={isSubmitting} data-testid={`${testId}-submit`}>
            {submitLabel}
          </Button>
        </Flex>
      </form>
    </Form>
  );
}
