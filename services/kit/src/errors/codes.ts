// The catalogue lives in the workspace package @crafter/errors (pure TS, shared with the web); the
// kit re-exports it so services keep importing from "@crafter/kit".
export {
  type CatalogueEntry,
  CLIENT_MESSAGES,
  catalogueEntry,
  ERROR_CATALOGUE,
  type ErrorCode,
  isErrorCode,
} from "@crafter/errors";
