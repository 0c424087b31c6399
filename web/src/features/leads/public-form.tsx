import { Card, Flex } from "antd";
import { useParams } from "react-router-dom";
import { isApiError } from "../../api/errors";
import { usePublicLeadForm } from "../../api/leads";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { BusinessBrand } from "./BusinessBrand";
import { LeadFormView } from "./LeadFormView";

/** The public form of `/f/:formId` (and its frameless `/embed` twin). */
export function PublicForm({ framed }: { framed: boolean }) {
  const { formId = "" } = useParams();
  const { data, error, mutate } = usePublicLeadForm(formId);
  let body: React.ReactNode;
  if (error && !data) {
    body =
      isApiError(error) && error.status === 404 ? (
        <EmptyState testId="lead-form-missing" description="This form does not exist or is no longer open." />
      ) : (
        <ErrorState error={error} onRetry={() => void mutate()} title="We could not load this form" />
      );
  } else if (!data) body = <LoadingBlock rows={6} />;
  else
    body = (
      <>
        <BusinessBrand brand={data.business} page={data.title} compact={!framed} />
        <LeadFormView form={data} />
      </>
    );

  if (!framed) return <div style={{ padding: 8 }}>{body}</div>;
  return (
    <Flex justify="center" style={{ padding: "32px 16px" }}>
      <Card style={{ width: "100%", maxWidth: 560 }}>{body}</Card>
    </Flex>
  );
}
