// The peer: the same pages fetched and extracted as a user would write it with Crawlee's CheerioCrawler, defaults
// kept apart from the concurrency. Run by bench/run.ts as a child process (argv[2]: a ChildJob JSON file).
import { readFileSync } from 'node:fs';
import { CheerioCrawler, Configuration, RequestQueue, log, type CheerioCrawlingContext } from '@crawlee/cheerio';
import { childWindow, type ChildJob, type WindowResult } from './load.ts';

const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ChildJob;
log.setLevel(log.LEVELS.ERROR);
const config = new Configuration({ persistStorage: false, purgeOnStart: true });

/** What a user writes for a shop page: title, price (JSON-LD first, then the page's price element), the JSON-LD
 * itself, and every product link and image as an absolute URL (the items of a list page). */
function extract({ $, request }: CheerioCrawlingContext): unknown {
  const base = request.loadedUrl ?? request.url;
  const absolute = (value: string | undefined) => {
    try {
      return value ? new URL(value, base).href : null;
    } catch {
      return null;
    }
  };
  const jsonLd = $('script[type="application/ld+json"]')
    .map((_, el) => {
      try {
        return JSON.parse($(el).text()) as unknown;
      } catch {
        return null;
      }
    })
    .get();
  const offerPrice = jsonLd
    .flatMap((block): unknown[] => (Array.isArray(block) ? (block as unknown[]) : [block]))
    .map((block) => (block as { offers?: { price?: unknown } | { price?: unknown }[] } | null)?.offers)
    .map((offers) => (Array.isArray(offers) ? offers[0]?.price : offers?.price))
    .find((price) => price !== undefined);
  const priceText = $('[itemprop="price"], [class*="price"]').first().text();
  return {
    title: ($('h1').first().text() || $('meta[property="og:title"]').attr('content') || $('title').text()).trim(),
    price: offerPrice ?? (Number(priceText.replace(/[^0-9]/g, '')) || null),
    jsonLd,
    links: $('a[href]')
      .map((_, el) => absolute($(el).attr('href')))
      .get(),
    images: $('img[src]')
      .map((_, el) => absolute($(el).attr('src')))
      .get(),
  };
}

async function crawl(phase: string, total: number): Promise<WindowResult> {
  const latencies: number[] = [];
  let failures = 0;
  const started = new Map<string, number>();
  const crawler = new CheerioCrawler(
    {
      requestQueue: await RequestQueue.open(phase, { config }),
      minConcurrency: job.concurrency,
      maxConcurrency: job.concurrency,
      maxRequestRetries: 0,
      preNavigationHooks: [({ request }) => void started.set(request.uniqueKey, performance.now())],
      requestHandler: (context) => {
        const data = extract(context) as { title: string };
        latencies.push(performance.now() - started.get(context.request.uniqueKey)!);
        if (!data.title) failures++;
      },
      failedRequestHandler: () => void failures++,
    },
    config,
  );
  const t = performance.now();
  // A distinct uniqueKey per call: the same URL many times is the load, not a duplicate to skip.
  await crawler.run(
    Array.from({ length: total }, (_, i) => ({
      url: job.targets[i % job.targets.length]!.url,
      uniqueKey: `${phase}-${i}`,
    })),
  );
  return { latencies, elapsedMs: performance.now() - t, failures };
}

await crawl('warm', job.warmup);
await childWindow(() => crawl('measure', job.total));
