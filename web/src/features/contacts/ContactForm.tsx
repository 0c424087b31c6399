import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Col, DatePicker, Form, Input, Row, Select, Space } from "antd";
import dayjs from "dayjs";
import { useMemo } from "react";
import { Controller, type FieldError, useForm } from "react-hook-form";
import { useContactTypes } from "../../api/contacts";
import { CUSTOMER_KINDS, type CustomField } from "../../api/contacts/types";
import { ChipInput } from "../../shared/ChipInput";
import { FormField } from "../../shared/FormField";
import { TimeZoneSelect } from "../../shared/time-zone";
import { type ContactFormValues, contactFormSchema } from "./schema";

export interface ContactFormProps {
  customFields: CustomField[];
  defaultValues: ContactFormValues;
  submitLabel: string;
  onSubmit: (values: ContactFormValues) => Promise<Record<string, string> | undefined>;
  onCancel?: () => void;
}

/**
 * The contact fields (built-ins and custom fields) with react-hook-form + zod. `onSubmit` resolves
 * with the server's field errors, if any, which are shown on their fields.
 */
export function ContactForm({ customFields, defaultValues, submitLabel, onSubmit, onCancel }: ContactFormProps) {
  const contactTypes = useContactTypes();
  const schema = useMemo(() => contactFormSchema(customFields), [customFields]);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormValues>({ resolver: zodResolver(schema), defaultValues, mode: "onTouched" });

  const submit = handleSubmit(async (values) => {
    const fields = await onSubmit(values);
    for (const [name, message] of Object.entries(fields ?? {})) {
      setError(name as keyof ContactFormValues, { message });
    }
  });

  const text = (name: "firstName" | "lastName" | "email" | "phone" | "company", label: string, extra = {}) => (
    <FormField id={`contact-${name}`} label={label} error={errors[name]} required={name === "email"}>
      <Controller
        name={name}
        control={control}
        render={({ field }) => (
          <Input
            {...field}
            {...extra}
            id={`contact-${name}`}
            data-testid={`contact-${name}`}
            aria-invalid={!!errors[name]}
            aria-describedby={errors[name] ? `contact-${name}-error` : undefined}
          />
        )}
      />
    </FormField>
  );

  return (
    <Form layout="vertical" component={false}>
      <form onSubmit={submit} noValidate data-testid="contact-form">
        <Row gutter={16}>
          <Col xs={24} md={12}>
            {text("firstName", "First name", { autoComplete: "given-name" })}
          </Col>
          <Col xs={24} md={12}>
            {text("lastName", "Last name", { autoComplete: "family-name" })}
          </Col>
          <Col xs={24} md={12}>
            {text("email", "Email", { type: "email", autoComplete: "email", inputMode: "email" })}
          </Col>
          <Col xs={24} md={12}>
            {text("phone", "Phone", { type: "tel", autoComplete: "tel" })}
          </Col>
          <Col xs={24} md={12}>
            {text("company", "Company", { autoComplete: "organization" })}
          </Col>
          <Col xs={24} md={12}>
            <FormField
              id="contact-timeZone"
              label="Time zone"
              error={errors.timeZone}
              extra="The contact's own time zone; empty: the business's."
            >
              <Controller
                name="timeZone"
                control={control}
                render={({ field }) => (
                  <TimeZoneSelect
                    id="contact-timeZone"
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    allowClear
                    placeholder="The business's time zone"
                    status={errors.timeZone ? "error" : undefined}
                    testId="contact-timeZone"
                  />
                )}
              />
            </FormField>
          </Col>
          <Col xs={24} md={12}>
            <FormField id="contact-customerKind" label="Customer kind">
              <Controller
                name="customerKind"
                control={control}
                render={({ field }) => (
                  <Select
                    id="contact-customerKind"
                    allowClear
                    value={field.value || undefined}
                    onChange={(value) => field.onChange(value ?? "")}
                    options={CUSTOMER_KINDS.map((kind) => ({ value: kind.value, label: kind.label }))}
                    placeholder="Business or personal"
                  />
                )}
              />
            </FormField>
          </Col>
          <Col xs={24} md={12}>
            <FormField id="contact-contactType" label="Contact type">
              <Controller
                name="contactType"
                control={control}
                render={({ field }) => (
                  <Select
                    id="contact-contactType"
                    allowClear
                    value={field.value || undefined}
                    onChange={(value) => field.onChange(value ?? "")}
                    options={(contactTypes.data ?? []).map((type) => ({ value: type.key, label: type.label }))}
                    placeholder="From Settings › Contact types"
                  />
                )}
              />
            </FormField>
          </Col>
          <Col xs={24} md={12}>
            <FormField id="contact-tags" label="Tags" error={errors.tags as FieldError | undefined}>
              <Controller
                name="tags"
                control={control}
                render={({ field }) => (
                  <ChipInput
                    id="contact-tags"
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    maxLength={50}
                    data-testid="contact-tags"
                  />
                )}
              />
            </FormField>
          </Col>
          {customFields.map((custom) => {
            const id = `contact-custom-${custom.key}`;
            const error = (errors.custom as Record<string, FieldError> | undefined)?.[custom.key];
            return (
              <Col xs={24} md={12} key={custom.key}>
                <FormField id={id} label={custom.label} error={error}>
                  <Controller
                    name={`custom.${custom.key}`}
                    control={control}
                    render={({ field }) => {
                      switch (custom.type) {
                        case "select":
                        case "boolean":
                          return (
                            <Select
                              id={id}
                              data-testid={id}
                              allowClear
                              value={field.value || undefined}
                              onChange={(value) => field.onChange(value ?? "")}
                              options={
                                custom.type === "boolean"
                                  ? [
                                      { value: "true", label: "Yes" },
                                      { value: "false", label: "No" },
                                    ]
                                  : (custom.options ?? []).map((option) => ({ value: option, label: option }))
                              }
                            />
                          );
                        case "date":
                          return (
                            <DatePicker
                              id={id}
                              data-testid={id}
                              style={{ width: "100%" }}
                              value={field.value ? dayjs(field.value) : null}
                              onChange={(value) => field.onChange(value ? value.format("YYYY-MM-DD") : "")}
                            />
                          );
                        default:
                          return (
                            <Input
                              {...field}
                              id={id}
                              data-testid={id}
                              inputMode={custom.type === "number" ? "decimal" : undefined}
                            />
                          );
                      }
                    }}
                  />
                </FormField>
              </Col>
            );
          })}
        </Row>
        <Space>
          <Button type="primary" htmlType="submit" loading={isSubmitting} data-testid="contact-submit">
            {submitLabel}
          </Button>
          {onCancel && <Button onClick={onCancel}>Cancel</Button>}
        </Space>
      </form>
    </Form>
  );
}
