import { Button, Card, Col, Flex, Row, Tag, Typography } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { countLabel } from "../../shared/format";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { useAutomationTemplates, useAutomationWrites } from "./api";
import { AUTOMATION_PAGES } from "./paths";
import { STEP_LABELS, stepIds, TRIGGER_LABELS } from "./step-tree";

/** /app/automation/templates: the shipped automations; "Use" copies one as a draft and opens it. */
export default function AutomationTemplatesPage() {
  const navigate = useNavigate();
  const { data, error, isLoading, mutate } = useAutomationTemplates();
  const writes = useAutomationWrites();
  const [busy, setBusy] = useState<string | null>(null);

  const use = async (templateId: string) => {
    setBusy(templateId);
    try {
      const created = await writes.fromTemplate(templateId);
      navigate(AUTOMATION_PAGES.automation(created.id));
    } catch (err) {
      notify.error(err, "Could not create the automation");
    } finally {
      setBusy(null);
    }
  };

  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Automation templates
        </Typography.Title>
        <Typography.Text type="secondary">Start from a proven flow, then change any step</Typography.Text>
      </div>
      {error && !data ? (
        <ErrorState error={error} onRetry={() => void mutate()} title="We could not load the templates" />
      ) : isLoading || !data ? (
        <LoadingBlock rows={6} />
      ) : (
        <Row gutter={[16, 16]}>
          {data.map((t) => (
            <Col key={t.id} xs={24} md={12}>
              <Card
                title={t.name}
                data-testid={`automation-template-${t.id}`}
                actions={[
                  <Button
                    key="use"
                    type="primary"
                    loading={busy === t.id}
                    onClick={() => void use(t.id)}
                    data-testid={`automation-template-use-${t.id}`}
                  >
                    Use this template
                  </Button>,
                ]}
              >
                <Typography.Paragraph>{t.description}</Typography.Paragraph>
                <Typography.Text type="secondary">When: {TRIGGER_LABELS[t.trigger.kind]}</Typography.Text>
                <Flex wrap gap={4} style={{ marginTop: 8 }}>
                  {t.steps.map((s) => (
                    <Tag key={s.id}>{STEP_LABELS[s.kind]}</Tag>
                  ))}
                  <Typography.Text type="secondary">
                    {countLabel(stepIds(t.steps).length, "step")} in all
                  </Typography.Text>
                </Flex>
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </Flex>
  );
}
