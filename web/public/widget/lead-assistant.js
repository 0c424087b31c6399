/*
 * Crafter lead assistant widget: a chat bubble for a business's own site.
 *   <script async src="https://<crafter>/widget/lead-assistant.js" data-assistant-id="…"></script>
 * It talks to the public API of the site that served it:
 *   GET  /api/public/assistants/:id            → { greeting, enabled, … }
 *   POST /api/public/assistants/:id/messages   { sessionId?, message } → { sessionId, reply }
 * The session id is kept in sessionStorage so a page change continues the conversation.
 * Plain DOM, no dependencies, no cookies; text is always inserted as text, never as HTML.
 */
(() => {
  const script = document.currentScript;
  if (!script) return;
  const id = script.getAttribute("data-assistant-id");
  if (!id) return;
  const origin = new URL(script.src, window.location.href).origin;
  const base = `${origin}/api/public/assistants/${encodeURIComponent(id)}`;
  const storeKey = `crafter.assistant.${id}`;
  const MAX_MESSAGE = 2000;

  const css = `
.crafter-la{position:fixed;right:16px;bottom:16px;z-index:2147483000;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f1f1f}
.crafter-la__bubble{width:56px;height:56px;border-radius:50%;border:0;background:#1677ff;color:#fff;font-size:24px;cursor:pointer;box-shadow:0 6px 16px rgba(0,0,0,.2)}
.crafter-la__panel{display:none;flex-direction:column;width:min(360px,calc(100vw - 32px));height:min(520px,calc(100vh - 100px));background:#fff;border-radius:12px;box-shadow:0 12px 32px rgba(0,0,0,.25);overflow:hidden;margin-bottom:12px}
.crafter-la--open .crafter-la__panel{display:flex}
.crafter-la__head{padding:12px 16px;background:#1677ff;color:#fff;font-weight:600;display:flex;justify-content:space-between;align-items:center}
.crafter-la__close{background:none;border:0;color:#fff;font-size:18px;cursor:pointer}
.crafter-la__log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px}
.crafter-la__msg{max-width:85%;padding:8px 12px;border-radius:12px;white-space:pre-wrap;word-wrap:break-word}
.crafter-la__msg--bot{align-self:flex-start;background:#f0f0f0}
.crafter-la__msg--me{align-self:flex-end;background:#1677ff;color:#fff}
.crafter-la__form{display:flex;gap:8px;padding:8px;border-top:1px solid #eee}
.crafter-la__input{flex:1;padding:8px;border:1px solid #d9d9d9;border-radius:8px;font:inherit}
.crafter-la__send{padding:8px 12px;border:0;border-radius:8px;background:#1677ff;color:#fff;cursor:pointer}
.crafter-la__send:disabled{opacity:.5;cursor:default}`;

  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  async function call(method, url, body) {
    const response = await fetch(url, {
      method,
      credentials: "omit",
      headers: body
        ? { "content-type": "application/json", accept: "application/json" }
        : { accept: "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    const envelope = await response.json().catch(() => null);
    if (!response.ok || !envelope || envelope.success === false) {
      throw new Error(envelope?.errorMessage || "The assistant is not available right now.");
    }
    return envelope.result;
  }

  function mount(config) {
    const style = el("style");
    style.textContent = css;
    document.head.appendChild(style);
    const root = el("div", "crafter-la");
    root.setAttribute("data-testid", "lead-assistant-widget");
    const panel = el("div", "crafter-la__panel");
    panel.setAttribute("role", "dialog");
    panel.setAttribute("aria-label", "Chat");
    const head = el("div", "crafter-la__head", config.title || "Chat with us");
    const close = el("button", "crafter-la__close", "×");
    close.type = "button";
    close.setAttribute("aria-label", "Close chat");
    head.appendChild(close);
    const log = el("div", "crafter-la__log");
    log.setAttribute("aria-live", "polite");
    const form = el("form", "crafter-la__form");
    const input = el("input", "crafter-la__input");
    input.maxLength = MAX_MESSAGE;
    input.placeholder = "Type your message";
    input.setAttribute("aria-label", "Message");
    const send = el("button", "crafter-la__send", "Send");
    send.type = "submit";
    form.append(input, send);
    panel.append(head, log, form);
    const bubble = el("button", "crafter-la__bubble", "💬");
    bubble.type = "button";
    bubble.setAttribute("aria-label", "Open chat");
    root.append(panel, bubble);
    document.body.appendChild(root);

    const say = (text, mine) => {
      log.appendChild(el("div", `crafter-la__msg crafter-la__msg--${mine ? "me" : "bot"}`, text));
      log.scrollTop = log.scrollHeight;
    };
    if (config.greeting) say(config.greeting, false);

    const toggle = (open) => {
      root.classList.toggle("crafter-la--open", open);
      bubble.setAttribute("aria-label", open ? "Close chat" : "Open chat");
      if (open) input.focus();
    };
    bubble.addEventListener("click", () => toggle(!root.classList.contains("crafter-la--open")));
    close.addEventListener("click", () => toggle(false));

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const message = input.value.trim();
      if (!message) return;
      input.value = "";
      say(message, true);
      send.disabled = true;
      try {
        let sessionId;
        try {
          sessionId = sessionStorage.getItem(storeKey) || undefined;
        } catch {}
        const result = await call("POST", `${base}/messages`, { sessionId, message });
        if (result?.sessionId) {
          try {
            sessionStorage.setItem(storeKey, result.sessionId);
          } catch {}
        }
        say((result && (result.reply || result.message || result.content)) || "…", false);
      } catch (error) {
        say(error.message, false);
      } finally {
        send.disabled = false;
        input.focus();
      }
    });
  }

  call("GET", base)
    .then((config) => {
      if (config && config.enabled !== false) mount(config);
    })
    .catch(() => {
      /* no widget when the assistant is off or unknown */
    });
})();
