import useSWR from "swr";
import { apiKey, fetcher, http } from "../api";
import type { BodyOf, ResultOf, Schema } from "../contract";

/**
 * The business's Google Business Profile (the projects service's GoogleBusiness routes), typed by
 * the gateway's OpenAPI document: the connection and chosen location, its locations, Sync now,
 * and the listing preview. Keys are the URLs they are read from.
 */
export type GoogleBusiness = Schema<"GoogleBusiness">;
export type GoogleBusinessLocation = Schema<"GoogleBusinessLocation">;
export type GoogleListingPreview = Schema<"GoogleListingPreview">;

export const googleBusinessKeys = {
  state: () => apiKey("/api/business/google"),
  locations: () => apiKey("/api/business/google/locations"),
  listing: () => apiKey("/api/business/google/listing"),
};

/** The connection's state and the chosen location with its last sync. */
export function useGoogleBusiness(enabled: boolean) {
  return useSWR<GoogleBusiness>(enabled ? googleBusinessKeys.state() : null, fetcher);
}

/** The locations the connected account manages (read only while choosing). */
export function useGoogleLocations(enabled: boolean) {
  return useSWR<GoogleBusinessLocation[]>(enabled ? googleBusinessKeys.locations() : null, fetcher);
}

/** Chooses the location that is this business; its reviews are imported in the same call. */
export function chooseGoogleLocation(location: GoogleBusinessLocation) {
  return http.put("/api/business/google/location", { body: { account: location.account, location: location.name } });
}

/** Sync now: imports the chosen location's reviews. */
export function syncGoogleReviews() {
  return http.post("/api/business/google/sync", { body: {} });
}

/** What filling the business profile from the listing would change (nothing is written). */
export function previewGoogleListing() {
  return http.get("/api/business/google/listing");
}

/** Starts the google_business connection and leaves for Google's consent, coming back to `returnPath`. */
export async function connectGoogleBusiness(returnPath: string): Promise<void> {
  const { authorizeUrl } = await http.post("/api/integrations/{provider}/connect", {
    path: { provider: "google_business" },
    body: { returnPath },
  });
  window.location.assign(authorizeUrl);
}

/** A project's brand voice (empty fields when none was set). */
export type BrandVoice = ResultOf<"/api/projects/{id}/brand-voice", "get">;

export const brandVoiceKey = (projectId: string) =>
  apiKey("/api/projects/{id}/brand-voice", { path: { id: projectId } });

export function useBrandVoice(projectId: string) {
  return useSWR<BrandVoice>(brandVoiceKey(projectId), fetcher);
}

/** Replaces the project's brand voice (tone, words to use and avoid, example copy). */
export function saveBrandVoice(projectId: string, body: BodyOf<"/api/projects/{id}/brand-voice", "put">) {
  return http.put("/api/projects/{id}/brand-voice", { path: { id: projectId }, body });
}
