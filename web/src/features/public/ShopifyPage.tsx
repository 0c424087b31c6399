import { Typography } from "antd";
import { CardGrid, MarketingPage } from "./MarketingPage";

// What works today, without a store connection: Shopify's own exports and Crafter's product profiles.
const STEPS = [
  {
    title: "Bring your customers",
    text: "Export your customers from Shopify as a CSV file and import it into Crafter's contacts. Its columns, email marketing consent included, are recognised for you.",
  },
  {
    title: "Describe your products",
    text: "Add each product you sell as a product profile. Everything Crafter writes for it starts from that profile.",
  },
  { title: "Craft what sells", text: "Product descriptions, SEO summaries, ads and launch emails from one profile." },
  { title: "Reach your customers", text: "Build segments of your customers and send them email campaigns." },
];

/** /integrations/shopify */
export default function ShopifyPage() {
  return (
    <MarketingPage
      path="/integrations/shopify"
      heading="Crafter for Shopify"
      lead="Turn your products into pages, ads and emails that sell, in minutes instead of evenings."
    >
      <CardGrid items={STEPS} />
      <Typography.Paragraph className="crafter-marketing__lead" data-testid="shopify-connection-note">
        A direct connection to your Shopify store, which would keep products and customers in sync by itself, is not
        available yet.
      </Typography.Paragraph>
    </MarketingPage>
  );
}
