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
  completeStep: (craftId: string) => `/api/workflowsV2/${encodeURIComponent(craftId)}/step/complete`,
  editStep: (craftId: string, stepName: string) =>
    `/api/workflowsV2/${encodeURIComponent(craftId)}/${encodeURIComponent(stepName)}/editStep`,
  renameCraft: (craftId: string) => `/api/workflowsV2/${encodeURIComponent(craftId)}/name`,
  standaloneCraft: "/api/workflowsV2/standalone",
  favoriteCraft: (craftId: string) => `/api/workflowsV2/${encodeURIComponent(craftId)}/favorite`,
  cloneCraft: (craftId: string) => `/api/workflowsV2/${encodeURIComponent(craftId)}/cloneWorkflow`,
  saveActionResult: (craftId: string, stepName: string) =>
    `/api/workflowsV2/${encodeURIComponent(craftId)}/${encodeURIComponent(stepName)}/saveOrUpdateActionResult`,
  /** "Generate more": runs the step's action of that kind without completing the step. */
  runAction: (craftId: string, stepName: string, actionType: string) =>
    `/api/workflowsV2/${encodeURIComponent(craftId)}/${encodeURIComponent(stepName)}/${encodeURIComponent(actionType)}`,
  generateInlineText: (craftId: string, stepName: string) =>
    `/api/workflowsV2/${encodeURIComponent(craftId)}/${encodeURIComponent(stepName)}/generateInlineText`,
  assistantChat: "/api/assistant/chat",
} as const;
