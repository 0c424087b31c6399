import { CardGrid, MarketingPage } from "./MarketingPage";

const STEPS = [
  {
    title: "Connect your store",
    text: "Link your Shopify store from Settings › Integrations (available with the Shopify flag).",
  },
  { title: "Pick a product", text: "Crafter reads its title, description, images and price into a product profile." },
  { title: "Craft what sells", text: "Product descriptions, SEO summaries, ads and launch emails from one profile." },
  { title: "Reach your customers", text: "Import customers as contacts, build segments and email them." },
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
    </MarketingPage>
  );
}
