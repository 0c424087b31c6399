// The gateway's REST contract (its generated OpenAPI types and the helpers over them) is the one
// @crafter/client declares for third parties: the dashboard reads the same.
export * from "@crafter/client/contract";
