import { Card, Col, Row, Statistic, Typography } from "antd";
import { Link } from "react-router-dom";
import { useProfiles } from "../../api/hooks/profiles";
import { AreaShell } from "../projects/components/AreaShell";
import { PRODUCT_AREA, SERVICE_AREA } from "../projects/components/areas";
import { ProfileCraftsPage, ProfileListPage, ProfileToolsPage } from "../projects/components/ProfileAreaPages";

/** /app/offerings: the products and services of the active project. */
export default function OfferingsPage() {
  const products = useProfiles("PRODUCT");
  const services = useProfiles("SERVICE");
  const cards = [
    { area: PRODUCT_AREA, list: products.data?.profiles, testId: "offerings-products" },
    { area: SERVICE_AREA, list: services.data?.profiles, testId: "offerings-services" },
  ];
  return (
    <AreaShell title="Offerings" subtitle="What you sell: products and services." help="offerings">
      <Row gutter={[16, 16]}>
        {cards.map(({ area, list, testId }) => (
          <Col key={area.type} xs={24} md={12}>
            <Card
              title={<Link to={area.base}>{area.title}</Link>}
              data-testid={testId}
              extra={<Link to={`${area.base}/tools`}>Tools</Link>}
            >
              <Statistic title={`${area.title} in this project`} value={list?.length ?? 0} loading={!list} />
              <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
                {area.subtitle}
              </Typography.Paragraph>
              <Typography.Text>
                {(list ?? []).slice(0, 5).map((profile, index) => (
                  <span key={profile.profileId}>
                    {index > 0 && " · "}
                    {profile.name}
                  </span>
                ))}
              </Typography.Text>
            </Card>
          </Col>
        ))}
      </Row>
    </AreaShell>
  );
}

export const ProductsPage = () => <ProfileListPage area={PRODUCT_AREA} />;
export const ProductToolsPage = () => <ProfileToolsPage area={PRODUCT_AREA} />;
export const ProductCraftsPage = () => <ProfileCraftsPage area={PRODUCT_AREA} />;
export const ServicesPage = () => <ProfileListPage area={SERVICE_AREA} />;
export const ServiceToolsPage = () => <ProfileToolsPage area={SERVICE_AREA} />;
export const ServiceCraftsPage = () => <ProfileCraftsPage area={SERVICE_AREA} />;
