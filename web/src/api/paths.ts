/** Paths of the gateway's write calls (docs/api.md). Reads go through `keys`. */
export const paths = {
  signin: "/auth/signin",
  signup: "/auth/signup",
  signout: "/auth/signout",
  verify: "/auth/verify",
  resendVerification: "/auth/verify/resend",
  apiKeys: "/api/settings/apiKeys",
  apiKey: (id: string) => `/api/settings/apiKeys/${encodeURIComponent(id)}`,
  forgotPassword: "/auth/password/forgot",
  resetPassword: "/auth/password/reset",
  settings: "/api/userSettings/settings",
  createProject: "/api/projects/createProject",
  crafts: "/api/workflowsV2",
  craft: (craftId: string) => `/api/workflowsV2/${encodeURIComponent(craftId)}`,
  editStep: (craftId: string, stepName: string) =>
    `/api/workflowsV2/${encodeURIComponent(craftId)}/${encodeURIComponent(stepName)}/editStep`,
  renameCraft: (craftId: string) => `/api/workflowsV2/${encodeURIComponent(craftId)}/name`,
  standaloneCraft: "/api/workflowsV2/standalone",
  favoriteCraft: (craftId: string) => `/api/workflowsV2/${encodeURIComponent(craftId)}/favorite`,
  cloneCraft: (craftId: string) => `/api/workflowsV2/${encodeURIComponent(craftId)}/cloneWorkflow`,
  saveActionResult: (craftId: string, stepName: string) =>
    `/api/workflowsV2/${encodeURIComponent(craftId)}/${encodeURIComponent(stepName)}/saveOrUpdateActionResult`,
  generateInlineText: (craftId: string, stepName: string) =>
    `/api/workflowsV2/${encodeURIComponent(craftId)}/${encodeURIComponent(stepName)}/generateInlineText`,
  assistantChat: "/api/assistant/chat",
} as const;
