import { OutboundError, type ShopGrant, ShopifyApiError } from "@crafter/kit";
import type { ProjectsDeps } from "../deps";
import {
  isOffered,
  PRODUCT_QUERY,
  PRODUCTS_PAGE,
  PRODUCTS_QUERY,
  type ProductsPage,
  productProfileId,
  productValues,
  type ShopifyProduct,
} from "../domain/shopify-products";
import { emptySections } from "./sections";

// A project's Shopify products as PRODUCT profiles (offerings), kept in sync: a full import when
// the store is installed or the owner asks ("Sync now"), one product at a time from webhooks.
// Account owns the connection; its events (account.connection.v1) drive both.

/** Pages read at most in one import (50 products each). */
const MAX_PAGES = 200;

/** Products of a page saved side by side: each is its own profile (and its own image copies). */
const SAVE_CONCURRENCY = 4;

const SOURCE = "shopify";

/**
 * The product's images as the offering shows them: each copied into the owner's media library
 * once (media keys the copy by project and URL, so a re-sync copies nothing) and shown from its
 * lasting public path; an image media could not copy keeps the store's URL, and the next sync
 * tries again.
 */
async function copyImages(
  deps: ProjectsDeps,
  owner: { userId: string; projectId: string },
  profileId: string,
  name: string,
  urls: string[],
): Promise<{ images: string[]; mediaAssetIds: string[] }> {
  const images: string[] = [];
  const mediaAssetIds: string[] = [];
  for (const url of urls) {
    const copy = await deps.productImages.copy({ ...owner, profileId, url, name });
    images.push(copy?.path ?? url);
    if (copy) mediaAssetIds.push(copy.assetId);
  }
  return { images, mediaAssetIds };
}

/**
 * What a written offering was made from: the product's updatedAt and this mapping's version (a
 * change to productValues or the image copies bumps it, so every product is written again once).
 */
const sourceVersionOf = (product: ShopifyProduct) => `1|${product.updatedAt}`;

/**
 * Writes one product's offering, unless it was written from this very version of the product with
 * every image copied (a re-sync or a late webhook of an unchanged product writes nothing).
 */
async function save(deps: ProjectsDeps, owner: { userId: string; projectId: string }, product: ShopifyProduct) {
  const values = productValues(product);
  const id = productProfileId(owner.projectId, product.id);
  const version = sourceVersionOf(product);
  const stored = await deps.stores.profiles.sourceStateOf(owner.userId, id);
  if (product.updatedAt && stored?.sourceVersion === version && stored.copies === values.images.length) return;
  const { name, description, keywords, images: urls, ...rest } = values;
  const { images, mediaAssetIds } = await copyImages(deps, owner, id, name, urls);
  const fields = { ...rest, images };
  await deps.stores.profiles.upsertFromSource({
    id,
    userId: owner.userId,
    projectId: owner.projectId,
    source: SOURCE,
    sourceId: product.id,
    core: { name, description, keywords, mediaAssetIds, sourceVersion: version },
    fields,
    sections: emptySections(),
    event: deps.events.profileUpdated({ userId: owner.userId, projectId: owner.projectId, id, type: "PRODUCT", name }, [
      "name",
      "description",
      "keywords",
      ...Object.keys(fields),
    ]),
    at: deps.now(),
  });
}

const failureText = (error: unknown) =>
  error instanceof ShopifyApiError || error instanceof OutboundError
    ? error.message.slice(0, 300)
    : "The import stopped on an unexpected error.";

/**
 * Imports every active product of the project's store, a page of 50 at a time (cursor
 * pagination, waiting whenever Shopify answers THROTTLED), as PRODUCT profiles upserted by their
 * product id; offerings of products no longer in the store (or no longer active) are removed.
 * Reports the outcome to account. Idempotent: an import run twice writes the same profiles.
 * @returns how many products were written; null when the store is not connected.
 */
export async function importShopifyProducts(
  deps: ProjectsDeps,
  input: { projectId: string; ownerUserId: string },
): Promise<number | null> {
  const grant = await deps.shopify.grant(input.projectId);
  if (!grant) return null;
  const owner = { userId: input.ownerUserId, projectId: input.projectId };
  const seen = new Set<string>();
  let after: string | null = null;
  let imported = 0;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const data: ProductsPage = await deps.shopify.query<ProductsPage>(grant, PRODUCTS_QUERY, {
        first: PRODUCTS_PAGE,
        after,
      });
      const offered = data.products.nodes.filter(isOffered);
      for (let at = 0; at < offered.length; at += SAVE_CONCURRENCY) {
        const slice = offered.slice(at, at + SAVE_CONCURRENCY);
        await Promise.all(slice.map((product) => save(deps, owner, product)));
        for (const product of slice) seen.add(productProfileId(input.projectId, product.id));
        imported += slice.length;
      }
      if (!data.products.pageInfo.hasNextPage || !data.products.pageInfo.endCursor) {
        for (const id of await deps.stores.profiles.idsFromSource(input.projectId, SOURCE))
          if (!seen.has(id)) await deps.stores.profiles.removeFromSource(input.ownerUserId, id, SOURCE);
        break;
      }
      after = data.products.pageInfo.endCursor;
    }
  } catch (error) {
    if (!(error instanceof ShopifyApiError || error instanceof OutboundError)) throw error;
    deps.logger.warn({ projectId: input.projectId, err: error.message }, "the Shopify products import stopped");
    await deps.shopify.report(input.projectId, "products", imported, failureText(error));
    return imported;
  }
  deps.kick();
  await deps.shopify.report(input.projectId, "products", imported, "");
  return imported;
}

/**
 * One product the store announced (products/create, update, delete): read again from the store,
 * so a late or repeated webhook writes its current state; gone or no longer active, its offering
 * is removed.
 */
export async function syncShopifyProduct(
  deps: ProjectsDeps,
  input: { projectId: string; ownerUserId: string; productGid: string; deleted: boolean },
): Promise<void> {
  const id = productProfileId(input.projectId, input.productGid);
  let product: ShopifyProduct | null = null;
  if (!input.deleted) {
    const grant: ShopGrant | null = await deps.shopify.grant(input.projectId);
    if (!grant) return;
    try {
      product = (
        await deps.shopify.query<{ product: ShopifyProduct | null }>(grant, PRODUCT_QUERY, { id: input.productGid })
      ).product;
    } catch (error) {
      // The app was uninstalled meanwhile: app/uninstalled ends the connection.
      if (error instanceof ShopifyApiError && error.code === "UNAUTHORIZED") return;
      throw error;
    }
  }
  if (isOffered(product)) await save(deps, { userId: input.ownerUserId, projectId: input.projectId }, product);
  else await deps.stores.profiles.removeFromSource(input.ownerUserId, id, SOURCE);
  deps.kick();
}
