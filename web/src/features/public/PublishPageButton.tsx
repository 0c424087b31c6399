import { GlobalOutlined } from "@ant-design/icons";
import { PAGE_SLUG_MAX, PAGE_SLUG_MESSAGES, pageSlugProblem } from "@crafter/validation";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Flex, Form, Input, Modal, Popconfirm, Typography } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import useSWR from "swr";
import { z } from "zod";
import { api, fetcher } from "../../api/api";
import { isApiError } from "../../api/errors";
import { notify } from "../../shared/notify";
import { suggestSlug } from "./slug";

/** `GET /api/workflowsV2/{id}/page`: the page published from a craft (issue 14). */
export interface PublishedPage {
  slug: string;
  url: string;
  craftId: string;
  title: string;
  description: string;
  businessName: string;
  publishedAt: string | null;
  updatedAt: string | null;
}

/** The one workflow whose crafts can be published as a page. */
export const PUBLISHABLE_WORKFLOW = "WebPageWriter";

const schema = z.object({
  slug: z.string().superRefine((value, ctx) => {
    const problem = pageSlugProblem(value.trim());
    if (problem) ctx.addIssue({ code: "custom", message: PAGE_SLUG_MESSAGES[problem] });
  }),
});

/**
 * "Publish" on a Web Page Writer craft's page: chooses the page's address (`/<slug>`), publishes
 * or republishes the craft's current sections there, shows the link, and unpublishes.
 */
export function PublishPageButton({
  craftId,
  workflowName,
  craftName,
}: {
  craftId: string;
  workflowName: string;
  craftName: string;
}) {
  const publishable = workflowName === PUBLISHABLE_WORKFLOW && Boolean(craftId);
  const key = publishable ? `/api/workflowsV2/${craftId}/page` : null;
  const { data, mutate } = useSWR<{ page: PublishedPage | null }>(key, fetcher);
  const [open, setOpen] = useState(false);
  const page = data?.page ?? null;
  const { control, handleSubmit, formState, reset, setError } = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { slug: "" },
  });
  if (!publishable) return null;

  const show = () => {
    reset({ slug: page?.slug ?? suggestSlug(craftName) });
    setOpen(true);
  };

  const submit = handleSubmit(async ({ slug }) => {
    try {
      const published = await api.put<PublishedPage>(`/api/workflowsV2/${craftId}/page`, { slug: slug.trim() });
      await mutate({ page: published }, { revalidate: false });
      notify.success("Published", `Your page is live at ${published.url}`);
    } catch (err) {
      if (isApiError(err) && (err.code === "PAGE_SLUG_TAKEN" || err.fields.slug)) {
        setError("slug", { message: err.fields.slug ?? err.message });
        return;
      }
      notify.error(err, "Could not publish the page");
    }
  });

  const unpublish = async () => {
    try {
      await api.del(`/api/workflowsV2/${craftId}/page`);
      await mutate({ page: null }, { revalidate: false });
      notify.success("Unpublished", "The page is no longer on the web.");
    } catch (err) {
      notify.error(err, "Could not unpublish the page");
    }
  };

  return (
    <>
      <Button icon={<GlobalOutlined />} onClick={show} data-testid="publish-page">
        {page ? "Published" : "Publish"}
      </Button>
      <Modal
        open={open}
        title="Publish as a web page"
        okText={page ? "Republish" : "Publish"}
        onOk={() => void submit()}
        confirmLoading={formState.isSubmitting}
        okButtonProps={{ "data-testid": "publish-confirm" } as never}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Flex vertical gap={12}>
          {page && (
            <Alert
              type="success"
              showIcon
              data-testid="published-page"
              message={
                <span>
                  Live at{" "}
                  <Typography.Link href={page.url} target="_blank" rel="noopener" data-testid="published-url">
                    {page.url}
                  </Typography.Link>
                </span>
              }
              description="Republish to update it with the page's current sections."
              action={
                <Popconfirm
                  title="Unpublish this page?"
                  description="Its address will show “Page not found” and can be taken by someone else."
                  okText="Unpublish"
                  onConfirm={() => void unpublish()}
                >
                  <Button size="small" danger data-testid="unpublish-page">
                    Unpublish
                  </Button>
                </Popconfirm>
              }
            />
          )}
          <form onSubmit={submit} data-testid="publish-form">
            <Form.Item
              label="Address"
              validateStatus={formState.errors.slug ? "error" : undefined}
              help={formState.errors.slug?.message ?? "Lowercase letters, digits and hyphens."}
              layout="vertical"
            >
              <Controller
                name="slug"
                control={control}
                render={({ field }) => (
                  <Input
                    {...field}
                    addonBefore={`${window.location.origin}/`}
                    maxLength={PAGE_SLUG_MAX}
                    aria-label="Page address"
                    autoComplete="off"
                    data-testid="publish-slug"
                  />
                )}
              />
            </Form.Item>
          </form>
        </Flex>
      </Modal>
    </>
  );
}
