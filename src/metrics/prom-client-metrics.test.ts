// The prom-client Metrics: each observation shows up in its own registry's exposition, and nowhere global.
import { describe, expect, it } from 'vitest';
import { register } from 'prom-client';
import { PromClientMetrics } from './prom-client-metrics.js';

describe('PromClientMetrics', () => {
  it('exposes requests, credits, fetch latency, attempts, bytes, waits, breaker state, source disagreements, batch runs, webhook attempts and monitors', async () => {
    const metrics = new PromClientMetrics();
    metrics.scrapeFinished({ site: 'ikebe_gakki', status: 'completed', route: 'http', code: 'ok', creditsCharged: 1 });
    metrics.scrapeFinished({ site: 'ikebe_gakki', status: 'completed', route: 'http', code: 'ok', creditsCharged: 2 });
    metrics.fetchFinished({ host: 'a.jp', outcome: 'ok', seconds: 0.3, attempts: 2, bytes: 1234 });
    metrics.politenessWaited('a.jp', 0.2);
    metrics.breakerChanged('a.jp', 'open');
    metrics.browserRefused('proxy', 'ip_literal', 2);
    metrics.browserRefused('rules', 'request_rule', 0);
    metrics.sourcesDisagreed('surugaya', 'price');
    metrics.sourcesDisagreed('surugaya', 'price');
    metrics.batchItemRan('ready', 'ok');
    metrics.batchItemRan('retry', 'fetch_timeout');
    metrics.webhookDelivered('2xx', 0.04);
    metrics.webhookDelivered('timeout', 15);
    metrics.monitorChecksScheduled('queued', 3);
    metrics.monitorChecksScheduled('skipped', 0);
    metrics.monitorDelivered('chatwork', 'delivered');
    const { contentType, body } = await metrics.exposition();
    expect(contentType).toMatch(/^text\/plain/);
    expect(body).toContain(
      'kumo_scrape_requests_total{site="ikebe_gakki",status="completed",route="http",code="ok"} 2',
    );
    expect(body).toContain('kumo_credits_charged_total{site="ikebe_gakki"} 3');
    expect(body).toContain('kumo_fetch_duration_seconds_count{host="a.jp",outcome="ok"} 1');
    expect(body).toContain('kumo_fetch_attempts_total{host="a.jp"} 2');
    expect(body).toContain('kumo_fetch_bytes_total{host="a.jp"} 1234');
    expect(body).toContain('kumo_politeness_wait_seconds_count{host="a.jp"} 1');
    expect(body).toContain('kumo_breaker_state{host="a.jp"} 2');
    expect(body).toContain('kumo_browser_refusals_total{layer="proxy",reason="ip_literal"} 2');
    expect(body).not.toContain('layer="rules"');
    expect(body).toContain('kumo_extract_source_disagreements_total{site="surugaya",field="price"} 2');
    expect(body).toContain('kumo_batch_item_runs_total{outcome="ready",code="ok"} 1');
    expect(body).toContain('kumo_batch_item_runs_total{outcome="retry",code="fetch_timeout"} 1');
    expect(body).toContain('kumo_webhook_delivery_seconds_count{result="2xx"} 1');
    expect(body).toContain('kumo_webhook_delivery_seconds_bucket{le="0.05",result="2xx"} 1');
    expect(body).toContain('kumo_webhook_delivery_seconds_count{result="timeout"} 1');
    expect(body).toContain('kumo_monitor_checks_scheduled_total{state="queued"} 3');
    expect(body).not.toContain('kumo_monitor_checks_scheduled_total{state="skipped"}');
    expect(body).toContain('kumo_monitor_deliveries_total{channel="chatwork",result="delivered"} 1');
    expect(await register.metrics()).not.toContain('kumo_');
  });
});
