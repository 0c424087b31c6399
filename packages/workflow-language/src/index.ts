// The workflow definition language: kinds, the definition's shape and checks, conditions,
// references and value shapes. Pure TypeScript (zod only), for the engine and the web alike.
export * from "./conditions";
export * from "./definition";
export * from "./kinds";
export * from "./references";
export * from "./values";
