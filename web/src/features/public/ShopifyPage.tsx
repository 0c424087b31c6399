import { Typography } from "antd";
import { CardGrid, MarketingPage } from "./MarketingPage";

// What the Shopify integration does today (Settings › Integrations › Shopify store): each sentence
// names something the connection really does, and the limits it really has.
const STEPS = [
  {
    title: "Install from your store's domain",
    text: "Type your-store.myshopify.com in Settings › Integrations and approve Crafter in Shopify. Crafter asks to read products and customers only, and keeps the access encrypted.",
  },
  {
    title: "Products become offerings",
    text: "Every active product arrives as a product profile: its name, description, tags as keywords, its store page and slug, its SEO summary, and its images copied into your media library.",
  },
  {
    title: "Customers become contacts",
    text: "Customers with an email arrive as contacts with their tags, order count and total spent, ready for segments such as “ordered 3 times and spent over $100”.",
  },
  {
    title: "Consent as Shopify recorded it",
    text: "Only customers Shopify lists as subscribed to email marketing are subscribed here, with the date and opt-in level as evidence. Pending stays pending; someone who unsubscribed in Crafter stays unsubscribed.",
  },
  {
    title: "Kept in sync by itself",
    text: "A product or customer changed in your store changes here within seconds, through Shopify's signed webhooks. “Sync now” imports everything again whenever you like.",
  },
  {
    title: "Your customers' privacy",
    text: "When a customer is deleted or Shopify asks for their data to be erased, Crafter removes what came from your store. Uninstalling the app stops the sync at once.",
  },
];

/** /integrations/shopify */
export default function ShopifyPage() {
  return (
    <MarketingPage
      path="/integrations/shopify"
      heading="Crafter for Shopify"
      lead="Connect your store once: your products become offerings and your customers become contacts, so every page, ad and email starts from what you really sell and who really buys."
    >
      <CardGrid items={STEPS} />
      <Typography.Paragraph
        className="crafter-marketing__lead"
        style={{ marginTop: 32 }}
        data-testid="shopify-connection-note"
      >
        Crafter reads your store and never changes it: orders, prices and stock stay in Shopify. Customers without an
        email address are not imported.
      </Typography.Paragraph>
    </MarketingPage>
  );
}
