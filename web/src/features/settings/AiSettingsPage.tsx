import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Flex, Form, Input, Popconfirm, Select, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import useSWR from "swr";
import { z } from "zod";
import { api, fetcher } from "../../api/api";
import { isApiError } from "../../api/errors";
import { useWorkflowHeaders } from "../../api/hooks/crafts";
import { FormField } from "../../shared/FormField";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { applyFieldErrors } from "../auth/AuthCard";
import { SettingsPageFrame } from "./SettingsPageFrame";
import { type AiSettings, type AiSettingsState, PROVIDER_OPTIONS, settingsPaths } from "./settings-api";

const schema = z
  .object({
    provider: z.enum(["openai", "google", "openai-compatible"]),
    baseUrl: z
      .string()
      .trim()
      .max(2048, "The address is too long")
      .refine((value) => value === "" || /^https?:\/\/\S+$/.test(value), "Enter an http(s) address"),
    defaultModel: z.string().trim().min(1, "Enter the model's id, e.g. gpt-4o-mini").max(120, "Too long"),
    apiKey: z.string().trim().max(500, "This does not look like an API key."),
    workflowModels: z.array(z.object({ workflow: z.string(), model: z.string().trim().max(120, "Too long") })),
  })
  .refine((values) => values.provider !== "openai-compatible" || values.baseUrl !== "", {
    path: ["baseUrl"],
    message: "An OpenAI-compatible endpoint needs its base URL, e.g. http://localhost:11434/v1",
  });
type Values = z.infer<typeof schema>;

/**
 * /app/settings/ai (owners and admins): the account's own AI provider, its key and models, and
 * "Test connection". The key is sent, never shown again: only "set" and its last 4 characters.
 */
export default function AiSettingsPage() {
  const { data, error, mutate } = useSWR<AiSettingsState>(settingsPaths.ai, fetcher);
  return (
    <SettingsPageFrame title="AI settings">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Choose the AI provider that writes your crafts. These settings apply to every project of your account. Without
        them Crafter drafts offline, from your own inputs, at no credit cost.
      </Typography.Paragraph>
      {!data ? (
        error ? (
          <ErrorState error={error} onRetry={() => void mutate()} />
        ) : (
          <LoadingBlock rows={6} />
        )
      ) : !data.available ? (
        <Alert
          type="info"
          showIcon
          data-testid="ai-settings-unavailable"
          message="AI settings are not enabled on this server."
          description="Its operator sets AI_SETTINGS_KEY to let you save your own provider."
        />
      ) : (
        <AiSettingsForm saved={data.settings} onSaved={(settings) => void mutate({ settings, available: true })} />
      )}
    </SettingsPageFrame>
  );
}

function AiSettingsForm({ saved, onSaved }: { saved: AiSettings | null; onSaved: (s: AiSettings | null) => void }) {
  const headers = useWorkflowHeaders();
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const {
    control,
    handleSubmit,
    setError,
    getValues,
    trigger,
    watch,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      provider: saved?.provider ?? "openai",
      baseUrl: saved?.baseUrl ?? "",
      defaultModel: saved?.defaultModel ?? "",
      apiKey: "",
      workflowModels: Object.entries(saved?.workflowModels ?? {}).map(([workflow, model]) => ({ workflow, model })),
    },
  });
  const provider = watch("provider");
  const rows = watch("workflowModels");
  const workflows = (headers.data?.headers ?? []).filter((header) => header.available);

  const body = (values: Values) => ({
    provider: values.provider,
    baseUrl: values.baseUrl,
    defaultModel: values.defaultModel,
    apiKey: values.apiKey,
    workflowModels: Object.fromEntries(
      values.workflowModels.filter((row) => row.model.trim()).map((row) => [row.workflow, row.model.trim()]),
    ),
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const settings = await api.put<AiSettings>(settingsPaths.ai, body(values));
      reset({ ...values, apiKey: "" });
      onSaved(settings);
      notify.success("Your AI settings are saved");
    } catch (failure) {
      if (
        isApiError(failure) &&
        applyFieldErrors(failure.fields, setError, ["provider", "baseUrl", "defaultModel", "apiKey"] as const)
      )
        return;
      notify.error(failure, "Could not save your AI settings");
    }
  });

  const onTest = async () => {
    if (!(await trigger(["provider", "baseUrl", "defaultModel", "apiKey"]))) return;
    const values = getValues();
    setTesting(true);
    setTest(null);
    try {
      setTest(
        await api.post<{ ok: boolean; message: string }>(settingsPaths.aiTest, {
          provider: values.provider,
          baseUrl: values.baseUrl,
          model: values.defaultModel,
          apiKey: values.apiKey,
        }),
      );
    } catch (failure) {
      if (isApiError(failure) && applyFieldErrors(failure.fields, setError, ["baseUrl", "apiKey"] as const)) return;
      notify.error(failure, "Could not test the connection");
    } finally {
      setTesting(false);
    }
  };

  const onRemove = async () => {
    try {
      await api.del(settingsPaths.ai);
      onSaved(null);
      reset({ provider: "openai", baseUrl: "", defaultModel: "", apiKey: "", workflowModels: [] });
      notify.success("Your AI settings are removed; Crafter drafts offline again");
    } catch (failure) {
      notify.error(failure, "Could not remove your AI settings");
    }
  };

  const keyHelp = saved?.keySet
    ? `A key is set (ending in ${saved.keyLast4 || "…"}). Leave this empty to keep it.`
    : provider === "openai-compatible"
      ? "Only if your endpoint asks for one."
      : undefined;

  return (
    <Card>
      <Form layout="vertical" component={false}>
        <form onSubmit={onSubmit} noValidate aria-label="AI settings">
          <FormField id="ai-provider" label="Provider" error={errors.provider} required>
            <Controller
              name="provider"
              control={control}
              render={({ field }) => (
                <Select
                  id="ai-provider"
                  data-testid="ai-provider"
                  options={PROVIDER_OPTIONS}
                  value={field.value}
                  onChange={field.onChange}
                />
              )}
            />
          </FormField>
          <FormField
            id="ai-base-url"
            label="Base URL"
            error={errors.baseUrl}
            required={provider === "openai-compatible"}
            extra={
              provider === "openai-compatible"
                ? "Ollama: http://localhost:11434/v1 · LM Studio: http://localhost:1234/v1 · vLLM: http://host:8000/v1"
                : "Optional: a proxy or regional endpoint."
            }
          >
            <Controller
              name="baseUrl"
              control={control}
              render={({ field }) => (
                <Input {...field} id="ai-base-url" data-testid="ai-base-url" inputMode="url" autoComplete="off" />
              )}
            />
          </FormField>
          <FormField id="ai-api-key" label="API key" error={errors.apiKey} extra={keyHelp}>
            <Controller
              name="apiKey"
              control={control}
              render={({ field }) => (
                <Input.Password
                  {...field}
                  id="ai-api-key"
                  data-testid="ai-api-key"
                  autoComplete="off"
                  placeholder={saved?.keySet ? `••••${saved.keyLast4}` : ""}
                />
              )}
            />
          </FormField>
          {saved?.keySet ? (
            <Tag color="green" data-testid="ai-key-set" style={{ marginBottom: 16 }}>
              Key set · ends in {saved.keyLast4 || "…"}
            </Tag>
          ) : null}
          <FormField id="ai-default-model" label="Default model" error={errors.defaultModel} required>
            <Controller
              name="defaultModel"
              control={control}
              render={({ field }) => (
                <Input
                  {...field}
                  id="ai-default-model"
                  data-testid="ai-default-model"
                  placeholder="gpt-4o-mini, gemini-2.5-flash, llama3.1…"
                />
              )}
            />
          </FormField>
          <Typography.Title level={5}>Model per workflow (optional)</Typography.Title>
          <Flex vertical gap={8} style={{ marginBottom: 16 }} data-testid="ai-workflow-models">
            {rows.map((row, index) => (
              <Space.Compact key={row.workflow} style={{ width: "100%" }}>
                <Input value={workflows.find((w) => w.name === row.workflow)?.title ?? row.workflow} disabled />
                <Controller
                  name={`workflowModels.${index}.model`}
                  control={control}
                  render={({ field }) => (
                    <Input {...field} aria-label={`Model for ${row.workflow}`} placeholder="Default model" />
                  )}
                />
              </Space.Compact>
            ))}
            <Select
              aria-label="Add a model for a workflow"
              placeholder="Add a workflow with its own model"
              value={null}
              options={workflows
                .filter((header) => !rows.some((row) => row.workflow === header.name))
                .map((header) => ({ value: header.name, label: header.title }))}
              onChange={(workflow: string) =>
                reset(
                  { ...getValues(), workflowModels: [...getValues().workflowModels, { workflow, model: "" }] },
                  {
                    keepDirty: true,
                    keepErrors: true,
                  },
                )
              }
            />
          </Flex>
          {test ? (
            <Alert
              type={test.ok ? "success" : "error"}
              showIcon
              role="status"
              data-testid="ai-test-result"
              message={test.ok ? "Connection works" : "Connection failed"}
              description={test.message}
              style={{ marginBottom: 16 }}
            />
          ) : null}
          <Flex gap={8} wrap>
            <Button type="primary" htmlType="submit" loading={isSubmitting} data-testid="ai-save">
              Save
            </Button>
            <Button onClick={() => void onTest()} loading={testing} data-testid="ai-test">
              Test connection
            </Button>
            {saved ? (
              <Popconfirm
                title="Remove your AI settings?"
                description="Crafter will draft offline again, and your key is deleted."
                okText="Remove"
                onConfirm={() => void onRemove()}
              >
                <Button danger data-testid="ai-remove">
                  Remove
                </Button>
              </Popconfirm>
            ) : null}
          </Flex>
        </form>
      </Form>
    </Card>
  );
}
