const { version: platformVersion } = require("zapier-platform-core");
const { version } = require("./package.json");
const { addApiKey, call, readEnvelope } = require("./api");
const { triggers } = require("./triggers");
const { creates } = require("./creates");

// Crafter's Zapier app: a personal API key (Settings › API keys, scopes read, zapier and crafts)
// authenticates every call; the Zapier account's label is the key owner's email.
module.exports = {
  version,
  platformVersion,
  authentication: {
    type: "custom",
    fields: [
      {
        key: "apiKey",
        label: "API key",
        required: true,
        type: "password",
        helpText: "A personal API key from Crafter's Settings › API keys with the read, zapier and crafts scopes.",
      },
    ],
    test: (z) => call(z, "GET", "/api/user/account"),
    connectionLabel: (_z, bundle) => bundle.inputData?.email || "Crafter",
  },
  beforeRequest: [addApiKey],
  afterResponse: [readEnvelope],
  triggers,
  creates,
};
