import { isTimeZone, localTimeZone } from "@crafter/time";
import { INVALID_URL_MESSAGE, isValidUrl, normalizeUrl } from "@crafter/validation";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Card, Form, Input, Typography } from "antd";
import { Controller, useForm } from "react-hook-form";
import { useNavigate } from "react-router-dom";
import { z } from "zod";
import { isApiError } from "../../api/errors";
import { useInitial } from "../../api/hooks/app";
import { useCreateProject } from "../../api/hooks/projects";
import type { CreateProjectInput } from "../../api/types";
import { ChipInput } from "../../shared/ChipInput";
import { FormField } from "../../shared/FormField";
import { notify } from "../../shared/notify";
import { TimeZoneSelect } from "../../shared/time-zone";
import { applyFieldErrors } from "../auth/AuthCard";

export const projectSchema = z.object({
  name: z.string().trim().min(1, "Business name is required").max(120, "Business name is too long"),
  description: z.string().trim().min(1, "Description is required").max(2000, "Description is too long"),
  audience: z.string().trim().max(500, "Audience is too long"),
  keywords: z.array(z.string()).max(30, "Up to 30 keywords"),
  websiteUrl: z
    .string()
    .trim()
    .refine((value) => value === "" || isValidUrl(value, { allowSchemeless: true }), INVALID_URL_MESSAGE),
  timeZone: z.string().refine(isTimeZone, "Choose your business's time zone"),
});
export type ProjectValues = z.infer<typeof projectSchema>;

const FIELDS = ["name", "description", "audience", "keywords", "websiteUrl", "timeZone"] as const;

/** /app/welcome: onboarding. Creates the first project, then opens the dashboard. */
export default function WelcomePage() {
  const navigate = useNavigate();
  const createProject = useCreateProject();
  const { data } = useInitial();
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ProjectValues>({
    resolver: zodResolver(projectSchema),
    // The browser's zone is the likely one; the user confirms it here.
    defaultValues: { name: "", description: "", audience: "", keywords: [], websiteUrl: "", timeZone: localTimeZone() },
  });

  const onSubmit = handleSubmit(async (values) => {
    const payload: CreateProjectInput = {
      name: values.name,
      description: values.description,
      keywords: values.keywords,
      timeZone: values.timeZone,
    };
    if (values.audience) payload.audience = values.audience;
    if (values.websiteUrl)
      payload.websiteUrl = normalizeUrl(values.websiteUrl, { allowSchemeless: true }) ?? values.websiteUrl;
    try {
      await createProject(payload);
      notify.success("Your business is set up", "Let's craft your first piece.");
      navigate("/app/dashboard", { replace: true });
    } catch (error) {
      if (isApiError(error) && applyFieldErrors(error.fields, setError, FIELDS)) return;
      notify.error(error, "Could not create your project");
    }
  });

  const name = data?.userInfo?.display_name;

  return (
    <div className="crafter-welcome">
      <Card className="crafter-welcome__card" variant="borderless">
        <Typography.Title level={2}>Welcome{name ? `, ${name}` : ""}!</Typography.Title>
        <Typography.Paragraph type="secondary">
          Tell us about your business. Crafter uses it to write content that sounds like you and speaks to your
          audience.
        </Typography.Paragraph>
        <Form layout="vertical" component={false}>
          <form onSubmit={onSubmit} noValidate aria-label="Business details" data-testid="welcome-form">
            <FormField id="project-name" label="Business name" error={errors.name} required>
              <Controller
                name="name"
                control={control}
                render={({ field }) => (
                  <Input
                    {...field}
                    id="project-name"
                    autoFocus
                    status={errors.name ? "error" : undefined}
                    data-testid="welcome-name"
                  />
                )}
              />
            </FormField>
            <FormField id="project-description" label="Description" error={errors.description} required>
              <Controller
                name="description"
                control={control}
                render={({ field }) => (
                  <Input.TextArea
                    {...field}
                    id="project-description"
                    autoSize={{ minRows: 3, maxRows: 8 }}
                    placeholder="What do you sell, and what makes you different?"
                    status={errors.description ? "error" : undefined}
                    data-testid="welcome-description"
                  />
                )}
              />
            </FormField>
            <FormField id="project-audience" label="Audience" error={errors.audience}>
              <Controller
                name="audience"
                control={control}
                render={({ field }) => (
                  <Input
                    {...field}
                    id="project-audience"
                    placeholder="Who are your customers?"
                    data-testid="welcome-audience"
                  />
                )}
              />
            </FormField>
            <FormField
              id="project-keywords"
              label="Keywords"
              error={errors.keywords}
              extra="Press Enter or type a comma after each keyword."
            >
              <Controller
                name="keywords"
                control={control}
                render={({ field }) => (
                  <ChipInput
                    id="project-keywords"
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    placeholder="e.g. handmade soap"
                    data-testid="welcome-keywords"
                  />
                )}
              />
            </FormField>
            <FormField id="project-website" label="Website URL" error={errors.websiteUrl}>
              <Controller
                name="websiteUrl"
                control={control}
                render={({ field }) => (
                  <Input
                    {...field}
                    id="project-website"
                    inputMode="url"
                    placeholder="example.com"
                    status={errors.websiteUrl ? "error" : undefined}
                    data-testid="welcome-website"
                  />
                )}
              />
            </FormField>
            <FormField
              id="project-time-zone"
              label="Time zone"
              error={errors.timeZone}
              required
              extra="Your schedules, calendar and birthday emails follow it."
            >
              <Controller
                name="timeZone"
                control={control}
                render={({ field }) => (
                  <TimeZoneSelect
                    id="project-time-zone"
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    status={errors.timeZone ? "error" : undefined}
                    testId="welcome-time-zone"
                  />
                )}
              />
            </FormField>
            <Button type="primary" htmlType="submit" size="large" loading={isSubmitting} data-testid="welcome-submit">
              Continue to the dashboard
            </Button>
          </form>
        </Form>
      </Card>
    </div>
  );
}
