import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Card, Form, Input, Select, Typography } from "antd";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { type BrandVoice, saveBrandVoice, useBrandVoice } from "../../api/business";
import { isApiError } from "../../api/errors";
import { FormField } from "../../shared/FormField";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { applyFieldErrors } from "../auth/AuthCard";

const words = z
  .array(z.string().trim().min(1).max(60, "Each entry may be at most 60 characters."))
  .max(50, "At most 50 entries.");
const schema = z
  .object({
    tone: z.string().trim().max(300, "At most 300 characters."),
    wordsToUse: words,
    wordsToAvoid: words,
    exampleCopy: z.string().trim().max(5000, "At most 5000 characters."),
  })
  .refine(
    (voice) =>
      !voice.wordsToUse.some((word) => voice.wordsToAvoid.some((avoid) => avoid.toLowerCase() === word.toLowerCase())),
    { path: ["wordsToAvoid"], message: "A word cannot be both used and avoided." },
  );

/**
 * The business profile page's Brand voice card: tone, words to use and avoid, and example copy,
 * kept with the project and added to every workflow's prompt (the offline engine leaves out the
 * words to avoid).
 */
export function BrandVoiceCard({ projectId }: { projectId: string }) {
  const { data, error, mutate } = useBrandVoice(projectId);
  return (
    <Card title="Brand voice" data-testid="brand-voice">
      <Typography.Paragraph type="secondary">
        How your business writes. Every craft's AI prompt follows it; offline drafts leave out the words to avoid.
      </Typography.Paragraph>
      {!data ? (
        error ? (
          <ErrorState error={error} onRetry={() => void mutate()} />
        ) : (
          <LoadingBlock rows={4} />
        )
      ) : (
        <BrandVoiceForm
          key={projectId}
          projectId={projectId}
          voice={data}
          onSaved={(voice) => void mutate(voice, false)}
        />
      )}
    </Card>
  );
}

function BrandVoiceForm({
  projectId,
  voice,
  onSaved,
}: {
  projectId: string;
  voice: BrandVoice;
  onSaved: (voice: BrandVoice) => void;
}) {
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<BrandVoice>({ resolver: zodResolver(schema), defaultValues: voice });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await saveBrandVoice(projectId, values);
      reset(saved);
      onSaved(saved);
      notify.success("Brand voice saved");
    } catch (failure) {
      if (
        isApiError(failure) &&
        applyFieldErrors(failure.fields, setError, ["tone", "wordsToUse", "wordsToAvoid", "exampleCopy"] as const)
      )
        return;
      notify.error(failure, "Could not save the brand voice");
    }
  });

  const tags = (name: "wordsToUse" | "wordsToAvoid", id: string) => (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <Select
          id={id}
          data-testid={id}
          mode="tags"
          tokenSeparators={[","]}
          open={false}
          suffixIcon={null}
          placeholder="Type a word or phrase, then Enter"
          value={field.value}
          onChange={field.onChange}
        />
      )}
    />
  );

  return (
    <Form layout="vertical" component={false}>
      <form onSubmit={onSubmit} noValidate aria-label="Brand voice">
        <FormField id="brand-tone" label="Tone" error={errors.tone}>
          <Controller
            name="tone"
            control={control}
            render={({ field }) => (
              <Input
                {...field}
                id="brand-tone"
                data-testid="brand-tone"
                placeholder="warm, plain-spoken, a little playful"
              />
            )}
          />
        </FormField>
        <FormField id="brand-words-to-use" label="Words to use" error={errors.wordsToUse as { message?: string }}>
          {tags("wordsToUse", "brand-words-to-use")}
        </FormField>
        <FormField id="brand-words-to-avoid" label="Words to avoid" error={errors.wordsToAvoid as { message?: string }}>
          {tags("wordsToAvoid", "brand-words-to-avoid")}
        </FormField>
        <FormField id="brand-example" label="Example copy" error={errors.exampleCopy}>
          <Controller
            name="exampleCopy"
            control={control}
            render={({ field }) => (
              <Input.TextArea
                {...field}
                id="brand-example"
                data-testid="brand-example"
                autoSize={{ minRows: 3, maxRows: 10 }}
                placeholder="A paragraph of copy that sounds like you."
              />
            )}
          />
        </FormField>
        <Button
          type="primary"
          htmlType="submit"
          loading={isSubmitting}
          disabled={!isDirty}
          data-testid="brand-voice-save"
        >
          Save brand voice
        </Button>
      </form>
    </Form>
  );
}
