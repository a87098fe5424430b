// Item pages written by us, modelled on the ikebe-gakki (futureshop) item page structure, for end-to-end runs.
// They are not recordings of the site: real-page verification reads ../shared/corpus in place.

export interface ItemPageOptions {
  title?: string;
  /** Tax-included price in yen; null leaves the price out (the extractor must then fail). */
  price?: number | null;
  /** A string planted in the page to prove it is never stored. */
  marker?: string;
  /** The offer's schema.org availability term (`InStock`, `OutOfStock`, …); default InStock. */
  availability?: string;
}

export function itemPage(options: ItemPageOptions = {}): string {
  const title = options.title ?? 'Kumo テスト商品 USB ケーブル';
  const price = options.price === undefined ? 2200 : options.price;
  const marker = options.marker ?? 'no-marker';
  const offers =
    price === null
      ? ''
      : `,"offers":{"@type":"Offer","price":"${price}","priceCurrency":"JPY","availability":"https://schema.org/${options.availability ?? 'InStock'}"}`;
  const excl = price === null ? '' : Math.round(price / 1.1).toLocaleString('en-US');
  const incl = price === null ? '' : price.toLocaleString('en-US');
  return `<!DOCTYPE html>
<html lang="ja"><head><meta charset="UTF-8">
<title>${title}｜イケベ楽器店</title>
<meta property="og:title" content="${title}">
<link rel="canonical" href="https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"${title}","brand":{"@type":"Brand","name":"Kumo Test"},"sku":"750592"${offers}}</script>
<script>window.tracking = "${marker}";</script>
</head><body>
<h1 class="fs-c-productNameHeading fs-c-heading"><span class="fs-c-productNameHeading__name">${title}</span></h1>
${
  price === null
    ? '<div class="fs-c-productPrice">価格はお問い合わせください</div>'
    : `<div class="fs-c-productPrice fs-c-productPrice--selling"><span class="fs-c-productPrice__main"><span class="fs-c-price"><span class="fs-c-price__currencyMark">¥</span><span class="fs-c-price__value">${excl}</span></span></span><span class="fs-c-productPrice__addon"><span class="fs-c-productPrice__addon__label">消費税込</span><span class="fs-c-price"><span class="fs-c-price__currencyMark">¥</span><span class="fs-c-price__value">${incl}</span></span></span></div>`
}
<p class="description">${marker}</p>
</body></html>`;
}
