import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Checkbox, Form, Input, Result, Select, Typography } from "antd";
import { useMemo, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { isApiError } from "../../api/errors";
import { type LeadForm, type LeadFormField, type PublicLeadForm, submitLeadForm } from "../../api/leads";
import { FormField } from "../../shared/FormField";
import { leadFormSchema, submissionValues } from "./form-schema";

const inputType: Record<string, string> = { email: "email", phone: "tel", number: "text", date: "date" };

/**
 * The visitor's lead form: the fields, the consent text, a hidden honeypot ("website"), and the
 * thank-you message once sent. `preview` renders it for the builder without sending anything.
 */
export function LeadFormView({ form, preview }: { form: LeadForm | PublicLeadForm; preview?: boolean }) {
  const schema = useMemo(() => leadFormSchema(form.fields), [form.fields]);
  const defaults = useMemo(() => Object.fromEntries(form.fields.map((field) => [field.key, ""])), [form.fields]);
  const [website, setWebsite] = useState("");
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Record<string, string>>({ resolver: zodResolver(schema), defaultValues: defaults, mode: "onTouched" });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    if (preview) {
      setDone(true);
      return;
    }
    try {
      await submitLeadForm(form.id, {
        values: submissionValues(form.fields, values),
        website,
      });
      setDone(true);
    } catch (error) {
      if (isApiError(error) && Object.keys(error.fields).length > 0) {
        for (const [name, message] of Object.entries(error.fields)) {
          const key = name.replace(/^values\./, "");
          if (form.fields.some((field) => field.key === key)) setError(key, { message });
          else setFailure(message);
        }
        return;
      }
      setFailure(isApiError(error) ? error.message : "Network error!");
    }
  });

  if (done) {
    return (
      <Result
        status="success"
        title={form.thankYouMessage || "Thank you!"}
        subTitle="Check your inbox: we sent you a link to confirm your email."
        data-testid="lead-form-thanks"
        extra={
          preview ? (
            <Button onClick={() => setDone(false)} data-testid="lead-preview-reset">
              Back to the form
            </Button>
          ) : undefined
        }
      />
    );
  }

  const render = (field: LeadFormField) => {
    const id = `lead-${field.key.replace(/\W/g, "-")}`;
    return (
      <FormField key={field.key} id={id} label={field.label} required={field.required} error={errors[field.key]}>
        <Controller
          name={field.key}
          control={control}
          render={({ field: input }) => {
            if (field.type === "checkbox") {
              return (
                <Checkbox
                  id={id}
                  checked={input.value === "true"}
                  onChange={(event) => input.onChange(event.target.checked ? "true" : "")}
                  data-testid={id}
                >
                  {field.label}
                </Checkbox>
              );
            }
            if (field.type === "select") {
              return (
                <Select
                  id={id}
                  allowClear
                  value={input.value || undefined}
                  onChange={(value) => input.onChange(value ?? "")}
                  options={(field.options ?? []).map((option) => ({ value: option, label: option }))}
                  data-testid={id}
                />
              );
            }
            if (field.type === "textarea") {
              return <Input.TextArea {...input} id={id} autoSize={{ minRows: 3 }} data-testid={id} />;
            }
            return (
              <Input
                {...input}
                id={id}
                type={inputType[field.type] ?? "text"}
                autoComplete={field.key === "email" ? "email" : undefined}
                aria-invalid={!!errors[field.key]}
                aria-describedby={errors[field.key] ? `${id}-error` : undefined}
                data-testid={id}
              />
            );
          }}
        />
      </FormField>
    );
  };

  return (
    <Form layout="vertical" component={false}>
      <form onSubmit={submit} noValidate data-testid="lead-form" aria-label={form.title}>
        <Typography.Title level={3}>{form.title}</Typography.Title>
        {form.fields.map(render)}
        {/* The honeypot: people never see it, bots fill it in. */}
        <div
          aria-hidden="true"
          style={{ position: "absolute", left: "-10000px", width: 1, height: 1, overflow: "hidden" }}
        >
          <label htmlFor="lead-website">Website</label>
          <input
            id="lead-website"
            name="website"
            tabIndex={-1}
            autoComplete="off"
            value={website}
            onChange={(event) => setWebsite(event.target.value)}
          />
        </div>
        {form.consentText && (
          <Typography.Paragraph type="secondary" style={{ fontSize: 13 }} data-testid="lead-consent-text">
            {form.consentText}
          </Typography.Paragraph>
        )}
        {failure && (
          <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} data-testid="lead-form-error" />
        )}
        <Button type="primary" htmlType="submit" loading={isSubmitting} block data-testid="lead-submit">
          Sign up
        </Button>
      </form>
    </Form>
  );
}
