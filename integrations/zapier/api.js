// How the app reaches Crafter: the gateway's public API with a personal API key (scopes read,
// zapier and crafts), answers in the envelope { success, result, errorMessage, error }.

/** The gateway's origin: CRAFTER_API_URL (`zapier env:set`), e.g. https://app.example.com. */
const baseUrl = () => (process.env.CRAFTER_API_URL || "https://app.crafter.example").replace(/\/+$/, "");

/** Sends the key as a bearer token on every request. */
const addApiKey = (request, _z, bundle) => {
  if (bundle.authData?.apiKey) {
    request.headers = { ...request.headers, Authorization: `Bearer ${bundle.authData.apiKey}` };
  }
  return request;
};

/**
 * The envelope's result; a failure becomes the error Zapier shows (401 asks to reconnect,
 * 429 is retried by Zapier later).
 */
const readEnvelope = (response, z) => {
  let body = null;
  try {
    body = response.content ? JSON.parse(response.content) : null;
  } catch {
    body = null;
  }
  if (response.status === 401) throw new z.errors.RefreshAuthError("The API key is not valid any more.");
  if (response.status === 429) throw new z.errors.ThrottledError("Crafter asks to slow down.", 60);
  if (response.status >= 400 || !body || body.success !== true) {
    const message = body?.errorMessage || `Crafter answered HTTP ${response.status}.`;
    const code = body?.error?.code || `HTTP_${response.status}`;
    throw new z.errors.Error(message, code, response.status);
  }
  response.json = body.result;
  return response;
};

/** One call to the gateway; `json` is the envelope's result. */
const call = async (z, method, path, body) => {
  const response = await z.request({
    method,
    url: `${baseUrl()}${path}`,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    ...(body === undefined ? {} : { body }),
    skipThrowForStatus: true,
  });
  return response.json;
};

module.exports = { baseUrl, addApiKey, readEnvelope, call };
