export * from "./kinds";
export * from "./operations";
