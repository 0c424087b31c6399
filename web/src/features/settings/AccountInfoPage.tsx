import { UserOutlined } from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { Avatar, Button, Card, Flex, Form, Input, Typography } from "antd";
import { Controller, useForm } from "react-hook-form";
import { useSWRConfig } from "swr";
import { z } from "zod";
import { api } from "../../api/api";
import { isApiError } from "../../api/errors";
import { useAccount } from "../../api/hooks/app";
import { keys } from "../../api/keys";
import type { UserInfo } from "../../api/types";
import { FormField } from "../../shared/FormField";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { applyFieldErrors } from "../auth/AuthCard";
import { ChangeEmailCard } from "./ChangeEmailCard";
import { SettingsPageFrame } from "./SettingsPageFrame";
import { settingsPaths } from "./settings-api";

const schema = z.object({
  displayName: z.string().trim().min(1, "Name is required").max(80, "At most 80 characters"),
  image: z
    .string()
    .trim()
    .max(2048, "Image link is too long")
    .refine(
      (value) => value === "" || value.startsWith("https://") || value.startsWith("/media/"),
      "Use an https image link",
    ),
});
type Values = z.infer<typeof schema>;

/** /app/settings/account-info: display name and image (a link until media uploads land). */
export default function AccountInfoPage() {
  const { data: account, error, mutate } = useAccount();
  return (
    <SettingsPageFrame title="Account info">
      {!account ? (
        error ? (
          <ErrorState error={error} onRetry={() => void mutate()} />
        ) : (
          <LoadingBlock rows={3} />
        )
      ) : (
        <>
          <AccountInfoForm account={account} />
          <ChangeEmailCard email={account.email} />
        </>
      )}
    </SettingsPageFrame>
  );
}

function AccountInfoForm({ account }: { account: UserInfo }) {
  const { mutate } = useSWRConfig();
  const {
    control,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting, isDirty },
    reset,
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { displayName: account.display_name, image: account.image ?? "" },
  });
  const image = watch("image");

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await api.put<UserInfo>(settingsPaths.accountInfo, values);
      reset({ displayName: saved.display_name, image: saved.image ?? "" });
      await Promise.all([mutate(keys.account(), saved, { revalidate: false }), mutate(keys.initial())]);
      notify.success("Your account info is saved");
    } catch (failure) {
      if (isApiError(failure) && applyFieldErrors(failure.fields, setError, ["displayName", "image"] as const)) return;
      notify.error(failure, "Could not save your account info");
    }
  });

  return (
    <Card>
      <Form layout="vertical" component={false}>
        <form onSubmit={onSubmit} noValidate aria-label="Account info">
          <Flex gap={16} align="center" style={{ marginBottom: 16 }}>
            <Avatar size={64} icon={<UserOutlined />} src={image || undefined} alt="" />
            <Typography.Text type="secondary" data-testid="account-info-email">
              {account.email}
            </Typography.Text>
          </Flex>
          <FormField id="account-display-name" label="Display name" error={errors.displayName} required>
            <Controller
              name="displayName"
              control={control}
              render={({ field }) => (
                <Input {...field} id="account-display-name" data-testid="account-display-name" maxLength={80} />
              )}
            />
          </FormField>
          <FormField
            id="account-image"
            label="Image link"
            error={errors.image}
            extra="An https link to your picture. Uploading comes with the media library."
          >
            <Controller
              name="image"
              control={control}
              render={({ field }) => (
                <Input {...field} id="account-image" data-testid="account-image" inputMode="url" />
              )}
            />
          </FormField>
          <Button
            type="primary"
            htmlType="submit"
            loading={isSubmitting}
            disabled={!isDirty}
            data-testid="account-info-save"
          >
            Save
          </Button>
        </form>
      </Form>
    </Card>
  );
}
