import { EditOutlined, FileTextOutlined, ThunderboltOutlined } from "@ant-design/icons";
import { Card, Col, Flex, Row, Typography } from "antd";
import { LinkButton } from "../../shared/LinkButton";

const FEATURES = [
  {
    icon: <EditOutlined />,
    title: "Blog posts in minutes",
    text: "Pick a topic and keywords; Crafter outlines and drafts with proven copywriting frameworks.",
  },
  {
    icon: <ThunderboltOutlined />,
    title: "Watch it write",
    text: "The draft streams in live, step by step, and every step can be edited and redone.",
  },
  {
    icon: <FileTextOutlined />,
    title: "Built for your business",
    text: "Your business profile, audience and keywords shape every piece you craft.",
  },
];

/** The public landing page (marketing theme). */
export default function HomePage() {
  return (
    <div className="crafter-home">
      <section className="crafter-home__hero">
        <Typography.Title className="crafter-home__title">Marketing content, crafted with you.</Typography.Title>
        <Typography.Paragraph className="crafter-home__lead">
          Crafter helps small businesses write blog posts, ads, emails and more, guided step by step.
        </Typography.Paragraph>
        <Flex gap={12} justify="center" wrap>
          <LinkButton to="/signup" type="primary" size="large" data-testid="home-signup">
            Start crafting free
          </LinkButton>
          <LinkButton to="/signin" size="large" data-testid="home-signin">
            Sign in
          </LinkButton>
        </Flex>
      </section>
      <Row gutter={[24, 24]} className="crafter-home__features">
        {FEATURES.map((feature) => (
          <Col xs={24} md={8} key={feature.title}>
            <Card variant="borderless" className="crafter-home__feature">
              <div className="crafter-home__feature-icon" aria-hidden>
                {feature.icon}
              </div>
              <Typography.Title level={4}>{feature.title}</Typography.Title>
              <Typography.Paragraph type="secondary">{feature.text}</Typography.Paragraph>
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
