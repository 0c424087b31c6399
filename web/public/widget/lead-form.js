/*
 * Crafter lead form embed (script-tag snippet): inserts the frameless form page of
 * data-form-id in an iframe where this script stands. Served by the web build at
 * /widget/lead-form.js; no dependencies, no cookies.
 */
(() => {
  const script = document.currentScript;
  if (!script) return;
  const formId = script.getAttribute("data-form-id");
  if (!formId) return;
  const origin = new URL(script.src, window.location.href).origin;
  const frame = document.createElement("iframe");
  frame.src = `${origin}/f/${encodeURIComponent(formId)}/embed`;
  frame.title = script.getAttribute("data-title") || "Sign up";
  frame.loading = "lazy";
  frame.style.cssText = "border:0;width:100%;max-width:640px;height:560px;display:block";
  script.parentNode.insertBefore(frame, script.nextSibling);
})();
