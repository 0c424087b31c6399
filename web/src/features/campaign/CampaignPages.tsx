import { CAMPAIGN_AREA } from "../projects/components/areas";
import { ProfileCraftsPage, ProfileListPage, ProfileToolsPage } from "../projects/components/ProfileAreaPages";

/** /app/campaign: the campaigns of the active project. */
export default function CampaignPage() {
  return <ProfileListPage area={CAMPAIGN_AREA} />;
}
export const CampaignToolsPage = () => <ProfileToolsPage area={CAMPAIGN_AREA} />;
export const CampaignCraftsPage = () => <ProfileCraftsPage area={CAMPAIGN_AREA} />;
