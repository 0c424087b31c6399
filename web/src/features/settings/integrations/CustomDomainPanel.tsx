import { CheckCircleFilled, CloseCircleFilled } from "@ant-design/icons";
import { Alert, Button, Flex, Form, Input, Popconfirm, Tag, Typography } from "antd";
import { useState } from "react";
import { isApiError } from "../../../api/errors";
import { useInitial } from "../../../api/hooks/app";
import {
  addCustomDomain,
  type CustomDomain,
  checkCustomDomain,
  removeCustomDomain,
  useCustomDomain,
} from "../../../api/integrations";
import { FormField } from "../../../shared/FormField";
import { formatDateTime } from "../../../shared/format";
import { notify } from "../../../shared/notify";
import { ErrorState, LoadingBlock } from "../../../shared/states";

/** A host name (www.your-business.com); the server checks it too. */
const DOMAIN = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export const DOMAIN_STATUS: Record<CustomDomain["status"], { color: string; label: string }> = {
  verified: { color: "green", label: "Connected" },
  pending: { color: "orange", label: "Waiting for DNS records" },
  failing: { color: "red", label: "DNS records not found" },
};

/**
 * Settings › Integrations › Custom domain: the active project's own domain for its published pages
 * and lead forms. Adding it answers the two DNS records to create (a CNAME to Crafter, a TXT
 * proving the project owns it); the domain serves once both are found (checked periodically, or
 * now); Remove after a confirmation stops serving at once.
 */
export function CustomDomainPanel({ canManage }: { canManage: boolean }) {
  const projectId = useInitial().data?.activeProjectInfo?.projectId;
  const { data, error, mutate } = useCustomDomain(projectId);
  const [domain, setDomain] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<"add" | "check" | "remove" | null>(null);

  if (!projectId)
    return (
      <Typography.Text type="secondary" style={{ paddingInlineStart: 30 }}>
        Create a project first: a custom domain serves a project's pages.
      </Typography.Text>
    );

  const onAdd = async () => {
    const name = domain
      .trim()
      .toLowerCase()
      .replace(/^https?:\/\//, "")
      .replace(/\/.*$/, "")
      .replace(/\.$/, "");
    if (!DOMAIN.test(name)) {
      setProblem("Enter a domain like www.your-business.com");
      return;
    }
    setProblem(null);
    setBusy("add");
    try {
      const added = await addCustomDomain(projectId, name);
      await mutate(added, { revalidate: false });
      setDomain("");
    } catch (failure) {
      if (isApiError(failure) && (failure.status === 400 || failure.status === 409)) setProblem(failure.message);
      else notify.error(failure, "Could not add the domain");
    } finally {
      setBusy(null);
    }
  };

  const onCheck = async () => {
    setBusy("check");
    try {
      const checked = await checkCustomDomain(projectId);
      await mutate(checked, { revalidate: false });
      notify.success(checked.customDomain.status === "verified" ? "The domain is connected" : "Checked");
    } catch (failure) {
      notify.error(failure, "Could not check the domain");
    } finally {
      setBusy(null);
    }
  };

  const onRemove = async () => {
    setBusy("remove");
    try {
      await removeCustomDomain(projectId);
      notify.success("The custom domain is removed", "Your pages are no longer served on it.");
      await mutate({}, { revalidate: true });
    } catch (failure) {
      notify.error(failure, "Could not remove the domain");
    } finally {
      setBusy(null);
    }
  };

  if (!data)
    return (
      <div style={{ paddingInlineStart: 30 }}>
        {error ? <ErrorState error={error} onRetry={() => void mutate()} /> : <LoadingBlock rows={2} />}
      </div>
    );

  const current = data.customDomain;
  return (
    <Flex
      vertical
      gap={12}
      style={{ paddingInlineStart: 30, minWidth: 0 }}
      data-testid="custom-domain-panel"
      data-state={current?.status ?? "none"}
    >
      {!current ? (
        canManage ? (
          <Form layout="vertical" component={false}>
            <form
              aria-label="Add a custom domain"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                void onAdd();
              }}
            >
              <FormField
                id="custom-domain"
                label="Domain"
                error={problem ? { message: problem } : undefined}
                extra="A domain or subdomain you own; you then add two DNS records at your DNS provider."
              >
                <Flex gap={8} wrap>
                  <Input
                    id="custom-domain"
                    data-testid="custom-domain-input"
                    value={domain}
                    onChange={(event) => setDomain(event.target.value)}
                    placeholder="www.your-business.com"
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={!!problem}
                    style={{ flex: "1 1 220px", minWidth: 0 }}
                  />
                  <Button
                    type="primary"
                    htmlType="submit"
                    loading={busy === "add"}
                    disabled={busy !== null}
                    data-testid="custom-domain-add"
                  >
                    Add domain
                  </Button>
                </Flex>
              </FormField>
            </form>
          </Form>
        ) : (
          <Typography.Text type="secondary">The owner or a project admin adds it</Typography.Text>
        )
      ) : (
        <>
          {/* Its state is the row's, beside the title. */}
          <Typography.Text strong className="crafter-wrap" data-testid="custom-domain-name">
            {current.domain}
          </Typography.Text>
          {current.status !== "verified" ? (
            <Alert
              type={current.status === "failing" ? "error" : "info"}
              showIcon
              title="Add these records at your DNS provider"
              description={
                current.problem ||
                "Crafter checks them every few minutes; the domain serves your pages once both are found."
              }
            />
          ) : (
            <Typography.Text type="secondary">
              Your published pages and lead forms are served on {current.domain}.
            </Typography.Text>
          )}
          <ul className="crafter-dns-records" data-testid="custom-domain-records" aria-label="DNS records">
            {current.records.map((record) => (
              <li
                key={`${record.type} ${record.name}`}
                className="crafter-dns-record"
                data-testid="custom-domain-record"
                data-type={record.type}
                data-ok={String(record.ok)}
              >
                <Flex gap={8} align="center" wrap>
                  <Tag bordered={false}>{record.type}</Tag>
                  {record.ok ? (
                    <Typography.Text type="success">
                      <CheckCircleFilled aria-hidden /> Found
                    </Typography.Text>
                  ) : (
                    <Typography.Text type="danger">
                      <CloseCircleFilled aria-hidden /> Not found yet
                      {record.found.length > 0 ? ` (found ${record.found.join(", ")})` : ""}
                    </Typography.Text>
                  )}
                </Flex>
                <div className="crafter-dns-record__field">
                  <Typography.Text type="secondary">Name</Typography.Text>
                  <Typography.Text code copyable data-testid="custom-domain-record-name">
                    {record.name}
                  </Typography.Text>
                </div>
                <div className="crafter-dns-record__field">
                  <Typography.Text type="secondary">Value</Typography.Text>
                  <Typography.Text code copyable data-testid="custom-domain-record-value">
                    {record.value}
                  </Typography.Text>
                </div>
              </li>
            ))}
          </ul>
          <Typography.Text type="secondary">
            {current.checkedAt ? `Last checked ${formatDateTime(current.checkedAt)}` : "Not checked yet"}
          </Typography.Text>
          {canManage ? (
            <Flex gap={8} wrap>
              <Button
                loading={busy === "check"}
                disabled={busy !== null}
                onClick={() => void onCheck()}
                data-testid="custom-domain-check"
              >
                Check now
              </Button>
              <Popconfirm
                title={`Remove ${current.domain}?`}
                description="Your pages and lead forms stop being served on it at once."
                okText="Remove"
                okButtonProps={{ danger: true }}
                onConfirm={() => onRemove()}
              >
                <Button danger disabled={busy !== null} loading={busy === "remove"} data-testid="custom-domain-remove">
                  Remove
                </Button>
              </Popconfirm>
            </Flex>
          ) : null}
        </>
      )}
    </Flex>
  );
}
