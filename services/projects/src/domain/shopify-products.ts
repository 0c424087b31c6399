/**
 * A Shopify store's products as PRODUCT profiles (offerings): the Admin GraphQL queries Crafter
 * sends and the mapping of a product to the spec's product fields. Pure.
 * Shapes: https://shopify.dev/docs/api/admin-graphql/2025-01/objects/Product
 */
import { createHash } from "node:crypto";
import { htmlToText } from "@crafter/html";
import { PROFILE_FIELD_DEFS } from "@crafter/validation";

/** Products per page: 50 × (1 + 10 media) ≈ 600 points, well inside a Standard store's 2,000-point bucket. */
export const PRODUCTS_PAGE = 50;

const PRODUCT_FIELDS = `id title handle descriptionHtml onlineStoreUrl tags status updatedAt
  seo { title description }
  media(first: 10) { nodes { ... on MediaImage { image { url altText } } } }`;

/** One page of the store's active products, oldest id first. */
export const PRODUCTS_QUERY = `query Products($first: Int!, $after: String) {
  products(first: $first, after: $after, query: "status:active", sortKey: ID) {
    nodes { ${PRODUCT_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** One product by its GraphQL id. */
export const PRODUCT_QUERY = `query Product($id: ID!) {
  product(id: $id) { ${PRODUCT_FIELDS} }
}`;

/** A product as PRODUCTS_QUERY and PRODUCT_QUERY read it. */
export interface ShopifyProduct {
  id: string;
  title: string;
  handle: string;
  descriptionHtml: string;
  onlineStoreUrl: string | null;
  tags: string[];
  status: string;
  updatedAt: string;
  seo: { title: string | null; description: string | null } | null;
  media: { nodes: ({ image?: { url: string; altText: string | null } | null } | null)[] } | null;
}

export interface ProductsPage {
  products: { nodes: ShopifyProduct[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

/** The profile fields the store owns; every other field (audience, feature list, usage…) stays the owner's. */
export interface ProductValues {
  name: string;
  description: string;
  keywords: string[];
  pageUrl: string;
  pageSlug: string;
  seoSummary: string;
  images: string[];
}

const limits = Object.fromEntries(PROFILE_FIELD_DEFS.PRODUCT.map((def) => [def.key, def]));
const cut = (text: string, key: string) => text.slice(0, limits[key]?.max ?? 1000);

/** Whether a product is one Crafter keeps as an offering (active in the store). */
export const isOffered = (product: ShopifyProduct | null): product is ShopifyProduct =>
  product !== null && product.status === "ACTIVE";

/**
 * A product's fields as a PRODUCT profile's: title, the description as text, tags as keywords,
 * the online store page and its handle as page URL and slug, the SEO description (else the
 * description's start) as the SEO summary, image URLs; each within the profile's limits.
 */
export function productValues(product: ShopifyProduct): ProductValues {
  const description = htmlToText(product.descriptionHtml ?? "", { links: false }).trim();
  const keywordLimit = limits.keywords?.maxItems ?? 20;
  const keywords = [
    ...new Set(
      (product.tags ?? []).map((tag) => tag.trim()).filter((tag) => tag && tag.length <= (limits.keywords?.max ?? 60)),
    ),
  ].slice(0, keywordLimit);
  const seo = (product.seo?.description ?? "").trim() || description.replace(/\s+/g, " ");
  const images = (product.media?.nodes ?? [])
    .map((node) => node?.image?.url ?? "")
    .filter((url) => /^https?:\/\//.test(url) && url.length <= 2048)
    .slice(0, limits.images?.maxItems ?? 20);
  const slug = product.handle
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return {
    name: cut(product.title.trim() || product.handle, "name"),
    description: cut(description, "description"),
    keywords,
    pageUrl:
      product.onlineStoreUrl && /^https?:\/\//.test(product.onlineStoreUrl)
        ? cut(product.onlineStoreUrl, "pageUrl")
        : "",
    pageSlug: cut(slug, "pageSlug"),
    seoSummary: cut(seo, "seoSummary"),
    images,
  };
}

/**
 * The profile id of a product in a project: a UUID derived from both, so an import, a webhook and
 * a redelivery all write the one document (its `_id` is the unique key) and no lookup comes first.
 */
export function productProfileId(projectId: string, productGid: string): string {
  const hex = createHash("sha256").update(`shopify|${projectId}|${productGid}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
