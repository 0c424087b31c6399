import { Typography } from "antd";
import type { ReactNode } from "react";
import { LinkButton } from "../../shared/LinkButton";
import { MarketingNav } from "./MarketingNav";

/** One marketing page: the site links, its heading and lead, the content and a sign-up call. */
export function MarketingPage({
  path,
  heading,
  lead,
  children,
}: {
  path: string;
  heading: string;
  lead: string;
  children: ReactNode;
}) {
  return (
    <div className="crafter-marketing" data-testid="public-page" data-path={path}>
      <MarketingNav current={path} />
      <header className="crafter-marketing__hero">
        <Typography.Title level={1} className="crafter-marketing__title">
          {heading}
        </Typography.Title>
        <Typography.Paragraph className="crafter-marketing__lead">{lead}</Typography.Paragraph>
      </header>
      {children}
      <section className="crafter-marketing__cta" aria-label="Get started">
        <Typography.Title level={2}>Start crafting today</Typography.Title>
        <Typography.Paragraph>Free credits to try every workflow. No card needed.</Typography.Paragraph>
        <LinkButton to="/signup" type="primary" size="large">
          Create your free account
        </LinkButton>
      </section>
    </div>
  );
}

/** A grid of titled cards (features, use cases, reasons). */
export function CardGrid({ items }: { items: { title: string; text: string }[] }) {
  return (
    <ul className="crafter-marketing__grid">
      {items.map((item) => (
        <li key={item.title} className="crafter-marketing__card">
          <Typography.Title level={3}>{item.title}</Typography.Title>
          <Typography.Paragraph>{item.text}</Typography.Paragraph>
        </li>
      ))}
    </ul>
  );
}
