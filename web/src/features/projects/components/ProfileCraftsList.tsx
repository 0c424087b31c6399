import { Typography } from "antd";
import { useProfileCrafts } from "../../../api/hooks/profiles";
import { ErrorState, LoadingBlock } from "../../../shared/states";
import { CraftSummaryList } from "../../crafts/CraftSummaryList";

/** The crafts written for a profile (some workflows only, when given), newest first. */
export function ProfileCraftsList({
  profileId,
  workflows,
  testId,
}: {
  profileId: string;
  workflows?: string[];
  testId: string;
}) {
  const { data, error, isLoading, mutate } = useProfileCrafts(profileId);
  if (error) return <ErrorState error={error} onRetry={() => void mutate()} />;
  if (isLoading) return <LoadingBlock rows={2} />;
  const crafts = (data?.crafts ?? []).filter((craft) => !workflows || workflows.includes(craft.workflowName));
  if (crafts.length === 0)
    return (
      <Typography.Text type="secondary" data-testid={`${testId}-empty`}>
        Nothing here yet: start with one of the tools above.
      </Typography.Text>
    );
  return <CraftSummaryList crafts={crafts} testId={testId} />;
}
