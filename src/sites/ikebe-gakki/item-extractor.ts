// イケベ楽器店 item pages (futureshop): JSON-LD (or microdata) Product first, then product: meta, then futureshop parts.
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { requireFields, startDraft } from '../../extract/draft.js';
import { readStructuredProduct } from '../../extract/structured-product.js';
import { availabilityOf } from '../../extract/availability.js';
import { readMeta, titleWithoutSiteName } from '../../extract/meta.js';
import { readFutureshopProduct } from '../../extract/futureshop.js';
import type { ItemData } from '../../extract/page-types.js';
import { firstText } from '../../extract/selectors.js';
import { parseJan } from '../../normalize/identifiers.js';
import { parsePrice, parseShipping, type TaxStatus } from '../../normalize/price.js';
import { textOrNull } from '../../extract/text-or-null.js';

const ID = 'ikebe_gakki/item';
/** Names the shop puts after the product name in og:title and <title>. */
const SHOP_NAMES = ['イケベ楽器店', '池部楽器店'];

export const ikebeItemExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'item',
  input: 'html',
  extract(page): Extraction {
    const { data, provenance, warnings, set } = startDraft<ItemData>(page);

    const { product, sd, offer } = readStructuredProduct(page, warnings);
    const meta = readMeta(page);
    const fs = readFutureshopProduct(page);

    // Title: never <title>, which carries the shop suffix.
    set('title', textOrNull(product?.name), `${sd}:name`);
    set('title', fs.name, 'selector:.fs-c-productNameHeading__name');
    set('title', titleWithoutSiteName(meta.ogTitle, [meta.ogSiteName, ...SHOP_NAMES]), 'meta:og:title');

    // Price: structured sources first; the displayed 税込 amount confirms them and decides when they disagree,
    // because a 税込 amount written on the page wins (research §0 rule 2).
    const metaCurrencyOk = meta.priceCurrency === null || meta.priceCurrency.toUpperCase() === 'JPY';
    const metaPrice = metaCurrencyOk && meta.priceAmount ? parsePrice(meta.priceAmount).amount : null;
    const structured =
      offer?.price != null
        ? { amount: offer.price, source: `${sd}:offers.price`, taxIncluded: offer.taxIncluded }
        : metaPrice !== null
          ? { amount: metaPrice, source: 'meta:product:price:amount', taxIncluded: null }
          : null;
    const shown = fs.selling;
    const PRICE_SELECTOR = 'selector:.fs-c-productPrice--selling';
    let tax: TaxStatus = 'unknown';
    let taxSource = '';
    if (shown?.included != null) {
      tax = 'included';
      taxSource = PRICE_SELECTOR;
      if (structured && structured.amount !== shown.included) {
        warnings.push(
          `${structured.source} (${structured.amount}) disagrees with the displayed 税込 price; serving the displayed price`,
        );
      }
      if (structured && structured.amount === shown.included) set('price', structured.amount, structured.source);
      else set('price', shown.included, PRICE_SELECTOR);
    } else if (structured) {
      set('price', structured.amount, structured.source);
      if (structured.taxIncluded !== null) {
        tax = structured.taxIncluded ? 'included' : 'excluded';
        taxSource = `${sd}:offers.priceSpecification.valueAddedTaxIncluded`;
      } else if (shown?.excluded === structured.amount) {
        tax = 'excluded';
        taxSource = PRICE_SELECTOR;
      }
    } else if (shown?.excluded != null) {
      set('price', shown.excluded, PRICE_SELECTOR);
      tax = 'excluded';
      taxSource = PRICE_SELECTOR;
    } else if (shown?.unmarked != null) {
      set('price', shown.unmarked, PRICE_SELECTOR);
    }

    requireFields<ItemData>(
      data,
      ['title', 'price'],
      (missing) => `${ID}: no ${missing.join(' and ')} found (json-ld, product:/og: meta, futureshop product parts)`,
    );
    data.currency = 'JPY';
    // Every price read above is yen (a JSON-LD price in another currency is dropped), so JPY follows from it.
    provenance.currency = `constant:JPY (${provenance.price ?? 'price'})`;
    data.price_tax = tax;
    if (taxSource) provenance.price_tax = taxSource;
    set('price_excluding_tax', shown?.excluded, PRICE_SELECTOR);

    const listed = fs.listed;
    const listPrice =
      tax === 'excluded' ? (listed?.excluded ?? listed?.unmarked) : (listed?.included ?? listed?.unmarked);
    set('list_price', listPrice, 'selector:.fs-c-productPrice--listed');
    set('points', fs.points, 'selector:.fs-c-productPointDisplay__quantity');
    set('shipping', fs.postage ? parseShipping(fs.postage) : null, 'selector:.fs-c-productPostage');

    set('availability', availabilityOf(offer?.availability), `${sd}:offers.availability`);
    set('availability', availabilityOf(meta.availability), 'meta:product:availability');
    set('availability', fs.outOfStock ? 'out_of_stock' : null, 'selector:.fs-c-productNotice--outOfStock');

    set('brand', textOrNull(product?.brand), `${sd}:brand`);
    // イケベ puts the maker in the futureshop catch copy, and writes "unknown" when there is none.
    set(
      'brand',
      fs.catchCopy && !/^unknown$/i.test(fs.catchCopy) ? fs.catchCopy : null,
      'selector:.fs-c-productNameHeading__copy',
    );
    set('shop', textOrNull(offer?.seller), `${sd}:offers.seller.name`);
    set('shop', meta.ogSiteName, 'meta:og:site_name');

    set('jan', product?.gtin ? parseJan(product.gtin) : null, `${sd}:gtin`);
    const janText = firstText(page.document, '.janCode');
    set('jan', janText ? parseJan(janText) : null, 'selector:.janCode');
    if (janText && !data.jan) warnings.push('jan: the page shows a JAN that fails its check digit; left out');
    set('sku', textOrNull(product?.sku), `${sd}:sku`);
    set('sku', fs.productNumber, 'selector:.fs-c-productNumber__number');

    const images =
      fs.images.length > 0 ? fs.images : meta.ogImages.length > 0 ? meta.ogImages : (product?.images ?? []);
    const imageSource =
      fs.images.length > 0
        ? 'selector:.fs-c-productCarouselMainImage'
        : meta.ogImages.length > 0
          ? 'meta:og:image'
          : `${sd}:image`;
    set('images', images.length > 0 ? images : null, imageSource);
    set('canonical_url', meta.canonical, 'link:canonical');
    set('canonical_url', meta.ogUrl, 'meta:og:url');

    return { data, provenance, warnings };
  },
});
