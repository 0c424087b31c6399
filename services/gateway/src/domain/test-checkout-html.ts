import escapeHtml from "escape-html";

/** What the local test checkout page shows (billing's GetTestCheckout). */
export interface TestCheckoutPage {
  checkoutId: string;
  kind: string;
  name: string;
  description: string;
  /** Cents. */
  amount: number;
  currency: string;
  /** "month", "year" or "" (one-off). */
  interval: string;
  /** "open", "complete" or "expired". */
  state: string;
  successUrl: string;
  cancelUrl: string;
}

/** Cents in a currency → "$29.00". */
export function formatAmount(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() || "USD" }).format(
    cents / 100,
  );
}

// Inline styles only (the CSP allows them and no inline script; the page needs none: Pay is a form).
const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1a1f36;background:#fff;line-height:1.5;font-size:15px}
a{color:#1677ff}
:focus-visible{outline:3px solid #1677ff;outline-offset:2px}
.test-banner{background:#fff4d6;color:#6b4a00;border-bottom:1px solid #f0d58c;padding:10px 20px;text-align:center;font-size:14px}
.test-banner strong{display:inline-block;background:#ffb300;color:#3d2a00;border-radius:4px;padding:0 6px;margin-right:8px;font-size:12px;letter-spacing:.04em;text-transform:uppercase}
.layout{display:grid;grid-template-columns:1fr 1fr;min-height:calc(100vh - 44px)}
.summary{background:#f6f8fa;padding:56px 48px 48px max(48px,calc(50vw - 460px));border-right:1px solid #e3e8ee}
.pay{padding:56px max(48px,calc(50vw - 460px)) 48px 48px}
.inner{max-width:400px}
.summary .inner{margin-left:auto}
.back{display:inline-flex;align-items:center;gap:8px;color:#3c4257;text-decoration:none;font-weight:600;margin-bottom:32px;padding:4px 0}
.back:hover{text-decoration:underline}
.back .logo{display:inline-grid;place-items:center;width:28px;height:28px;border-radius:6px;background:#1677ff;color:#fff;font-size:14px;font-weight:700}
.eyebrow{color:#697386;font-weight:500;margin:0}
.price{font-size:36px;font-weight:700;margin:4px 0 0;letter-spacing:-.01em;font-variant-numeric:tabular-nums}
.price span{font-size:15px;font-weight:500;color:#697386;margin-left:6px;letter-spacing:0}
.items{margin:32px 0 0;padding:0;list-style:none}
.items li,.total{display:flex;justify-content:space-between;gap:16px;padding:12px 0;font-variant-numeric:tabular-nums}
.items li{border-bottom:1px solid #e3e8ee}
.items small{display:block;color:#697386}
.total{font-weight:600}
h1{font-size:20px;margin:0 0 20px}
.field{margin:0 0 16px}
.field label,.field .label{display:block;font-weight:500;color:#3c4257;margin-bottom:6px;font-size:14px}
.card{border:1px solid #d5dbe1;border-radius:6px;padding:10px 12px;background:#fafbfc;font-variant-numeric:tabular-nums;display:flex;justify-content:space-between;gap:12px;flex-wrap:wrap}
.card span:last-child{color:#697386}
.note{color:#697386;font-size:13px;margin:0 0 20px}
button{font:inherit;width:100%;border:0;border-radius:6px;background:#1677ff;color:#fff;font-weight:600;font-size:16px;padding:12px 16px;min-height:46px;cursor:pointer}
button:hover{background:#0958d9}
.cancel{display:block;text-align:center;margin-top:16px;padding:8px;color:#3c4257}
.alert{border-radius:6px;padding:12px 14px;margin:0 0 20px;border:1px solid #ffccc7;background:#fff2f0;color:#820014}
.done{border-color:#b7eb8f;background:#f6ffed;color:#135200}
.legal{color:#8792a2;font-size:12px;margin-top:24px}
@media (max-width:820px){
.layout{grid-template-columns:1fr;min-height:0}
.summary,.pay{padding:24px 20px}
.summary{border-right:0;border-bottom:1px solid #e3e8ee}
.summary .inner,.inner{max-width:none;margin:0}
.back{margin-bottom:16px}
.price{font-size:30px}
.items{margin-top:16px}
}
`
  .trim()
  .replaceAll("\n", "");

const e = escapeHtml;

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>${e(title)}</title>
    <style>${STYLE}</style>
  </head>
  <body>
    <div class="test-banner" role="note" data-testid="test-mode"><strong>Test mode</strong>This is a test checkout: no card is charged and no money moves. It stands in for Stripe's checkout, which this installation does not reach.</div>
${body}
  </body>
</html>
`;
}

/**
 * The local test checkout page (billing on a Stripe test API such as stripe-mock): what is bought
 * and its price on the left, Pay and Cancel on the right, stacked on a phone. Pay posts the form to
 * the same address; Cancel is a link back to the cancel URL. `error` shows above Pay (a refused
 * payment).
 */
export function testCheckoutHtml(page: TestCheckoutPage, error = ""): string {
  const total = formatAmount(page.amount, page.currency);
  const per = page.interval ? `per ${page.interval}` : "";
  const subscribing = page.kind === "subscription";
  const heading = subscribing ? `Subscribe to ${page.name}` : `Buy ${page.name}`;
  const action = `/checkout/test/${encodeURIComponent(page.checkoutId)}`;
  const summary = `
    <section class="summary" aria-labelledby="what">
      <div class="inner">
        <a class="back" href="${e(page.cancelUrl)}" data-testid="back"><span class="logo" aria-hidden="true">C</span>Crafter</a>
        <p class="eyebrow" id="what">${e(heading)}</p>
        <p class="price" data-testid="checkout-price">${e(total)}${per ? `<span>${e(per)}</span>` : ""}</p>
        <ul class="items">
          <li data-testid="checkout-item"><div>${e(page.name)}<small>${e(page.description)}</small></div><div>${e(total)}</div></li>
        </ul>
        <div class="total"><span>Total due today</span><span data-testid="checkout-total">${e(total)}</span></div>
      </div>
    </section>`;
  let side: string;
  if (page.state === "complete") {
    side = `
        <h1>Payment complete</h1>
        <p class="alert done" role="status" data-testid="checkout-complete">This checkout is paid. Nothing more to do.</p>
        <a class="cancel" href="${e(page.successUrl)}">Return to Crafter</a>`;
  } else if (page.state === "expired") {
    side = `
        <h1>This checkout has expired</h1>
        <p class="alert" role="alert" data-testid="checkout-expired">Nothing was charged. Start again from Crafter.</p>
        <a class="cancel" href="${e(page.cancelUrl)}">Return to Crafter</a>`;
  } else {
    side = `
        <h1>Pay with card</h1>
        ${error ? `<p class="alert" role="alert" data-testid="checkout-error">${e(error)}</p>` : ""}
        <form method="post" action="${e(action)}" data-testid="checkout-form">
          <input type="hidden" name="confirm" value="pay" />
          <div class="field">
            <span class="label" id="card-label">Card</span>
            <div class="card" aria-labelledby="card-label"><span>Visa test card •••• 4242</span><span>12 / 34 · CVC 123</span></div>
          </div>
          <p class="note">Stripe's test card stands in for yours. ${subscribing ? `You will be charged ${e(total)} ${e(per)} until you cancel, in test mode only.` : "A one-off payment, in test mode only."}</p>
          <button type="submit" autofocus data-testid="pay">Pay ${e(total)}</button>
        </form>
        <a class="cancel" href="${e(page.cancelUrl)}" data-testid="cancel">Cancel and return to Crafter</a>`;
  }
  return document(
    `${heading} · Test checkout`,
    `    <main class="layout">${summary}
    <section class="pay" aria-label="Payment">
      <div class="inner">${side}
        <p class="legal">Test checkout of Crafter. In production, payments are made on Stripe's own checkout page.</p>
      </div>
    </section>
    </main>`,
  );
}

/** The page for a checkout link that leads nowhere (unknown id, or payments made on Stripe). */
export function testCheckoutMissingHtml(home: string): string {
  return document(
    "Checkout not found · Test checkout",
    `    <main class="layout"><section class="pay" style="grid-column:1/-1" aria-label="Checkout not found"><div class="inner" style="margin:0 auto">
        <h1>This checkout link is not valid</h1>
        <p class="alert" role="alert" data-testid="checkout-missing">Nothing was charged. Start again from your subscription or wallet page.</p>
        <a class="cancel" href="${e(home)}">Go to Crafter</a>
      </div></section></main>`,
  );
}
