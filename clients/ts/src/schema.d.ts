export interface paths {
    "/v1/scrape": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch one page of a supported site and return reviewed, normalized JSON */
        post: operations["scrape"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Credits used and left this month, and calls in flight */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The metadata row of one of your calls (never its content) */
        get: operations["getRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Supported sites and their coverage */
        get: operations["listSites"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artifacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A stored artifact (normalized HTML and JSON) */
        get: operations["getArtifact"];
        put?: never;
        post?: never;
        /** Delete a stored artifact */
        delete: operations["deleteArtifact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cache": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete this account's cached answers (all, or one URL's) */
        delete: operations["deleteCache"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's batches, newest first (counts, never results) */
        get: operations["listBatches"];
        put?: never;
        /** Submit a batch: up to 1,000 URLs run in the background, each charged once at handover */
        post: operations["createBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of a batch's items, with their results: the first page that returns a result charges it */
        get: operations["listBatchItems"];
        put?: never;
        /** Append items to a batch that is not sealed yet */
        post: operations["appendBatchItems"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A batch: status, counts, credits (never results) */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        /** Cancel a batch: queued items are cancelled (free); running ones finish */
        delete: operations["cancelBatch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Batch events of the last 72 hours (thin), oldest first */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's webhook endpoints (never their secrets) */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Register a webhook endpoint (its signing secret is shown once) */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook endpoint (never its secret) */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Delete a webhook endpoint (its secrets are erased; nothing more is delivered to it) */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new signing secret, shown once; the previous one also signs for 24 hours */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's monitors, newest first */
        get: operations["listMonitors"];
        put?: never;
        /** Create a monitor: re-scrape item pages on a schedule and alert on typed changes */
        post: operations["createMonitor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A monitor: schedule, rules, targets with their last values, and its estimate */
        get: operations["getMonitor"];
        put?: never;
        post?: never;
        /** Delete a monitor with everything kept for it (last values, history, checks, events) */
        delete: operations["deleteMonitor"];
        options?: never;
        head?: never;
        /** Change a monitor: pause or resume, schedule, rules, watched fields, notifications, history */
        patch: operations["updateMonitor"];
        trace?: never;
    };
    "/v1/monitors/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check every target now (a target whose check is still open is skipped, free) */
        post: operations["runMonitor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{id}/checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A monitor's checks, newest first: state, cost, changes and rules hit */
        get: operations["listMonitorChecks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A target's watched values over time (only with history.retain_days), as JSON or CSV */
        get: operations["getMonitorHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "item.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The item.succeeded event, POSTed to your endpoint
         * @description An item’s result is ready: `result` (full) or `result_url` (thin), never both.
         */
        post: operations["webhook_item_succeeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "item.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The item.failed event, POSTed to your endpoint
         * @description An item ended without a result: failed, the page was gone (not_found), or skipped (credits).
         */
        post: operations["webhook_item_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "item.not_found": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The item.not_found event, POSTed to your endpoint
         * @description An item ended without a result: failed, the page was gone (not_found), or skipped (credits).
         */
        post: operations["webhook_item_not_found"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "item.skipped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The item.skipped event, POSTed to your endpoint
         * @description An item ended without a result: failed, the page was gone (not_found), or skipped (credits).
         */
        post: operations["webhook_item_skipped"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "batch.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The batch.completed event, POSTed to your endpoint
         * @description A batch is over: every item ended (completed) or it was cancelled.
         */
        post: operations["webhook_batch_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "batch.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The batch.cancelled event, POSTed to your endpoint
         * @description A batch is over: every item ended (completed) or it was cancelled.
         */
        post: operations["webhook_batch_cancelled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "monitor.alert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The monitor.alert event, POSTed to your endpoint
         * @description A watched value changed (or a rule fired) between two consecutive good checks.
         */
        post: operations["webhook_monitor_alert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "monitor.check.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The monitor.check.failed event, POSTed to your endpoint
         * @description A target failed `failures.alert_after` checks in a row (once per run of failures; free checks).
         */
        post: operations["webhook_monitor_check_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "monitor.target.removed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The monitor.target.removed event, POSTed to your endpoint
         * @description The page itself answered 404 or 410: the target is no longer checked.
         */
        post: operations["webhook_monitor_target_removed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "monitor.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The monitor.paused event, POSTed to your endpoint
         * @description The monitor paused itself rather than pass its max_credits_per_month.
         */
        post: operations["webhook_monitor_paused"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description RFC 9457 problem details (application/problem+json).
         * @example {
         *       "type": "https://kumo.dev/errors/credits_exhausted",
         *       "title": "Credits exhausted",
         *       "status": 429,
         *       "code": "credits_exhausted",
         *       "detail": "this month's 500 credits are used; they reset on 2026-12-01 (Asia/Tokyo)",
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0"
         *     }
         */
        Problem: {
            /**
             * Format: uri
             * @description `https://kumo.dev/errors/<code>`
             */
            type: string;
            title: string;
            status: number;
            /**
             * @description A stable code from the catalogue (docs/errors.md).
             * @enum {string}
             */
            code: "invalid_request" | "invalid_url" | "unauthorized" | "key_scope_denied" | "origin_not_allowed" | "not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "site_not_supported" | "page_not_supported" | "robots_disallowed" | "credits_exhausted" | "concurrency_limited" | "rate_limited" | "destination_forbidden" | "fetch_failed" | "target_blocked" | "content_too_large" | "extraction_failed" | "content_too_complex" | "output_too_large" | "site_busy" | "site_stopped" | "unavailable" | "fetch_timeout" | "internal" | "uri_too_long" | "headers_too_large" | "request_timeout" | "idempotency_conflict" | "idempotency_key_in_use" | "idempotency_key_spent" | "batch_limit_exceeded" | "batch_sealed" | "monitor_limit_exceeded";
            detail: string;
            /** @description This request, as in the Request-Id header. */
            request_id: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * @description `page_type: item`
         * @example {
         *       "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *       "price": 12800,
         *       "currency": "JPY",
         *       "price_tax": "included",
         *       "price_excluding_tax": 11636,
         *       "points": 128,
         *       "points_rate": 1,
         *       "shipping": "free",
         *       "availability": "in_stock",
         *       "availability_text": "在庫あり",
         *       "brand": "ヤマハ",
         *       "shop": "イケベ楽器店",
         *       "jan": "4957812646284",
         *       "sku": "751203",
         *       "images": [
         *         "https://www.ikebe-gakki.com/images/item/751203_1.jpg"
         *       ],
         *       "canonical_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203"
         *     }
         */
        ItemData: {
            title: string;
            /** @description Whole yen; tax-included when the page shows a 税込 price. */
            price: number;
            /** @constant */
            currency: "JPY";
            price_tax: "included" | "excluded" | "unknown";
            /** @description Whole yen. */
            price_excluding_tax?: number;
            /** @description Whole yen. */
            list_price?: number;
            points?: number;
            /** @description Percent of the price (1 = 1%; Rakuten’s 10倍 = 10). */
            points_rate?: number;
            shipping?: "free" | "included" | "extra" | "unknown";
            /** @description Whole yen. */
            shipping_fee?: number;
            /** @description Whole yen. */
            free_shipping_threshold?: number;
            availability?: "in_stock" | "out_of_stock" | "preorder" | "backorder" | "limited" | "discontinued";
            availability_text?: string;
            condition?: "new" | "used" | "refurbished" | "collectible" | "unknown";
            condition_text?: string;
            on_sale?: boolean;
            sale_label?: string;
            price_range?: {
                /** @description Whole yen. */
                min: number;
                /** @description Whole yen. */
                max: number;
            };
            offers?: {
                condition: "new" | "used" | "refurbished" | "collectible" | "unknown";
                /** @description Whole yen. */
                price: number;
                price_tax: "included" | "excluded" | "unknown";
                seller?: string;
                seller_url?: string;
                on_sale: boolean;
                sale_label?: string;
                condition_text?: string;
                /** @description Whole yen. */
                list_price?: number;
                points?: number;
                shipping?: "free" | "included" | "extra" | "unknown";
                /** @description Whole yen. */
                shipping_fee?: number;
                /** @description Whole yen. */
                free_shipping_threshold?: number;
                availability?: "in_stock" | "out_of_stock" | "preorder" | "backorder" | "limited" | "discontinued";
                availability_text?: string;
                url?: string;
            }[];
            offer_count?: number;
            brand?: string;
            shop?: string;
            shop_url?: string;
            jan?: string;
            isbn?: string;
            sku?: string;
            review_count?: number;
            rating?: number;
            images?: string[];
            canonical_url?: string;
        };
        /**
         * @description `page_type: search`, `ranking` or `offers`: a list of items
         * @example {
         *       "title": "ヤマハ キーボード",
         *       "items": [
         *         {
         *           "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *           "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *           "price": 12800,
         *           "currency": "JPY",
         *           "price_tax": "included",
         *           "availability": "in_stock"
         *         },
         *         {
         *           "title": "ヤマハ YAMAHA PSR-E383 ポータブルキーボード 61鍵",
         *           "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/748810",
         *           "price": 24200,
         *           "currency": "JPY",
         *           "price_tax": "included",
         *           "points": 242,
         *           "availability": "out_of_stock",
         *           "availability_text": "お取り寄せ"
         *         }
         *       ],
         *       "next_page": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F&page=2",
         *       "total": 245,
         *       "page": 1
         *     }
         */
        ListData: {
            title?: string;
            items: {
                title: string;
                url?: string;
                rank?: number;
                /** @description Whole yen. */
                price?: number;
                /** @constant */
                currency?: "JPY";
                price_tax?: "included" | "excluded" | "unknown";
                /** @description Whole yen. */
                price_excluding_tax?: number;
                /** @description Whole yen. */
                list_price?: number;
                points?: number;
                /** @description Percent of the price (1 = 1%; Rakuten’s 10倍 = 10). */
                points_rate?: number;
                shipping?: "free" | "included" | "extra" | "unknown";
                /** @description Whole yen. */
                shipping_fee?: number;
                /** @description Whole yen. */
                free_shipping_threshold?: number;
                availability?: "in_stock" | "out_of_stock" | "preorder" | "backorder" | "limited" | "discontinued";
                availability_text?: string;
                condition?: "new" | "used" | "refurbished" | "collectible" | "unknown";
                condition_text?: string;
                on_sale?: boolean;
                sale_label?: string;
                price_range?: {
                    /** @description Whole yen. */
                    min: number;
                    /** @description Whole yen. */
                    max: number;
                };
                brand?: string;
                shop?: string;
                shop_url?: string;
                jan?: string;
                isbn?: string;
                sku?: string;
                review_count?: number;
                rating?: number;
                images?: string[];
            }[];
            next_page: string | null;
            total: number | null;
            page: number | null;
            price_range?: {
                /** @description Whole yen. */
                min: number;
                /** @description Whole yen. */
                max: number;
            };
        };
        /**
         * @description `page_type: forecast`
         * @example {
         *       "publishing_office": "気象庁",
         *       "report_datetime": "2026-11-28T11:00:00+09:00",
         *       "short_term": {
         *         "report_datetime": "2026-11-28T11:00:00+09:00",
         *         "areas": [
         *           {
         *             "code": "130010",
         *             "name": "東京地方",
         *             "weathers": [
         *               {
         *                 "time": "2026-11-28T11:00:00+09:00",
         *                 "weather_code": "101",
         *                 "weather": "晴れ　時々　くもり",
         *                 "wind": "北の風",
         *                 "wave": "０．５メートル"
         *               }
         *             ],
         *             "pops": [
         *               {
         *                 "time": "2026-11-28T12:00:00+09:00",
         *                 "pop": 10
         *               }
         *             ]
         *           }
         *         ],
         *         "temperature_points": [
         *           {
         *             "code": "44132",
         *             "name": "東京",
         *             "temps": [
         *               {
         *                 "time": "2026-11-28T09:00:00+09:00",
         *                 "temp": 15
         *               }
         *             ]
         *           }
         *         ]
         *       },
         *       "weekly": {
         *         "report_datetime": "2026-11-28T11:00:00+09:00",
         *         "areas": [
         *           {
         *             "code": "130010",
         *             "name": "東京地方",
         *             "days": [
         *               {
         *                 "time": "2026-11-29T00:00:00+09:00",
         *                 "weather_code": "201",
         *                 "pop": 20,
         *                 "reliability": "A"
         *               }
         *             ]
         *           }
         *         ],
         *         "temperature_points": [
         *           {
         *             "code": "44132",
         *             "name": "東京",
         *             "days": [
         *               {
         *                 "time": "2026-11-29T00:00:00+09:00",
         *                 "min": 8,
         *                 "min_upper": 9,
         *                 "min_lower": 6,
         *                 "max": 16,
         *                 "max_upper": 18,
         *                 "max_lower": 14
         *               }
         *             ]
         *           }
         *         ],
         *         "temp_average": [
         *           {
         *             "code": "44132",
         *             "name": "東京",
         *             "min": 7.4,
         *             "max": 15.8
         *           }
         *         ],
         *         "precip_average": [
         *           {
         *             "code": "44132",
         *             "name": "東京",
         *             "min": 1,
         *             "max": 12
         *           }
         *         ]
         *       }
         *     }
         */
        ForecastData: {
            publishing_office: string;
            report_datetime: string;
            short_term: {
                report_datetime: string;
                areas: {
                    code: string;
                    name: string;
                    weathers: {
                        time: string;
                        weather_code: string | null;
                        weather: string | null;
                        wind: string | null;
                        wave: string | null;
                    }[];
                    pops: {
                        time: string;
                        pop: number | null;
                    }[];
                }[];
                temperature_points: {
                    code: string;
                    name: string;
                    temps: {
                        time: string;
                        temp: number | null;
                    }[];
                }[];
            } | null;
            weekly: {
                report_datetime: string;
                areas: {
                    code: string;
                    name: string;
                    days: {
                        time: string;
                        weather_code: string | null;
                        pop: number | null;
                        reliability: string | null;
                    }[];
                }[];
                temperature_points: {
                    code: string;
                    name: string;
                    days: {
                        time: string;
                        min: number | null;
                        min_upper: number | null;
                        min_lower: number | null;
                        max: number | null;
                        max_upper: number | null;
                        max_lower: number | null;
                    }[];
                }[];
                temp_average: {
                    code: string;
                    name: string;
                    min: number | null;
                    max: number | null;
                }[];
                precip_average: {
                    code: string;
                    name: string;
                    min: number | null;
                    max: number | null;
                }[];
            } | null;
        };
        /**
         * @description `page_type: forecast_overview`
         * @example {
         *       "publishing_office": "気象庁",
         *       "report_datetime": "2026-11-28T10:37:00+09:00",
         *       "target_area": "東京都",
         *       "headline": null,
         *       "text": "日本付近は高気圧に覆われています。東京地方は、晴れや曇りとなっています。"
         *     }
         */
        ForecastOverviewData: {
            publishing_office: string;
            report_datetime: string;
            target_area: string;
            headline: string | null;
            text: string;
        };
        /**
         * @description `page_type: table` from a statistics API (e-Stat)
         * @example {
         *       "title": "男女別人口－総人口，日本人人口(2020年10月～2021年3月)",
         *       "table_id": "0003448237",
         *       "title_no": "001",
         *       "stat_name": "人口推計",
         *       "stat_code": "00200524",
         *       "gov_org": "総務省",
         *       "statistics_name": "人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月",
         *       "survey_date": "202010-202103",
         *       "survey_period": {
         *         "start": "2020-10",
         *         "end": "2021-03"
         *       },
         *       "open_date": "2021-03-22",
         *       "updated_date": "2021-03-22",
         *       "total_number": 2,
         *       "from_number": 1,
         *       "to_number": 2,
         *       "next_key": null,
         *       "classes": [
         *         {
         *           "id": "cat01",
         *           "name": "男女別",
         *           "items": [
         *             {
         *               "code": "000",
         *               "name": "男女計",
         *               "level": 1,
         *               "parent_code": null,
         *               "unit": "千人"
         *             }
         *           ]
         *         },
         *         {
         *           "id": "time",
         *           "name": "時間軸（月）",
         *           "items": [
         *             {
         *               "code": "2020001010",
         *               "name": "2020年10月",
         *               "level": 1,
         *               "parent_code": null,
         *               "unit": null
         *             },
         *             {
         *               "code": "2020001111",
         *               "name": "2020年11月",
         *               "level": 1,
         *               "parent_code": null,
         *               "unit": null
         *             }
         *           ]
         *         }
         *       ],
         *       "notes": [
         *         {
         *           "mark": "…",
         *           "meaning": "数値が得られないもの"
         *         }
         *       ],
         *       "rows": [
         *         {
         *           "classes": {
         *             "cat01": "000",
         *             "time": "2020001010"
         *           },
         *           "value": 126146,
         *           "raw": "126146",
         *           "unit": "千人"
         *         },
         *         {
         *           "classes": {
         *             "cat01": "000",
         *             "time": "2020001111"
         *           },
         *           "value": null,
         *           "reason": "unavailable",
         *           "raw": "…",
         *           "unit": "千人"
         *         }
         *       ]
         *     }
         */
        StatsTableData: {
            title: string;
            table_id: string;
            title_no: string | null;
            stat_name: string | null;
            stat_code: string | null;
            gov_org: string | null;
            statistics_name: string | null;
            survey_date: string | null;
            survey_period: {
                start: string;
                end: string;
            } | null;
            open_date: string | null;
            updated_date: string | null;
            total_number: number | null;
            from_number: number | null;
            to_number: number | null;
            next_key: number | null;
            classes: {
                id: string;
                name: string;
                items: {
                    code: string;
                    name: string;
                    level: number | null;
                    parent_code: string | null;
                    unit: string | null;
                }[];
            }[];
            notes: {
                mark: string;
                meaning: string;
            }[];
            rows: {
                classes: {
                    [key: string]: string;
                };
                value: number | null;
                reason?: "not_applicable" | "unavailable" | "confidential";
                flags?: string[];
                raw: string;
                unit: string | null;
            }[];
        };
        /**
         * @description `page_type: table` read from an HTML table, and `page_type: history` (daily price rows)
         * @example {
         *       "title": "7203 トヨタ自動車 時系列株価",
         *       "subject": "7203 トヨタ自動車(株)",
         *       "columns": [
         *         {
         *           "key": "date",
         *           "label": "日付",
         *           "type": "date",
         *           "unit": null
         *         },
         *         {
         *           "key": "open",
         *           "label": "始値",
         *           "type": "number",
         *           "unit": "円"
         *         },
         *         {
         *           "key": "close",
         *           "label": "終値",
         *           "type": "number",
         *           "unit": "円"
         *         },
         *         {
         *           "key": "volume",
         *           "label": "売買高",
         *           "type": "number",
         *           "unit": "株"
         *         }
         *       ],
         *       "rows": [
         *         {
         *           "date": "2026-11-27",
         *           "open": 2862,
         *           "close": 2891.5,
         *           "volume": 21884300
         *         },
         *         {
         *           "date": "2026-11-26",
         *           "open": 2840,
         *           "close": 2855,
         *           "volume": 19702100
         *         }
         *       ],
         *       "next_page": "https://kabutan.jp/stock/kabuka?code=7203&ashi=day&page=2",
         *       "page": 1
         *     }
         */
        DataTableData: {
            title: string;
            subject: string | null;
            columns: {
                key: string;
                label: string;
                type: "date" | "number" | "text";
                unit: string | null;
                as_of?: string;
            }[];
            rows: {
                [key: string]: (string | number) | null;
            }[];
            next_page?: string | null;
            page?: number | null;
        };
        /**
         * @description `page_type: meta`: a statistical table described (e-Stat)
         * @example {
         *       "table_id": "0003448237",
         *       "title": "男女別人口－総人口，日本人人口(2020年10月～2021年3月)",
         *       "title_no": "001",
         *       "stat_name": "人口推計",
         *       "stat_code": "00200524",
         *       "gov_org": "総務省",
         *       "statistics_name": "人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月",
         *       "cycle": "月次",
         *       "survey_date": "202010-202103",
         *       "survey_period": {
         *         "start": "2020-10",
         *         "end": "2021-03"
         *       },
         *       "open_date": "2021-03-22",
         *       "updated_date": "2021-03-22",
         *       "small_area": 0,
         *       "collect_area": "該当なし",
         *       "main_category": {
         *         "code": "02",
         *         "name": "人口・世帯"
         *       },
         *       "sub_category": {
         *         "code": "01",
         *         "name": "人口"
         *       },
         *       "overall_total_number": 24,
         *       "classes": [
         *         {
         *           "id": "cat01",
         *           "name": "男女別",
         *           "items": [
         *             {
         *               "code": "000",
         *               "name": "男女計",
         *               "level": 1,
         *               "parent_code": null,
         *               "unit": "千人"
         *             },
         *             {
         *               "code": "001",
         *               "name": "男",
         *               "level": 1,
         *               "parent_code": null,
         *               "unit": "千人"
         *             }
         *           ]
         *         }
         *       ]
         *     }
         */
        EstatMetaData: {
            table_id: string;
            title: string;
            title_no: string | null;
            stat_name: string | null;
            stat_code: string | null;
            gov_org: string | null;
            statistics_name: string | null;
            cycle: string | null;
            survey_date: string | null;
            survey_period: {
                start: string;
                end: string;
            } | null;
            open_date: string | null;
            updated_date: string | null;
            small_area: number | null;
            collect_area: string | null;
            main_category: {
                code: string;
                name: string;
            } | null;
            sub_category: {
                code: string;
                name: string;
            } | null;
            overall_total_number: number | null;
            classes: {
                id: string;
                name: string;
                items: {
                    code: string;
                    name: string;
                    level: number | null;
                    parent_code: string | null;
                    unit: string | null;
                }[];
            }[];
        };
        /**
         * @description `page_type: list`: statistical tables found (e-Stat)
         * @example {
         *       "total_number": 1,
         *       "from_number": 1,
         *       "to_number": 1,
         *       "next_key": null,
         *       "tables": [
         *         {
         *           "table_id": "0003448237",
         *           "title": "男女別人口－総人口，日本人人口(2020年10月～2021年3月)",
         *           "title_no": "001",
         *           "stat_name": "人口推計",
         *           "stat_code": "00200524",
         *           "gov_org": "総務省",
         *           "statistics_name": "人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月",
         *           "cycle": "月次",
         *           "survey_date": "202010-202103",
         *           "survey_period": {
         *             "start": "2020-10",
         *             "end": "2021-03"
         *           },
         *           "open_date": "2021-03-22",
         *           "updated_date": "2021-03-22",
         *           "small_area": 0,
         *           "collect_area": "該当なし",
         *           "main_category": {
         *             "code": "02",
         *             "name": "人口・世帯"
         *           },
         *           "sub_category": {
         *             "code": "01",
         *             "name": "人口"
         *           },
         *           "overall_total_number": 24
         *         }
         *       ],
         *       "statistics": [
         *         {
         *           "stat_code": "00200524",
         *           "stat_name": "人口推計",
         *           "gov_org": "総務省",
         *           "gov_org_code": "00200"
         *         }
         *       ]
         *     }
         */
        StatsListData: {
            total_number: number | null;
            from_number: number | null;
            to_number: number | null;
            next_key: number | null;
            tables: {
                table_id: string;
                title: string;
                title_no: string | null;
                stat_name: string | null;
                stat_code: string | null;
                gov_org: string | null;
                statistics_name: string | null;
                cycle: string | null;
                survey_date: string | null;
                survey_period: {
                    start: string;
                    end: string;
                } | null;
                open_date: string | null;
                updated_date: string | null;
                small_area: number | null;
                collect_area: string | null;
                main_category: {
                    code: string;
                    name: string;
                } | null;
                sub_category: {
                    code: string;
                    name: string;
                } | null;
                overall_total_number: number | null;
            }[];
            statistics: {
                stat_code: string;
                stat_name: string;
                gov_org: string | null;
                gov_org_code: string | null;
            }[];
        };
        /**
         * @description `page_type: quote`: one listed stock (price, market, metrics)
         * @example {
         *       "code": "7203",
         *       "name": "トヨタ自動車",
         *       "market": "東証Ｐ",
         *       "price": 2891.5,
         *       "price_text": "2,891.5円",
         *       "currency": "JPY",
         *       "as_of": "2026-11-27T15:30:00+09:00",
         *       "as_of_text": "11/27 15:30",
         *       "metrics": [
         *         {
         *           "key": "per",
         *           "label": "PER",
         *           "value": 9.8,
         *           "unit": "倍",
         *           "raw": "9.8倍"
         *         },
         *         {
         *           "key": "dividend_yield",
         *           "label": "利回り",
         *           "value": 3.11,
         *           "unit": "%",
         *           "raw": "3.11％"
         *         },
         *         {
         *           "key": "market_cap",
         *           "label": "時価総額",
         *           "value": 47140000000000,
         *           "unit": "円",
         *           "raw": "47兆1,400億円"
         *         }
         *       ],
         *       "industry": "輸送用機器"
         *     }
         */
        QuoteData: {
            code: string;
            name: string;
            market: string | null;
            price: number | null;
            price_reason?: "not_applicable" | "unavailable" | "confidential";
            price_text: string;
            /** @constant */
            currency: "JPY";
            as_of: string | null;
            as_of_text: string | null;
            metrics: {
                key: string;
                label: string;
                value: number | null;
                unit: string | null;
                raw: string;
                reason?: "not_applicable" | "unavailable" | "confidential";
            }[];
            industry?: string;
            english_name?: string;
            website?: string;
            themes?: string[];
            shareholder_benefits?: string;
        };
        /**
         * @description `page_type: record` and `records`: corporations from the 法人番号 Web-API (国税庁)
         * @example {
         *       "last_updated": "2026-11-27",
         *       "total": 1,
         *       "part": 1,
         *       "parts": 1,
         *       "corporations": [
         *         {
         *           "sequence_number": 1,
         *           "corporate_number": "1180301018771",
         *           "process": "01",
         *           "process_name": "新規",
         *           "correction": false,
         *           "latest": true,
         *           "name": "トヨタ自動車株式会社",
         *           "furigana": "トヨタジドウシャ",
         *           "en_name": "TOYOTA MOTOR CORPORATION",
         *           "kind": "301",
         *           "kind_name": "株式会社",
         *           "prefecture": "愛知県",
         *           "city": "豊田市",
         *           "street": "トヨタ町１番地",
         *           "prefecture_code": "23",
         *           "city_code": "211",
         *           "post_code": "4718571",
         *           "address_outside": null,
         *           "update_date": "2024-04-01",
         *           "change_date": "2015-10-05",
         *           "assignment_date": "2015-10-05",
         *           "close_date": null,
         *           "close_cause": null,
         *           "close_cause_name": null,
         *           "successor_corporate_number": null,
         *           "change_cause": null,
         *           "hidden": false
         *         }
         *       ]
         *     }
         */
        CorporationRecordsData: {
            last_updated: string;
            total: number;
            part: number;
            parts: number;
            corporations: {
                sequence_number: number;
                corporate_number: string;
                process: string;
                process_name: string | null;
                correction: boolean | null;
                latest: boolean | null;
                name: string | null;
                furigana: string | null;
                en_name: string | null;
                kind: string | null;
                kind_name: string | null;
                prefecture: string | null;
                city: string | null;
                street: string | null;
                prefecture_code: string | null;
                city_code: string | null;
                post_code: string | null;
                address_outside: string | null;
                update_date: string;
                change_date: string | null;
                assignment_date: string | null;
                close_date: string | null;
                close_cause: string | null;
                close_cause_name: string | null;
                successor_corporate_number: string | null;
                change_cause: string | null;
                hidden: boolean | null;
            }[];
        };
        /**
         * @description `page_type: document`: one law (e-Gov law XML)
         * @example {
         *       "title": "行政手続法",
         *       "law_number": "平成五年法律第八十八号",
         *       "law_id": "405AC0000000088",
         *       "law_revision_id": null,
         *       "law_type": "Act",
         *       "era": "Heisei",
         *       "year": "05",
         *       "promulgation_date": "1993-11-12",
         *       "chapters": [
         *         {
         *           "number": "1",
         *           "title": "第一章　総則",
         *           "sections": []
         *         }
         *       ],
         *       "articles": [
         *         {
         *           "number": "1",
         *           "title": "第一条",
         *           "caption": "（目的等）",
         *           "chapter": "1",
         *           "section": null,
         *           "paragraphs": [
         *             {
         *               "number": "1",
         *               "caption": null,
         *               "text": "この法律は、処分、行政指導及び届出に関する手続並びに命令等を定める手続に関し、共通する事項を定めることによって、行政運営における公正の確保と透明性の向上を図り、もって国民の権利利益の保護に資することを目的とする。",
         *               "items": []
         *             }
         *           ]
         *         }
         *       ],
         *       "paragraphs": [],
         *       "supplementary_provisions": [
         *         {
         *           "amend_law_number": null,
         *           "label": "附　則",
         *           "articles": [],
         *           "paragraphs": []
         *         }
         *       ]
         *     }
         */
        DocumentData: {
            title: string;
            law_number: string;
            law_id: string | null;
            law_revision_id: string | null;
            law_type: string | null;
            era: string | null;
            year: string | null;
            promulgation_date: string | null;
            chapters: {
                number: string;
                title: string;
                sections: {
                    number: string;
                    title: string;
                }[];
            }[];
            articles: {
                number: string;
                title: string | null;
                caption: string | null;
                chapter: string | null;
                section: string | null;
                paragraphs: {
                    number: string | null;
                    caption: string | null;
                    text: string;
                    items: {
                        level: number;
                        number: string | null;
                        title: string | null;
                        text: string;
                    }[];
                }[];
            }[];
            paragraphs: {
                number: string | null;
                caption: string | null;
                text: string;
                items: {
                    level: number;
                    number: string | null;
                    title: string | null;
                    text: string;
                }[];
            }[];
            supplementary_provisions: {
                amend_law_number: string | null;
                label: string | null;
                articles: {
                    number: string;
                    title: string | null;
                    caption: string | null;
                    chapter: string | null;
                    section: string | null;
                    paragraphs: {
                        number: string | null;
                        caption: string | null;
                        text: string;
                        items: {
                            level: number;
                            number: string | null;
                            title: string | null;
                            text: string;
                        }[];
                    }[];
                }[];
                paragraphs: {
                    number: string | null;
                    caption: string | null;
                    text: string;
                    items: {
                        level: number;
                        number: string | null;
                        title: string | null;
                        text: string;
                    }[];
                }[];
            }[];
        };
        /**
         * @description `page_type: areas`: JMA area names and codes, one list per level (気象庁 area.json)
         * @example {
         *       "centers": [
         *         {
         *           "code": "010300",
         *           "name": "関東甲信地方",
         *           "en_name": "Kanto Koshin",
         *           "office_name": "気象庁",
         *           "children": [
         *             "130000"
         *           ]
         *         }
         *       ],
         *       "offices": [
         *         {
         *           "code": "130000",
         *           "name": "東京都",
         *           "en_name": "Tokyo",
         *           "office_name": "気象庁",
         *           "parent": "010300",
         *           "children": [
         *             "130010"
         *           ]
         *         }
         *       ],
         *       "class10s": [
         *         {
         *           "code": "130010",
         *           "name": "東京地方",
         *           "en_name": "Tokyo",
         *           "parent": "130000",
         *           "children": [
         *             "131010"
         *           ]
         *         }
         *       ],
         *       "class15s": [
         *         {
         *           "code": "131010",
         *           "name": "２３区西部",
         *           "en_name": "Western 23 Wards",
         *           "parent": "130010",
         *           "children": []
         *         }
         *       ],
         *       "class20s": [
         *         {
         *           "code": "1310400",
         *           "name": "新宿区",
         *           "en_name": "Shinjuku City",
         *           "kana": "しんじゅくく",
         *           "parent": "131010"
         *         }
         *       ]
         *     }
         */
        AreasData: {
            centers: {
                code: string;
                name: string;
                en_name: string | null;
                office_name: string;
                children: string[];
            }[];
            offices: {
                code: string;
                name: string;
                en_name: string | null;
                office_name: string;
                parent: string;
                children: string[];
            }[];
            class10s: {
                code: string;
                name: string;
                en_name: string | null;
                parent: string;
                children: string[];
            }[];
            class15s: {
                code: string;
                name: string;
                en_name: string | null;
                parent: string;
                children: string[];
            }[];
            class20s: {
                code: string;
                name: string;
                en_name: string | null;
                kana: string | null;
                parent: string;
            }[];
        };
        /**
         * @description How the page was fetched.
         * @example {
         *       "status": "completed",
         *       "attempts": 1,
         *       "route": "http",
         *       "http_status": 200,
         *       "final_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *       "charset": "utf-8",
         *       "bytes": 366969,
         *       "elapsed_ms": 412
         *     }
         */
        FetchSummary: {
            /**
             * @description `completed`, or `not_found`: the target said 404/410 (cost 0, `data` null).
             * @enum {string}
             */
            status: "completed" | "not_found";
            attempts: number;
            route: string;
            http_status: number | null;
            final_url: string | null;
            charset: string | null;
            bytes: number | null;
            elapsed_ms: number | null;
        };
        /**
         * @description Which extractor read the page, and which source gave each field.
         * @example {
         *       "id": "ikebe_gakki/item",
         *       "version": 3,
         *       "coverage": "stable",
         *       "provenance": {
         *         "title": "html",
         *         "price": "html",
         *         "points": "html",
         *         "brand": "json_ld"
         *       }
         *     }
         */
        Extractor: {
            id: string;
            version: number;
            coverage: string;
            provenance: {
                [key: string]: string;
            };
        };
        /**
         * @description Whether this answer came from the account's cache (docs/cache.md).
         * @example {
         *       "state": "miss",
         *       "fetched_at": "2026-11-28T03:41:12.208Z",
         *       "age_s": 0
         *     }
         */
        CacheState: {
            /** @description `hit`: answered from this account's cache at cost 0; `miss`: fetched now and kept for later calls; `bypass`: fetched now, nothing read or kept (no max_age_s, or an output the cache does not hold). */
            state: "hit" | "miss" | "bypass";
            /**
             * Format: date-time
             * @description When Kumo fetched the page this answer comes from.
             */
            fetched_at: string;
            /** @description Seconds since fetched_at (0 unless a hit). */
            age_s: number;
        };
        /**
         * @description The artifact kept with `store_artifact: true`.
         * @example {
         *       "id": "art_01JDQ8Z7B3C5D7F9G1H3J5K7M9",
         *       "expires_at": "2026-12-05T03:41:12.208Z"
         *     }
         */
        StoredArtifact: {
            id: string;
            expires_at: string;
        };
        /**
         * @description A scrape answer for a `item` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "ikebe_gakki",
         *       "page_type": "item",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "ikebe_gakki/item",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *         "price": 12800,
         *         "currency": "JPY",
         *         "price_tax": "included",
         *         "price_excluding_tax": 11636,
         *         "points": 128,
         *         "points_rate": 1,
         *         "shipping": "free",
         *         "availability": "in_stock",
         *         "availability_text": "在庫あり",
         *         "brand": "ヤマハ",
         *         "shop": "イケベ楽器店",
         *         "jan": "4957812646284",
         *         "sku": "751203",
         *         "images": [
         *           "https://www.ikebe-gakki.com/images/item/751203_1.jpg"
         *         ],
         *         "canonical_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203"
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "ikebe_gakki",
         *       "page_type": "item",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 404,
         *         "final_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "ikebe_gakki/item",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultItem: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "item";
            cost_units: number;
            latency_ms: number;
            /** @description ItemData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ItemData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `search` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "ikebe_gakki",
         *       "page_type": "search",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "ikebe_gakki/search",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "ヤマハ キーボード",
         *         "items": [
         *           {
         *             "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *             "price": 12800,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "availability": "in_stock"
         *           },
         *           {
         *             "title": "ヤマハ YAMAHA PSR-E383 ポータブルキーボード 61鍵",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/748810",
         *             "price": 24200,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "points": 242,
         *             "availability": "out_of_stock",
         *             "availability_text": "お取り寄せ"
         *           }
         *         ],
         *         "next_page": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F&page=2",
         *         "total": 245,
         *         "page": 1
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "ikebe_gakki",
         *       "page_type": "search",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 404,
         *         "final_url": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "ikebe_gakki/search",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultSearch: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "search";
            cost_units: number;
            latency_ms: number;
            /** @description ListData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ListData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `ranking` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "rakuten_webservice",
         *       "page_type": "ranking",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://app.rakuten.co.jp/services/api/IchibaItem/Ranking/20220601?genreId=112493",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "rakuten_webservice/ranking",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "ヤマハ キーボード",
         *         "items": [
         *           {
         *             "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *             "price": 12800,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "availability": "in_stock"
         *           },
         *           {
         *             "title": "ヤマハ YAMAHA PSR-E383 ポータブルキーボード 61鍵",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/748810",
         *             "price": 24200,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "points": 242,
         *             "availability": "out_of_stock",
         *             "availability_text": "お取り寄せ"
         *           }
         *         ],
         *         "next_page": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F&page=2",
         *         "total": 245,
         *         "page": 1
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "rakuten_webservice",
         *       "page_type": "ranking",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://app.rakuten.co.jp/services/api/IchibaItem/Ranking/20220601?genreId=112493",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "rakuten_webservice/ranking",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultRanking: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "ranking";
            cost_units: number;
            latency_ms: number;
            /** @description ListData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ListData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `offers` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "surugaya",
         *       "page_type": "offers",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://www.suruga-ya.jp/product/other/128005541",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "surugaya/offers",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "ヤマハ キーボード",
         *         "items": [
         *           {
         *             "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *             "price": 12800,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "availability": "in_stock"
         *           },
         *           {
         *             "title": "ヤマハ YAMAHA PSR-E383 ポータブルキーボード 61鍵",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/748810",
         *             "price": 24200,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "points": 242,
         *             "availability": "out_of_stock",
         *             "availability_text": "お取り寄せ"
         *           }
         *         ],
         *         "next_page": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F&page=2",
         *         "total": 245,
         *         "page": 1
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "surugaya",
         *       "page_type": "offers",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 404,
         *         "final_url": "https://www.suruga-ya.jp/product/other/128005541",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "surugaya/offers",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultOffers: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "offers";
            cost_units: number;
            latency_ms: number;
            /** @description ListData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ListData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `forecast` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "jma_forecast",
         *       "page_type": "forecast",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://www.jma.go.jp/bosai/forecast/data/forecast/130000.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/forecast",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "publishing_office": "気象庁",
         *         "report_datetime": "2026-11-28T11:00:00+09:00",
         *         "short_term": {
         *           "report_datetime": "2026-11-28T11:00:00+09:00",
         *           "areas": [
         *             {
         *               "code": "130010",
         *               "name": "東京地方",
         *               "weathers": [
         *                 {
         *                   "time": "2026-11-28T11:00:00+09:00",
         *                   "weather_code": "101",
         *                   "weather": "晴れ　時々　くもり",
         *                   "wind": "北の風",
         *                   "wave": "０．５メートル"
         *                 }
         *               ],
         *               "pops": [
         *                 {
         *                   "time": "2026-11-28T12:00:00+09:00",
         *                   "pop": 10
         *                 }
         *               ]
         *             }
         *           ],
         *           "temperature_points": [
         *             {
         *               "code": "44132",
         *               "name": "東京",
         *               "temps": [
         *                 {
         *                   "time": "2026-11-28T09:00:00+09:00",
         *                   "temp": 15
         *                 }
         *               ]
         *             }
         *           ]
         *         },
         *         "weekly": {
         *           "report_datetime": "2026-11-28T11:00:00+09:00",
         *           "areas": [
         *             {
         *               "code": "130010",
         *               "name": "東京地方",
         *               "days": [
         *                 {
         *                   "time": "2026-11-29T00:00:00+09:00",
         *                   "weather_code": "201",
         *                   "pop": 20,
         *                   "reliability": "A"
         *                 }
         *               ]
         *             }
         *           ],
         *           "temperature_points": [
         *             {
         *               "code": "44132",
         *               "name": "東京",
         *               "days": [
         *                 {
         *                   "time": "2026-11-29T00:00:00+09:00",
         *                   "min": 8,
         *                   "min_upper": 9,
         *                   "min_lower": 6,
         *                   "max": 16,
         *                   "max_upper": 18,
         *                   "max_lower": 14
         *                 }
         *               ]
         *             }
         *           ],
         *           "temp_average": [
         *             {
         *               "code": "44132",
         *               "name": "東京",
         *               "min": 7.4,
         *               "max": 15.8
         *             }
         *           ],
         *           "precip_average": [
         *             {
         *               "code": "44132",
         *               "name": "東京",
         *               "min": 1,
         *               "max": 12
         *             }
         *           ]
         *         }
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "jma_forecast",
         *       "page_type": "forecast",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://www.jma.go.jp/bosai/forecast/data/forecast/130000.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/forecast",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultForecast: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "forecast";
            cost_units: number;
            latency_ms: number;
            /** @description ForecastData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ForecastData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `forecast_overview` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "jma_forecast",
         *       "page_type": "forecast_overview",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://www.jma.go.jp/bosai/forecast/data/overview_forecast/130000.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/forecast_overview",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "publishing_office": "気象庁",
         *         "report_datetime": "2026-11-28T10:37:00+09:00",
         *         "target_area": "東京都",
         *         "headline": null,
         *         "text": "日本付近は高気圧に覆われています。東京地方は、晴れや曇りとなっています。"
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "jma_forecast",
         *       "page_type": "forecast_overview",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://www.jma.go.jp/bosai/forecast/data/overview_forecast/130000.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/forecast_overview",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultForecastOverview: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "forecast_overview";
            cost_units: number;
            latency_ms: number;
            /** @description ForecastOverviewData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ForecastOverviewData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `areas` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "jma_forecast",
         *       "page_type": "areas",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://www.jma.go.jp/bosai/common/const/area.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/areas",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "centers": [
         *           {
         *             "code": "010300",
         *             "name": "関東甲信地方",
         *             "en_name": "Kanto Koshin",
         *             "office_name": "気象庁",
         *             "children": [
         *               "130000"
         *             ]
         *           }
         *         ],
         *         "offices": [
         *           {
         *             "code": "130000",
         *             "name": "東京都",
         *             "en_name": "Tokyo",
         *             "office_name": "気象庁",
         *             "parent": "010300",
         *             "children": [
         *               "130010"
         *             ]
         *           }
         *         ],
         *         "class10s": [
         *           {
         *             "code": "130010",
         *             "name": "東京地方",
         *             "en_name": "Tokyo",
         *             "parent": "130000",
         *             "children": [
         *               "131010"
         *             ]
         *           }
         *         ],
         *         "class15s": [
         *           {
         *             "code": "131010",
         *             "name": "２３区西部",
         *             "en_name": "Western 23 Wards",
         *             "parent": "130010",
         *             "children": []
         *           }
         *         ],
         *         "class20s": [
         *           {
         *             "code": "1310400",
         *             "name": "新宿区",
         *             "en_name": "Shinjuku City",
         *             "kana": "しんじゅくく",
         *             "parent": "131010"
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "jma_forecast",
         *       "page_type": "areas",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://www.jma.go.jp/bosai/common/const/area.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/areas",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultAreas: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "areas";
            cost_units: number;
            latency_ms: number;
            /** @description AreasData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["AreasData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `table` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "estat_api",
         *       "page_type": "table",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?statsDataId=0003448237",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/table",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "男女別人口－総人口，日本人人口(2020年10月～2021年3月)",
         *         "table_id": "0003448237",
         *         "title_no": "001",
         *         "stat_name": "人口推計",
         *         "stat_code": "00200524",
         *         "gov_org": "総務省",
         *         "statistics_name": "人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月",
         *         "survey_date": "202010-202103",
         *         "survey_period": {
         *           "start": "2020-10",
         *           "end": "2021-03"
         *         },
         *         "open_date": "2021-03-22",
         *         "updated_date": "2021-03-22",
         *         "total_number": 2,
         *         "from_number": 1,
         *         "to_number": 2,
         *         "next_key": null,
         *         "classes": [
         *           {
         *             "id": "cat01",
         *             "name": "男女別",
         *             "items": [
         *               {
         *                 "code": "000",
         *                 "name": "男女計",
         *                 "level": 1,
         *                 "parent_code": null,
         *                 "unit": "千人"
         *               }
         *             ]
         *           },
         *           {
         *             "id": "time",
         *             "name": "時間軸（月）",
         *             "items": [
         *               {
         *                 "code": "2020001010",
         *                 "name": "2020年10月",
         *                 "level": 1,
         *                 "parent_code": null,
         *                 "unit": null
         *               },
         *               {
         *                 "code": "2020001111",
         *                 "name": "2020年11月",
         *                 "level": 1,
         *                 "parent_code": null,
         *                 "unit": null
         *               }
         *             ]
         *           }
         *         ],
         *         "notes": [
         *           {
         *             "mark": "…",
         *             "meaning": "数値が得られないもの"
         *           }
         *         ],
         *         "rows": [
         *           {
         *             "classes": {
         *               "cat01": "000",
         *               "time": "2020001010"
         *             },
         *             "value": 126146,
         *             "raw": "126146",
         *             "unit": "千人"
         *           },
         *           {
         *             "classes": {
         *               "cat01": "000",
         *               "time": "2020001111"
         *             },
         *             "value": null,
         *             "reason": "unavailable",
         *             "raw": "…",
         *             "unit": "千人"
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "estat_api",
         *       "page_type": "table",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?statsDataId=0003448237",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/table",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "7203 トヨタ自動車 時系列株価",
         *         "subject": "7203 トヨタ自動車(株)",
         *         "columns": [
         *           {
         *             "key": "date",
         *             "label": "日付",
         *             "type": "date",
         *             "unit": null
         *           },
         *           {
         *             "key": "open",
         *             "label": "始値",
         *             "type": "number",
         *             "unit": "円"
         *           },
         *           {
         *             "key": "close",
         *             "label": "終値",
         *             "type": "number",
         *             "unit": "円"
         *           },
         *           {
         *             "key": "volume",
         *             "label": "売買高",
         *             "type": "number",
         *             "unit": "株"
         *           }
         *         ],
         *         "rows": [
         *           {
         *             "date": "2026-11-27",
         *             "open": 2862,
         *             "close": 2891.5,
         *             "volume": 21884300
         *           },
         *           {
         *             "date": "2026-11-26",
         *             "open": 2840,
         *             "close": 2855,
         *             "volume": 19702100
         *           }
         *         ],
         *         "next_page": "https://kabutan.jp/stock/kabuka?code=7203&ashi=day&page=2",
         *         "page": 1
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "estat_api",
         *       "page_type": "table",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?statsDataId=0003448237",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/table",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultTable: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "table";
            cost_units: number;
            latency_ms: number;
            /** @description StatsTableData or DataTableData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["StatsTableData"] | components["schemas"]["DataTableData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `meta` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "estat_api",
         *       "page_type": "meta",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getMetaInfo?statsDataId=0003448237",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/meta",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "table_id": "0003448237",
         *         "title": "男女別人口－総人口，日本人人口(2020年10月～2021年3月)",
         *         "title_no": "001",
         *         "stat_name": "人口推計",
         *         "stat_code": "00200524",
         *         "gov_org": "総務省",
         *         "statistics_name": "人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月",
         *         "cycle": "月次",
         *         "survey_date": "202010-202103",
         *         "survey_period": {
         *           "start": "2020-10",
         *           "end": "2021-03"
         *         },
         *         "open_date": "2021-03-22",
         *         "updated_date": "2021-03-22",
         *         "small_area": 0,
         *         "collect_area": "該当なし",
         *         "main_category": {
         *           "code": "02",
         *           "name": "人口・世帯"
         *         },
         *         "sub_category": {
         *           "code": "01",
         *           "name": "人口"
         *         },
         *         "overall_total_number": 24,
         *         "classes": [
         *           {
         *             "id": "cat01",
         *             "name": "男女別",
         *             "items": [
         *               {
         *                 "code": "000",
         *                 "name": "男女計",
         *                 "level": 1,
         *                 "parent_code": null,
         *                 "unit": "千人"
         *               },
         *               {
         *                 "code": "001",
         *                 "name": "男",
         *                 "level": 1,
         *                 "parent_code": null,
         *                 "unit": "千人"
         *               }
         *             ]
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "estat_api",
         *       "page_type": "meta",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getMetaInfo?statsDataId=0003448237",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/meta",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultMeta: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "meta";
            cost_units: number;
            latency_ms: number;
            /** @description EstatMetaData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["EstatMetaData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `list` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "estat_api",
         *       "page_type": "list",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getStatsList?statsCode=00200524",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/list",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "total_number": 1,
         *         "from_number": 1,
         *         "to_number": 1,
         *         "next_key": null,
         *         "tables": [
         *           {
         *             "table_id": "0003448237",
         *             "title": "男女別人口－総人口，日本人人口(2020年10月～2021年3月)",
         *             "title_no": "001",
         *             "stat_name": "人口推計",
         *             "stat_code": "00200524",
         *             "gov_org": "総務省",
         *             "statistics_name": "人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月",
         *             "cycle": "月次",
         *             "survey_date": "202010-202103",
         *             "survey_period": {
         *               "start": "2020-10",
         *               "end": "2021-03"
         *             },
         *             "open_date": "2021-03-22",
         *             "updated_date": "2021-03-22",
         *             "small_area": 0,
         *             "collect_area": "該当なし",
         *             "main_category": {
         *               "code": "02",
         *               "name": "人口・世帯"
         *             },
         *             "sub_category": {
         *               "code": "01",
         *               "name": "人口"
         *             },
         *             "overall_total_number": 24
         *           }
         *         ],
         *         "statistics": [
         *           {
         *             "stat_code": "00200524",
         *             "stat_name": "人口推計",
         *             "gov_org": "総務省",
         *             "gov_org_code": "00200"
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "estat_api",
         *       "page_type": "list",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getStatsList?statsCode=00200524",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/list",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultList: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "list";
            cost_units: number;
            latency_ms: number;
            /** @description StatsListData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["StatsListData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `history` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "kabutan",
         *       "page_type": "history",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://kabutan.jp/stock/kabuka?code=7203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "kabutan/history",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "7203 トヨタ自動車 時系列株価",
         *         "subject": "7203 トヨタ自動車(株)",
         *         "columns": [
         *           {
         *             "key": "date",
         *             "label": "日付",
         *             "type": "date",
         *             "unit": null
         *           },
         *           {
         *             "key": "open",
         *             "label": "始値",
         *             "type": "number",
         *             "unit": "円"
         *           },
         *           {
         *             "key": "close",
         *             "label": "終値",
         *             "type": "number",
         *             "unit": "円"
         *           },
         *           {
         *             "key": "volume",
         *             "label": "売買高",
         *             "type": "number",
         *             "unit": "株"
         *           }
         *         ],
         *         "rows": [
         *           {
         *             "date": "2026-11-27",
         *             "open": 2862,
         *             "close": 2891.5,
         *             "volume": 21884300
         *           },
         *           {
         *             "date": "2026-11-26",
         *             "open": 2840,
         *             "close": 2855,
         *             "volume": 19702100
         *           }
         *         ],
         *         "next_page": "https://kabutan.jp/stock/kabuka?code=7203&ashi=day&page=2",
         *         "page": 1
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "kabutan",
         *       "page_type": "history",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 404,
         *         "final_url": "https://kabutan.jp/stock/kabuka?code=7203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "kabutan/history",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultHistory: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "history";
            cost_units: number;
            latency_ms: number;
            /** @description DataTableData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["DataTableData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `quote` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "kabutan",
         *       "page_type": "quote",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://kabutan.jp/stock/?code=7203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "kabutan/quote",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "code": "7203",
         *         "name": "トヨタ自動車",
         *         "market": "東証Ｐ",
         *         "price": 2891.5,
         *         "price_text": "2,891.5円",
         *         "currency": "JPY",
         *         "as_of": "2026-11-27T15:30:00+09:00",
         *         "as_of_text": "11/27 15:30",
         *         "metrics": [
         *           {
         *             "key": "per",
         *             "label": "PER",
         *             "value": 9.8,
         *             "unit": "倍",
         *             "raw": "9.8倍"
         *           },
         *           {
         *             "key": "dividend_yield",
         *             "label": "利回り",
         *             "value": 3.11,
         *             "unit": "%",
         *             "raw": "3.11％"
         *           },
         *           {
         *             "key": "market_cap",
         *             "label": "時価総額",
         *             "value": 47140000000000,
         *             "unit": "円",
         *             "raw": "47兆1,400億円"
         *           }
         *         ],
         *         "industry": "輸送用機器"
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "kabutan",
         *       "page_type": "quote",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 404,
         *         "final_url": "https://kabutan.jp/stock/?code=7203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "kabutan/quote",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultQuote: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "quote";
            cost_units: number;
            latency_ms: number;
            /** @description QuoteData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["QuoteData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `record` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "houjin_bangou",
         *       "page_type": "record",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.houjin-bangou.nta.go.jp/4/num?number=1180301018771&type=12",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "houjin_bangou/record",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "last_updated": "2026-11-27",
         *         "total": 1,
         *         "part": 1,
         *         "parts": 1,
         *         "corporations": [
         *           {
         *             "sequence_number": 1,
         *             "corporate_number": "1180301018771",
         *             "process": "01",
         *             "process_name": "新規",
         *             "correction": false,
         *             "latest": true,
         *             "name": "トヨタ自動車株式会社",
         *             "furigana": "トヨタジドウシャ",
         *             "en_name": "TOYOTA MOTOR CORPORATION",
         *             "kind": "301",
         *             "kind_name": "株式会社",
         *             "prefecture": "愛知県",
         *             "city": "豊田市",
         *             "street": "トヨタ町１番地",
         *             "prefecture_code": "23",
         *             "city_code": "211",
         *             "post_code": "4718571",
         *             "address_outside": null,
         *             "update_date": "2024-04-01",
         *             "change_date": "2015-10-05",
         *             "assignment_date": "2015-10-05",
         *             "close_date": null,
         *             "close_cause": null,
         *             "close_cause_name": null,
         *             "successor_corporate_number": null,
         *             "change_cause": null,
         *             "hidden": false
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "houjin_bangou",
         *       "page_type": "record",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://api.houjin-bangou.nta.go.jp/4/num?number=1180301018771&type=12",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "houjin_bangou/record",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultRecord: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "record";
            cost_units: number;
            latency_ms: number;
            /** @description CorporationRecordsData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["CorporationRecordsData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `records` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "houjin_bangou",
         *       "page_type": "records",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.houjin-bangou.nta.go.jp/4/name?name=%E3%83%88%E3%83%A8%E3%82%BF&type=12",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "houjin_bangou/records",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "last_updated": "2026-11-27",
         *         "total": 1,
         *         "part": 1,
         *         "parts": 1,
         *         "corporations": [
         *           {
         *             "sequence_number": 1,
         *             "corporate_number": "1180301018771",
         *             "process": "01",
         *             "process_name": "新規",
         *             "correction": false,
         *             "latest": true,
         *             "name": "トヨタ自動車株式会社",
         *             "furigana": "トヨタジドウシャ",
         *             "en_name": "TOYOTA MOTOR CORPORATION",
         *             "kind": "301",
         *             "kind_name": "株式会社",
         *             "prefecture": "愛知県",
         *             "city": "豊田市",
         *             "street": "トヨタ町１番地",
         *             "prefecture_code": "23",
         *             "city_code": "211",
         *             "post_code": "4718571",
         *             "address_outside": null,
         *             "update_date": "2024-04-01",
         *             "change_date": "2015-10-05",
         *             "assignment_date": "2015-10-05",
         *             "close_date": null,
         *             "close_cause": null,
         *             "close_cause_name": null,
         *             "successor_corporate_number": null,
         *             "change_cause": null,
         *             "hidden": false
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "houjin_bangou",
         *       "page_type": "records",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://api.houjin-bangou.nta.go.jp/4/name?name=%E3%83%88%E3%83%A8%E3%82%BF&type=12",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "houjin_bangou/records",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultRecords: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "records";
            cost_units: number;
            latency_ms: number;
            /** @description CorporationRecordsData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["CorporationRecordsData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer for a `document` page.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "egov_laws",
         *       "page_type": "document",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://laws.e-gov.go.jp/api/1/lawdata/405AC0000000088",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "egov_laws/document",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "行政手続法",
         *         "law_number": "平成五年法律第八十八号",
         *         "law_id": "405AC0000000088",
         *         "law_revision_id": null,
         *         "law_type": "Act",
         *         "era": "Heisei",
         *         "year": "05",
         *         "promulgation_date": "1993-11-12",
         *         "chapters": [
         *           {
         *             "number": "1",
         *             "title": "第一章　総則",
         *             "sections": []
         *           }
         *         ],
         *         "articles": [
         *           {
         *             "number": "1",
         *             "title": "第一条",
         *             "caption": "（目的等）",
         *             "chapter": "1",
         *             "section": null,
         *             "paragraphs": [
         *               {
         *                 "number": "1",
         *                 "caption": null,
         *                 "text": "この法律は、処分、行政指導及び届出に関する手続並びに命令等を定める手続に関し、共通する事項を定めることによって、行政運営における公正の確保と透明性の向上を図り、もって国民の権利利益の保護に資することを目的とする。",
         *                 "items": []
         *               }
         *             ]
         *           }
         *         ],
         *         "paragraphs": [],
         *         "supplementary_provisions": [
         *           {
         *             "amend_law_number": null,
         *             "label": "附　則",
         *             "articles": [],
         *             "paragraphs": []
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "egov_laws",
         *       "page_type": "document",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://laws.e-gov.go.jp/api/1/lawdata/405AC0000000088",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "egov_laws/document",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResultDocument: {
            request_id: string;
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "document";
            cost_units: number;
            latency_ms: number;
            /** @description DocumentData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["DocumentData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A scrape answer; `page_type` says which variant, and so the shape of `data`.
         * @example {
         *       "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *       "resolved_site": "ikebe_gakki",
         *       "page_type": "item",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "ikebe_gakki/item",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *         "price": 12800,
         *         "currency": "JPY",
         *         "price_tax": "included",
         *         "price_excluding_tax": 11636,
         *         "points": 128,
         *         "points_rate": 1,
         *         "shipping": "free",
         *         "availability": "in_stock",
         *         "availability_text": "在庫あり",
         *         "brand": "ヤマハ",
         *         "shop": "イケベ楽器店",
         *         "jan": "4957812646284",
         *         "sku": "751203",
         *         "images": [
         *           "https://www.ikebe-gakki.com/images/item/751203_1.jpg"
         *         ],
         *         "canonical_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203"
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        ScrapeResult: components["schemas"]["ScrapeResultItem"] | components["schemas"]["ScrapeResultSearch"] | components["schemas"]["ScrapeResultRanking"] | components["schemas"]["ScrapeResultOffers"] | components["schemas"]["ScrapeResultForecast"] | components["schemas"]["ScrapeResultForecastOverview"] | components["schemas"]["ScrapeResultAreas"] | components["schemas"]["ScrapeResultTable"] | components["schemas"]["ScrapeResultMeta"] | components["schemas"]["ScrapeResultList"] | components["schemas"]["ScrapeResultHistory"] | components["schemas"]["ScrapeResultQuote"] | components["schemas"]["ScrapeResultRecord"] | components["schemas"]["ScrapeResultRecords"] | components["schemas"]["ScrapeResultDocument"];
        /**
         * @description The result of a batch item for a `item` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "ikebe_gakki",
         *       "page_type": "item",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "ikebe_gakki/item",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *         "price": 12800,
         *         "currency": "JPY",
         *         "price_tax": "included",
         *         "price_excluding_tax": 11636,
         *         "points": 128,
         *         "points_rate": 1,
         *         "shipping": "free",
         *         "availability": "in_stock",
         *         "availability_text": "在庫あり",
         *         "brand": "ヤマハ",
         *         "shop": "イケベ楽器店",
         *         "jan": "4957812646284",
         *         "sku": "751203",
         *         "images": [
         *           "https://www.ikebe-gakki.com/images/item/751203_1.jpg"
         *         ],
         *         "canonical_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203"
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "ikebe_gakki",
         *       "page_type": "item",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 404,
         *         "final_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "ikebe_gakki/item",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultItem: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "item";
            cost_units: number;
            latency_ms: number;
            /** @description ItemData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ItemData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `search` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "ikebe_gakki",
         *       "page_type": "search",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "ikebe_gakki/search",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "ヤマハ キーボード",
         *         "items": [
         *           {
         *             "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *             "price": 12800,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "availability": "in_stock"
         *           },
         *           {
         *             "title": "ヤマハ YAMAHA PSR-E383 ポータブルキーボード 61鍵",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/748810",
         *             "price": 24200,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "points": 242,
         *             "availability": "out_of_stock",
         *             "availability_text": "お取り寄せ"
         *           }
         *         ],
         *         "next_page": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F&page=2",
         *         "total": 245,
         *         "page": 1
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "ikebe_gakki",
         *       "page_type": "search",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 404,
         *         "final_url": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "ikebe_gakki/search",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultSearch: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "search";
            cost_units: number;
            latency_ms: number;
            /** @description ListData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ListData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `ranking` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "rakuten_webservice",
         *       "page_type": "ranking",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://app.rakuten.co.jp/services/api/IchibaItem/Ranking/20220601?genreId=112493",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "rakuten_webservice/ranking",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "ヤマハ キーボード",
         *         "items": [
         *           {
         *             "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *             "price": 12800,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "availability": "in_stock"
         *           },
         *           {
         *             "title": "ヤマハ YAMAHA PSR-E383 ポータブルキーボード 61鍵",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/748810",
         *             "price": 24200,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "points": 242,
         *             "availability": "out_of_stock",
         *             "availability_text": "お取り寄せ"
         *           }
         *         ],
         *         "next_page": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F&page=2",
         *         "total": 245,
         *         "page": 1
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "rakuten_webservice",
         *       "page_type": "ranking",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://app.rakuten.co.jp/services/api/IchibaItem/Ranking/20220601?genreId=112493",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "rakuten_webservice/ranking",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultRanking: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "ranking";
            cost_units: number;
            latency_ms: number;
            /** @description ListData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ListData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `offers` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "surugaya",
         *       "page_type": "offers",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://www.suruga-ya.jp/product/other/128005541",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "surugaya/offers",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "ヤマハ キーボード",
         *         "items": [
         *           {
         *             "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *             "price": 12800,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "availability": "in_stock"
         *           },
         *           {
         *             "title": "ヤマハ YAMAHA PSR-E383 ポータブルキーボード 61鍵",
         *             "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/748810",
         *             "price": 24200,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "points": 242,
         *             "availability": "out_of_stock",
         *             "availability_text": "お取り寄せ"
         *           }
         *         ],
         *         "next_page": "https://www.ikebe-gakki.com/p/search?keyword=%E3%83%A4%E3%83%9E%E3%83%8F&page=2",
         *         "total": 245,
         *         "page": 1
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "surugaya",
         *       "page_type": "offers",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 404,
         *         "final_url": "https://www.suruga-ya.jp/product/other/128005541",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "surugaya/offers",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultOffers: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "offers";
            cost_units: number;
            latency_ms: number;
            /** @description ListData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ListData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `forecast` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "jma_forecast",
         *       "page_type": "forecast",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://www.jma.go.jp/bosai/forecast/data/forecast/130000.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/forecast",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "publishing_office": "気象庁",
         *         "report_datetime": "2026-11-28T11:00:00+09:00",
         *         "short_term": {
         *           "report_datetime": "2026-11-28T11:00:00+09:00",
         *           "areas": [
         *             {
         *               "code": "130010",
         *               "name": "東京地方",
         *               "weathers": [
         *                 {
         *                   "time": "2026-11-28T11:00:00+09:00",
         *                   "weather_code": "101",
         *                   "weather": "晴れ　時々　くもり",
         *                   "wind": "北の風",
         *                   "wave": "０．５メートル"
         *                 }
         *               ],
         *               "pops": [
         *                 {
         *                   "time": "2026-11-28T12:00:00+09:00",
         *                   "pop": 10
         *                 }
         *               ]
         *             }
         *           ],
         *           "temperature_points": [
         *             {
         *               "code": "44132",
         *               "name": "東京",
         *               "temps": [
         *                 {
         *                   "time": "2026-11-28T09:00:00+09:00",
         *                   "temp": 15
         *                 }
         *               ]
         *             }
         *           ]
         *         },
         *         "weekly": {
         *           "report_datetime": "2026-11-28T11:00:00+09:00",
         *           "areas": [
         *             {
         *               "code": "130010",
         *               "name": "東京地方",
         *               "days": [
         *                 {
         *                   "time": "2026-11-29T00:00:00+09:00",
         *                   "weather_code": "201",
         *                   "pop": 20,
         *                   "reliability": "A"
         *                 }
         *               ]
         *             }
         *           ],
         *           "temperature_points": [
         *             {
         *               "code": "44132",
         *               "name": "東京",
         *               "days": [
         *                 {
         *                   "time": "2026-11-29T00:00:00+09:00",
         *                   "min": 8,
         *                   "min_upper": 9,
         *                   "min_lower": 6,
         *                   "max": 16,
         *                   "max_upper": 18,
         *                   "max_lower": 14
         *                 }
         *               ]
         *             }
         *           ],
         *           "temp_average": [
         *             {
         *               "code": "44132",
         *               "name": "東京",
         *               "min": 7.4,
         *               "max": 15.8
         *             }
         *           ],
         *           "precip_average": [
         *             {
         *               "code": "44132",
         *               "name": "東京",
         *               "min": 1,
         *               "max": 12
         *             }
         *           ]
         *         }
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "jma_forecast",
         *       "page_type": "forecast",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://www.jma.go.jp/bosai/forecast/data/forecast/130000.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/forecast",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultForecast: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "forecast";
            cost_units: number;
            latency_ms: number;
            /** @description ForecastData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ForecastData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `forecast_overview` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "jma_forecast",
         *       "page_type": "forecast_overview",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://www.jma.go.jp/bosai/forecast/data/overview_forecast/130000.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/forecast_overview",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "publishing_office": "気象庁",
         *         "report_datetime": "2026-11-28T10:37:00+09:00",
         *         "target_area": "東京都",
         *         "headline": null,
         *         "text": "日本付近は高気圧に覆われています。東京地方は、晴れや曇りとなっています。"
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "jma_forecast",
         *       "page_type": "forecast_overview",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://www.jma.go.jp/bosai/forecast/data/overview_forecast/130000.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/forecast_overview",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultForecastOverview: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "forecast_overview";
            cost_units: number;
            latency_ms: number;
            /** @description ForecastOverviewData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["ForecastOverviewData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `areas` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "jma_forecast",
         *       "page_type": "areas",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://www.jma.go.jp/bosai/common/const/area.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/areas",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "centers": [
         *           {
         *             "code": "010300",
         *             "name": "関東甲信地方",
         *             "en_name": "Kanto Koshin",
         *             "office_name": "気象庁",
         *             "children": [
         *               "130000"
         *             ]
         *           }
         *         ],
         *         "offices": [
         *           {
         *             "code": "130000",
         *             "name": "東京都",
         *             "en_name": "Tokyo",
         *             "office_name": "気象庁",
         *             "parent": "010300",
         *             "children": [
         *               "130010"
         *             ]
         *           }
         *         ],
         *         "class10s": [
         *           {
         *             "code": "130010",
         *             "name": "東京地方",
         *             "en_name": "Tokyo",
         *             "parent": "130000",
         *             "children": [
         *               "131010"
         *             ]
         *           }
         *         ],
         *         "class15s": [
         *           {
         *             "code": "131010",
         *             "name": "２３区西部",
         *             "en_name": "Western 23 Wards",
         *             "parent": "130010",
         *             "children": []
         *           }
         *         ],
         *         "class20s": [
         *           {
         *             "code": "1310400",
         *             "name": "新宿区",
         *             "en_name": "Shinjuku City",
         *             "kana": "しんじゅくく",
         *             "parent": "131010"
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "jma_forecast",
         *       "page_type": "areas",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://www.jma.go.jp/bosai/common/const/area.json",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "jma_forecast/areas",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultAreas: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "areas";
            cost_units: number;
            latency_ms: number;
            /** @description AreasData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["AreasData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `table` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "estat_api",
         *       "page_type": "table",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?statsDataId=0003448237",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/table",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "男女別人口－総人口，日本人人口(2020年10月～2021年3月)",
         *         "table_id": "0003448237",
         *         "title_no": "001",
         *         "stat_name": "人口推計",
         *         "stat_code": "00200524",
         *         "gov_org": "総務省",
         *         "statistics_name": "人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月",
         *         "survey_date": "202010-202103",
         *         "survey_period": {
         *           "start": "2020-10",
         *           "end": "2021-03"
         *         },
         *         "open_date": "2021-03-22",
         *         "updated_date": "2021-03-22",
         *         "total_number": 2,
         *         "from_number": 1,
         *         "to_number": 2,
         *         "next_key": null,
         *         "classes": [
         *           {
         *             "id": "cat01",
         *             "name": "男女別",
         *             "items": [
         *               {
         *                 "code": "000",
         *                 "name": "男女計",
         *                 "level": 1,
         *                 "parent_code": null,
         *                 "unit": "千人"
         *               }
         *             ]
         *           },
         *           {
         *             "id": "time",
         *             "name": "時間軸（月）",
         *             "items": [
         *               {
         *                 "code": "2020001010",
         *                 "name": "2020年10月",
         *                 "level": 1,
         *                 "parent_code": null,
         *                 "unit": null
         *               },
         *               {
         *                 "code": "2020001111",
         *                 "name": "2020年11月",
         *                 "level": 1,
         *                 "parent_code": null,
         *                 "unit": null
         *               }
         *             ]
         *           }
         *         ],
         *         "notes": [
         *           {
         *             "mark": "…",
         *             "meaning": "数値が得られないもの"
         *           }
         *         ],
         *         "rows": [
         *           {
         *             "classes": {
         *               "cat01": "000",
         *               "time": "2020001010"
         *             },
         *             "value": 126146,
         *             "raw": "126146",
         *             "unit": "千人"
         *           },
         *           {
         *             "classes": {
         *               "cat01": "000",
         *               "time": "2020001111"
         *             },
         *             "value": null,
         *             "reason": "unavailable",
         *             "raw": "…",
         *             "unit": "千人"
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "estat_api",
         *       "page_type": "table",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?statsDataId=0003448237",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/table",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "7203 トヨタ自動車 時系列株価",
         *         "subject": "7203 トヨタ自動車(株)",
         *         "columns": [
         *           {
         *             "key": "date",
         *             "label": "日付",
         *             "type": "date",
         *             "unit": null
         *           },
         *           {
         *             "key": "open",
         *             "label": "始値",
         *             "type": "number",
         *             "unit": "円"
         *           },
         *           {
         *             "key": "close",
         *             "label": "終値",
         *             "type": "number",
         *             "unit": "円"
         *           },
         *           {
         *             "key": "volume",
         *             "label": "売買高",
         *             "type": "number",
         *             "unit": "株"
         *           }
         *         ],
         *         "rows": [
         *           {
         *             "date": "2026-11-27",
         *             "open": 2862,
         *             "close": 2891.5,
         *             "volume": 21884300
         *           },
         *           {
         *             "date": "2026-11-26",
         *             "open": 2840,
         *             "close": 2855,
         *             "volume": 19702100
         *           }
         *         ],
         *         "next_page": "https://kabutan.jp/stock/kabuka?code=7203&ashi=day&page=2",
         *         "page": 1
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "estat_api",
         *       "page_type": "table",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?statsDataId=0003448237",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/table",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultTable: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "table";
            cost_units: number;
            latency_ms: number;
            /** @description StatsTableData or DataTableData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["StatsTableData"] | components["schemas"]["DataTableData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `meta` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "estat_api",
         *       "page_type": "meta",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getMetaInfo?statsDataId=0003448237",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/meta",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "table_id": "0003448237",
         *         "title": "男女別人口－総人口，日本人人口(2020年10月～2021年3月)",
         *         "title_no": "001",
         *         "stat_name": "人口推計",
         *         "stat_code": "00200524",
         *         "gov_org": "総務省",
         *         "statistics_name": "人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月",
         *         "cycle": "月次",
         *         "survey_date": "202010-202103",
         *         "survey_period": {
         *           "start": "2020-10",
         *           "end": "2021-03"
         *         },
         *         "open_date": "2021-03-22",
         *         "updated_date": "2021-03-22",
         *         "small_area": 0,
         *         "collect_area": "該当なし",
         *         "main_category": {
         *           "code": "02",
         *           "name": "人口・世帯"
         *         },
         *         "sub_category": {
         *           "code": "01",
         *           "name": "人口"
         *         },
         *         "overall_total_number": 24,
         *         "classes": [
         *           {
         *             "id": "cat01",
         *             "name": "男女別",
         *             "items": [
         *               {
         *                 "code": "000",
         *                 "name": "男女計",
         *                 "level": 1,
         *                 "parent_code": null,
         *                 "unit": "千人"
         *               },
         *               {
         *                 "code": "001",
         *                 "name": "男",
         *                 "level": 1,
         *                 "parent_code": null,
         *                 "unit": "千人"
         *               }
         *             ]
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "estat_api",
         *       "page_type": "meta",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getMetaInfo?statsDataId=0003448237",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/meta",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultMeta: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "meta";
            cost_units: number;
            latency_ms: number;
            /** @description EstatMetaData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["EstatMetaData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `list` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "estat_api",
         *       "page_type": "list",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getStatsList?statsCode=00200524",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/list",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "total_number": 1,
         *         "from_number": 1,
         *         "to_number": 1,
         *         "next_key": null,
         *         "tables": [
         *           {
         *             "table_id": "0003448237",
         *             "title": "男女別人口－総人口，日本人人口(2020年10月～2021年3月)",
         *             "title_no": "001",
         *             "stat_name": "人口推計",
         *             "stat_code": "00200524",
         *             "gov_org": "総務省",
         *             "statistics_name": "人口推計 各月1日現在人口 月次 2020年10月 ～ 2021年3月",
         *             "cycle": "月次",
         *             "survey_date": "202010-202103",
         *             "survey_period": {
         *               "start": "2020-10",
         *               "end": "2021-03"
         *             },
         *             "open_date": "2021-03-22",
         *             "updated_date": "2021-03-22",
         *             "small_area": 0,
         *             "collect_area": "該当なし",
         *             "main_category": {
         *               "code": "02",
         *               "name": "人口・世帯"
         *             },
         *             "sub_category": {
         *               "code": "01",
         *               "name": "人口"
         *             },
         *             "overall_total_number": 24
         *           }
         *         ],
         *         "statistics": [
         *           {
         *             "stat_code": "00200524",
         *             "stat_name": "人口推計",
         *             "gov_org": "総務省",
         *             "gov_org_code": "00200"
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "estat_api",
         *       "page_type": "list",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://api.e-stat.go.jp/rest/3.0/app/json/getStatsList?statsCode=00200524",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "estat_api/list",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultList: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "list";
            cost_units: number;
            latency_ms: number;
            /** @description StatsListData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["StatsListData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `history` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "kabutan",
         *       "page_type": "history",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://kabutan.jp/stock/kabuka?code=7203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "kabutan/history",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "7203 トヨタ自動車 時系列株価",
         *         "subject": "7203 トヨタ自動車(株)",
         *         "columns": [
         *           {
         *             "key": "date",
         *             "label": "日付",
         *             "type": "date",
         *             "unit": null
         *           },
         *           {
         *             "key": "open",
         *             "label": "始値",
         *             "type": "number",
         *             "unit": "円"
         *           },
         *           {
         *             "key": "close",
         *             "label": "終値",
         *             "type": "number",
         *             "unit": "円"
         *           },
         *           {
         *             "key": "volume",
         *             "label": "売買高",
         *             "type": "number",
         *             "unit": "株"
         *           }
         *         ],
         *         "rows": [
         *           {
         *             "date": "2026-11-27",
         *             "open": 2862,
         *             "close": 2891.5,
         *             "volume": 21884300
         *           },
         *           {
         *             "date": "2026-11-26",
         *             "open": 2840,
         *             "close": 2855,
         *             "volume": 19702100
         *           }
         *         ],
         *         "next_page": "https://kabutan.jp/stock/kabuka?code=7203&ashi=day&page=2",
         *         "page": 1
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "kabutan",
         *       "page_type": "history",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 404,
         *         "final_url": "https://kabutan.jp/stock/kabuka?code=7203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "kabutan/history",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultHistory: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "history";
            cost_units: number;
            latency_ms: number;
            /** @description DataTableData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["DataTableData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `quote` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "kabutan",
         *       "page_type": "quote",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://kabutan.jp/stock/?code=7203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "kabutan/quote",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "code": "7203",
         *         "name": "トヨタ自動車",
         *         "market": "東証Ｐ",
         *         "price": 2891.5,
         *         "price_text": "2,891.5円",
         *         "currency": "JPY",
         *         "as_of": "2026-11-27T15:30:00+09:00",
         *         "as_of_text": "11/27 15:30",
         *         "metrics": [
         *           {
         *             "key": "per",
         *             "label": "PER",
         *             "value": 9.8,
         *             "unit": "倍",
         *             "raw": "9.8倍"
         *           },
         *           {
         *             "key": "dividend_yield",
         *             "label": "利回り",
         *             "value": 3.11,
         *             "unit": "%",
         *             "raw": "3.11％"
         *           },
         *           {
         *             "key": "market_cap",
         *             "label": "時価総額",
         *             "value": 47140000000000,
         *             "unit": "円",
         *             "raw": "47兆1,400億円"
         *           }
         *         ],
         *         "industry": "輸送用機器"
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "kabutan",
         *       "page_type": "quote",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 404,
         *         "final_url": "https://kabutan.jp/stock/?code=7203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "kabutan/quote",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultQuote: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "quote";
            cost_units: number;
            latency_ms: number;
            /** @description QuoteData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["QuoteData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `record` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "houjin_bangou",
         *       "page_type": "record",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.houjin-bangou.nta.go.jp/4/num?number=1180301018771&type=12",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "houjin_bangou/record",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "last_updated": "2026-11-27",
         *         "total": 1,
         *         "part": 1,
         *         "parts": 1,
         *         "corporations": [
         *           {
         *             "sequence_number": 1,
         *             "corporate_number": "1180301018771",
         *             "process": "01",
         *             "process_name": "新規",
         *             "correction": false,
         *             "latest": true,
         *             "name": "トヨタ自動車株式会社",
         *             "furigana": "トヨタジドウシャ",
         *             "en_name": "TOYOTA MOTOR CORPORATION",
         *             "kind": "301",
         *             "kind_name": "株式会社",
         *             "prefecture": "愛知県",
         *             "city": "豊田市",
         *             "street": "トヨタ町１番地",
         *             "prefecture_code": "23",
         *             "city_code": "211",
         *             "post_code": "4718571",
         *             "address_outside": null,
         *             "update_date": "2024-04-01",
         *             "change_date": "2015-10-05",
         *             "assignment_date": "2015-10-05",
         *             "close_date": null,
         *             "close_cause": null,
         *             "close_cause_name": null,
         *             "successor_corporate_number": null,
         *             "change_cause": null,
         *             "hidden": false
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "houjin_bangou",
         *       "page_type": "record",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://api.houjin-bangou.nta.go.jp/4/num?number=1180301018771&type=12",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "houjin_bangou/record",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultRecord: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "record";
            cost_units: number;
            latency_ms: number;
            /** @description CorporationRecordsData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["CorporationRecordsData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `records` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "houjin_bangou",
         *       "page_type": "records",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://api.houjin-bangou.nta.go.jp/4/name?name=%E3%83%88%E3%83%A8%E3%82%BF&type=12",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "houjin_bangou/records",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "last_updated": "2026-11-27",
         *         "total": 1,
         *         "part": 1,
         *         "parts": 1,
         *         "corporations": [
         *           {
         *             "sequence_number": 1,
         *             "corporate_number": "1180301018771",
         *             "process": "01",
         *             "process_name": "新規",
         *             "correction": false,
         *             "latest": true,
         *             "name": "トヨタ自動車株式会社",
         *             "furigana": "トヨタジドウシャ",
         *             "en_name": "TOYOTA MOTOR CORPORATION",
         *             "kind": "301",
         *             "kind_name": "株式会社",
         *             "prefecture": "愛知県",
         *             "city": "豊田市",
         *             "street": "トヨタ町１番地",
         *             "prefecture_code": "23",
         *             "city_code": "211",
         *             "post_code": "4718571",
         *             "address_outside": null,
         *             "update_date": "2024-04-01",
         *             "change_date": "2015-10-05",
         *             "assignment_date": "2015-10-05",
         *             "close_date": null,
         *             "close_cause": null,
         *             "close_cause_name": null,
         *             "successor_corporate_number": null,
         *             "change_cause": null,
         *             "hidden": false
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "houjin_bangou",
         *       "page_type": "records",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://api.houjin-bangou.nta.go.jp/4/name?name=%E3%83%88%E3%83%A8%E3%82%BF&type=12",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "houjin_bangou/records",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultRecords: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "records";
            cost_units: number;
            latency_ms: number;
            /** @description CorporationRecordsData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["CorporationRecordsData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description The result of a batch item for a `document` page: its scrape answer without request_id.
         * @example {
         *       "resolved_site": "egov_laws",
         *       "page_type": "document",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 200,
         *         "final_url": "https://laws.e-gov.go.jp/api/1/lawdata/405AC0000000088",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "egov_laws/document",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "行政手続法",
         *         "law_number": "平成五年法律第八十八号",
         *         "law_id": "405AC0000000088",
         *         "law_revision_id": null,
         *         "law_type": "Act",
         *         "era": "Heisei",
         *         "year": "05",
         *         "promulgation_date": "1993-11-12",
         *         "chapters": [
         *           {
         *             "number": "1",
         *             "title": "第一章　総則",
         *             "sections": []
         *           }
         *         ],
         *         "articles": [
         *           {
         *             "number": "1",
         *             "title": "第一条",
         *             "caption": "（目的等）",
         *             "chapter": "1",
         *             "section": null,
         *             "paragraphs": [
         *               {
         *                 "number": "1",
         *                 "caption": null,
         *                 "text": "この法律は、処分、行政指導及び届出に関する手続並びに命令等を定める手続に関し、共通する事項を定めることによって、行政運営における公正の確保と透明性の向上を図り、もって国民の権利利益の保護に資することを目的とする。",
         *                 "items": []
         *               }
         *             ]
         *           }
         *         ],
         *         "paragraphs": [],
         *         "supplementary_provisions": [
         *           {
         *             "amend_law_number": null,
         *             "label": "附　則",
         *             "articles": [],
         *             "paragraphs": []
         *           }
         *         ]
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         * @example {
         *       "resolved_site": "egov_laws",
         *       "page_type": "document",
         *       "fetch_summary": {
         *         "status": "not_found",
         *         "attempts": 1,
         *         "route": "api",
         *         "http_status": 404,
         *         "final_url": "https://laws.e-gov.go.jp/api/1/lawdata/405AC0000000088",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 0,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "egov_laws/document",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": null,
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResultDocument: {
            resolved_site: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            page_type: "document";
            cost_units: number;
            latency_ms: number;
            /** @description DocumentData. Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
            data: components["schemas"]["DocumentData"] | null;
            html?: string;
            warnings: string[];
            fetch_summary: components["schemas"]["FetchSummary"];
            extractor: components["schemas"]["Extractor"];
            cache: components["schemas"]["CacheState"];
            artifact?: components["schemas"]["StoredArtifact"];
        };
        /**
         * @description A batch item's result: POST /v1/scrape's answer without request_id; `page_type` says the shape of `data`.
         * @example {
         *       "resolved_site": "ikebe_gakki",
         *       "page_type": "item",
         *       "fetch_summary": {
         *         "status": "completed",
         *         "attempts": 1,
         *         "route": "http",
         *         "http_status": 200,
         *         "final_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *         "charset": "utf-8",
         *         "bytes": 366969,
         *         "elapsed_ms": 412
         *       },
         *       "cost_units": 1,
         *       "latency_ms": 431,
         *       "extractor": {
         *         "id": "ikebe_gakki/item",
         *         "version": 3,
         *         "coverage": "stable",
         *         "provenance": {
         *           "title": "html",
         *           "price": "html",
         *           "points": "html",
         *           "brand": "json_ld"
         *         }
         *       },
         *       "data": {
         *         "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *         "price": 12800,
         *         "currency": "JPY",
         *         "price_tax": "included",
         *         "price_excluding_tax": 11636,
         *         "points": 128,
         *         "points_rate": 1,
         *         "shipping": "free",
         *         "availability": "in_stock",
         *         "availability_text": "在庫あり",
         *         "brand": "ヤマハ",
         *         "shop": "イケベ楽器店",
         *         "jan": "4957812646284",
         *         "sku": "751203",
         *         "images": [
         *           "https://www.ikebe-gakki.com/images/item/751203_1.jpg"
         *         ],
         *         "canonical_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203"
         *       },
         *       "cache": {
         *         "state": "miss",
         *         "fetched_at": "2026-11-28T03:41:12.208Z",
         *         "age_s": 0
         *       },
         *       "warnings": []
         *     }
         */
        BatchResult: components["schemas"]["BatchResultItem"] | components["schemas"]["BatchResultSearch"] | components["schemas"]["BatchResultRanking"] | components["schemas"]["BatchResultOffers"] | components["schemas"]["BatchResultForecast"] | components["schemas"]["BatchResultForecastOverview"] | components["schemas"]["BatchResultAreas"] | components["schemas"]["BatchResultTable"] | components["schemas"]["BatchResultMeta"] | components["schemas"]["BatchResultList"] | components["schemas"]["BatchResultHistory"] | components["schemas"]["BatchResultQuote"] | components["schemas"]["BatchResultRecord"] | components["schemas"]["BatchResultRecords"] | components["schemas"]["BatchResultDocument"];
        /**
         * @description An item’s result is ready: `result` (full) or `result_url` (thin), never both.
         * @example {
         *       "type": "item.succeeded",
         *       "timestamp": "2026-11-28T12:41:14.120+09:00",
         *       "data": {
         *         "batch_id": "bat_01JDQ9A2B4C6D8E0F2G4H6J8K0",
         *         "item_id": "itm_01JDQ9A3C5E7G9J1K3M5P7R9T1",
         *         "index": 0,
         *         "ref": "PSS-A50 ブラック",
         *         "sequence": 3,
         *         "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *         "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *         "cost_units": 1,
         *         "attempts": 1,
         *         "result": {
         *           "resolved_site": "ikebe_gakki",
         *           "page_type": "item",
         *           "fetch_summary": {
         *             "status": "completed",
         *             "attempts": 1,
         *             "route": "http",
         *             "http_status": 200,
         *             "final_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *             "charset": "utf-8",
         *             "bytes": 366969,
         *             "elapsed_ms": 412
         *           },
         *           "cost_units": 1,
         *           "latency_ms": 431,
         *           "extractor": {
         *             "id": "ikebe_gakki/item",
         *             "version": 3,
         *             "coverage": "stable",
         *             "provenance": {
         *               "title": "html",
         *               "price": "html",
         *               "points": "html",
         *               "brand": "json_ld"
         *             }
         *           },
         *           "data": {
         *             "title": "ヤマハ YAMAHA PSS-A50 ミニキーボード 37鍵 ブラック",
         *             "price": 12800,
         *             "currency": "JPY",
         *             "price_tax": "included",
         *             "price_excluding_tax": 11636,
         *             "points": 128,
         *             "points_rate": 1,
         *             "shipping": "free",
         *             "availability": "in_stock",
         *             "availability_text": "在庫あり",
         *             "brand": "ヤマハ",
         *             "shop": "イケベ楽器店",
         *             "jan": "4957812646284",
         *             "sku": "751203",
         *             "images": [
         *               "https://www.ikebe-gakki.com/images/item/751203_1.jpg"
         *             ],
         *             "canonical_url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203"
         *           },
         *           "cache": {
         *             "state": "bypass",
         *             "fetched_at": "2026-11-28T03:41:12.208Z",
         *             "age_s": 0
         *           },
         *           "warnings": []
         *         }
         *       }
         *     }
         */
        BatchItemSucceededEvent: {
            /** @constant */
            type: "item.succeeded";
            /**
             * Format: date-time
             * @description When the event happened: ISO 8601 in Japan time, with its +09:00 offset.
             */
            timestamp: string;
            data: {
                /** @description `bat_…` */
                batch_id: string;
                /** @description `itm_…` */
                item_id: string;
                /** @description The item’s position in the submission. */
                index: number;
                ref: string | null;
                /** @description Per batch, in the order the events were written. */
                sequence: number;
                /** @description The item’s URL, credentials removed. */
                url: string;
                request_id: string | null;
                cost_units: number;
                attempts: number;
                /** @description A full delivery: POST /v1/scrape’s 200 without request_id. A 2xx to it is the handover. */
                result?: components["schemas"]["BatchResult"];
                /** @description A thin delivery: where to GET the result instead (the first GET that returns it hands over). */
                result_url?: string;
            };
        };
        /**
         * @description An item ended without a result: failed, the page was gone (not_found), or skipped (credits).
         * @example {
         *       "type": "item.failed",
         *       "timestamp": "2026-11-28T12:41:19.004+09:00",
         *       "data": {
         *         "batch_id": "bat_01JDQ9A2B4C6D8E0F2G4H6J8K0",
         *         "item_id": "itm_01JDQ9A3C5E7G9J1K3M5P7R9T2",
         *         "index": 1,
         *         "ref": "PSR-E383",
         *         "sequence": 4,
         *         "url": "https://kakaku.com/item/K0001234567/",
         *         "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *         "cost_units": 0,
         *         "attempts": 3,
         *         "error": {
         *           "code": "fetch_timeout",
         *           "status": 504,
         *           "retryable": true
         *         }
         *       }
         *     }
         */
        BatchItemEndedEvent: {
            type: "item.failed" | "item.not_found" | "item.skipped";
            /**
             * Format: date-time
             * @description When the event happened: ISO 8601 in Japan time, with its +09:00 offset.
             */
            timestamp: string;
            data: {
                /** @description `bat_…` */
                batch_id: string;
                /** @description `itm_…` */
                item_id: string;
                /** @description The item’s position in the submission. */
                index: number;
                ref: string | null;
                /** @description Per batch, in the order the events were written. */
                sequence: number;
                /** @description The item’s URL, credentials removed. */
                url: string;
                request_id: string | null;
                cost_units: number;
                attempts: number;
                error?: {
                    /** @description A code of the error catalogue (docs/errors.md), e.g. `fetch_failed`. */
                    code: string;
                    /** @description The HTTP status a call would have answered. */
                    status: number;
                    retryable: boolean;
                };
            };
        };
        /**
         * @description A batch is over: every item ended (completed) or it was cancelled.
         * @example {
         *       "type": "batch.completed",
         *       "timestamp": "2026-11-28T12:41:20.310+09:00",
         *       "data": {
         *         "batch_id": "bat_01JDQ9A2B4C6D8E0F2G4H6J8K0",
         *         "status": "completed",
         *         "sequence": 6,
         *         "counts": {
         *           "total": 3,
         *           "queued": 0,
         *           "running": 0,
         *           "ready": 0,
         *           "delivered": 2,
         *           "failed": 1,
         *           "not_found": 0,
         *           "skipped": 0,
         *           "cancelled": 0,
         *           "expired": 0
         *         },
         *         "credits": {
         *           "charged": 2,
         *           "held": 0,
         *           "max": 100
         *         }
         *       }
         *     }
         */
        BatchEndedEvent: {
            type: "batch.completed" | "batch.cancelled";
            /**
             * Format: date-time
             * @description When the event happened: ISO 8601 in Japan time, with its +09:00 offset.
             */
            timestamp: string;
            data: {
                /** @description `bat_…` */
                batch_id: string;
                status: string | null;
                sequence: number;
                counts: {
                    total: number;
                    queued: number;
                    running: number;
                    ready: number;
                    delivered: number;
                    failed: number;
                    not_found: number;
                    skipped: number;
                    cancelled: number;
                    expired: number;
                } | null;
                credits: {
                    charged: number;
                    held: number;
                    max: number | null;
                } | null;
            };
        };
        /**
         * @description A watched value changed (or a rule fired) between two consecutive good checks.
         * @example {
         *       "type": "monitor.alert",
         *       "timestamp": "2026-11-28T03:41:12.208Z",
         *       "data": {
         *         "monitor_id": "mon_01JDQB3D5F7H9K1M3P5R7T9V1X",
         *         "monitor_name": "ヤマハ キーボード 価格",
         *         "target_id": "tgt_01JDQB3D5F7H9K1M3P5R7T9V1Y",
         *         "ref": "PSS-A50",
         *         "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *         "site": "ikebe_gakki",
         *         "check_id": "chk_01JDQB5F7H9K1M3P5R7T9V1X3Z",
         *         "observed_at": "2026-11-28T03:41:11.902Z",
         *         "previous_at": "2026-11-28T02:41:10.511Z",
         *         "rules_hit": [
         *           "price-drop"
         *         ],
         *         "changes": [
         *           {
         *             "field": "price",
         *             "before": 12800,
         *             "after": 11800,
         *             "delta": -1000,
         *             "delta_pct": -7.81
         *           }
         *         ],
         *         "current": {
         *           "price": 11800,
         *           "price_tax": "included",
         *           "points": 118,
         *           "shipping": "free",
         *           "availability": "in_stock"
         *         },
         *         "request_id": "req_01JDQ8Z6K9V3T7M2N4P5R8S1W0",
         *         "cost_units": 1
         *       }
         *     }
         */
        MonitorAlertEvent: {
            /** @constant */
            type: "monitor.alert";
            /**
             * Format: date-time
             * @description When the event happened: ISO 8601, UTC.
             */
            timestamp: string;
            data: {
                /** @description `mon_…` */
                monitor_id: string;
                monitor_name: string | null;
                /** @description `tgt_…` */
                target_id: string;
                ref: string | null;
                /** @description The page watched, credentials removed. */
                url: string;
                /** @description The site id, e.g. `rakuten_ichiba`. */
                site: string;
                /** @description `chk_…` */
                check_id: string;
                observed_at: string;
                previous_at: string | null;
                /** @description The ids of the rules that fired (empty: any change). */
                rules_hit: string[];
                changes: {
                    /** @description An item field a monitor can watch, or effective_price (price − points + shipping fee). */
                    field: "price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price";
                    before: number | string | boolean | null;
                    after: number | string | boolean | null;
                    /** @description after − before (yen for yen fields). */
                    delta?: number;
                    /** @description delta in percent of before, two decimals. */
                    delta_pct?: number;
                }[];
                /** @description Watched fields and their values (integer yen for prices). */
                current: {
                    [key: string]: number | string | boolean | null;
                };
                request_id: string | null;
                cost_units: number;
            };
        };
        /**
         * @description A target failed `failures.alert_after` checks in a row (once per run of failures; free checks).
         * @example {
         *       "type": "monitor.check.failed",
         *       "timestamp": "2026-11-28T03:41:12.208Z",
         *       "data": {
         *         "monitor_id": "mon_01JDQB3D5F7H9K1M3P5R7T9V1X",
         *         "monitor_name": "ヤマハ キーボード 価格",
         *         "target_id": "tgt_01JDQB3D5F7H9K1M3P5R7T9V1Y",
         *         "ref": "PSS-A50",
         *         "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *         "site": "ikebe_gakki",
         *         "failures_in_a_row": 3,
         *         "error": {
         *           "code": "fetch_failed",
         *           "status": 502
         *         },
         *         "observed_at": "2026-11-28T03:41:11.902Z"
         *       }
         *     }
         */
        MonitorCheckFailedEvent: {
            /** @constant */
            type: "monitor.check.failed";
            /**
             * Format: date-time
             * @description When the event happened: ISO 8601, UTC.
             */
            timestamp: string;
            data: {
                /** @description `mon_…` */
                monitor_id: string;
                monitor_name: string | null;
                /** @description `tgt_…` */
                target_id: string;
                ref: string | null;
                /** @description The page watched, credentials removed. */
                url: string;
                /** @description The site id, e.g. `rakuten_ichiba`. */
                site: string;
                failures_in_a_row: number;
                error: {
                    code: string;
                    status: number;
                };
                observed_at: string;
            };
        };
        /**
         * @description The page itself answered 404 or 410: the target is no longer checked.
         * @example {
         *       "type": "monitor.target.removed",
         *       "timestamp": "2026-11-28T03:41:12.208Z",
         *       "data": {
         *         "monitor_id": "mon_01JDQB3D5F7H9K1M3P5R7T9V1X",
         *         "monitor_name": "ヤマハ キーボード 価格",
         *         "target_id": "tgt_01JDQB3D5F7H9K1M3P5R7T9V1Y",
         *         "ref": "PSS-A50",
         *         "url": "https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/751203",
         *         "site": "ikebe_gakki",
         *         "status": 404,
         *         "observed_at": "2026-11-28T03:41:11.902Z"
         *       }
         *     }
         */
        MonitorTargetRemovedEvent: {
            /** @constant */
            type: "monitor.target.removed";
            /**
             * Format: date-time
             * @description When the event happened: ISO 8601, UTC.
             */
            timestamp: string;
            data: {
                /** @description `mon_…` */
                monitor_id: string;
                monitor_name: string | null;
                /** @description `tgt_…` */
                target_id: string;
                ref: string | null;
                /** @description The page watched, credentials removed. */
                url: string;
                /** @description The site id, e.g. `rakuten_ichiba`. */
                site: string;
                status: 404 | 410;
                observed_at: string;
            };
        };
        /**
         * @description The monitor paused itself rather than pass its max_credits_per_month.
         * @example {
         *       "type": "monitor.paused",
         *       "timestamp": "2026-11-28T03:41:12.208Z",
         *       "data": {
         *         "monitor_id": "mon_01JDQB3D5F7H9K1M3P5R7T9V1X",
         *         "monitor_name": "ヤマハ キーボード 価格",
         *         "reason": "max_credits_per_month",
         *         "credits_this_month": 300,
         *         "max_credits_per_month": 300,
         *         "at": "2026-11-28T03:41:12.208Z"
         *       }
         *     }
         */
        MonitorPausedEvent: {
            /** @constant */
            type: "monitor.paused";
            /**
             * Format: date-time
             * @description When the event happened: ISO 8601, UTC.
             */
            timestamp: string;
            data: {
                /** @description `mon_…` */
                monitor_id: string;
                monitor_name: string | null;
                /** @constant */
                reason: "max_credits_per_month";
                credits_this_month: number;
                max_credits_per_month: number;
                at: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description This request (`req_` + a sortable id); equal to `request_id` in the body. */
        "Request-Id": string;
        /** @description This month's credit limit: the tighter of the account's (plus overage cap) and the key's. */
        "X-Credits-Limit": number;
        /** @description Credits left this month. */
        "X-Credits-Remaining": number;
        /** @description The key's concurrency limit. */
        "X-Concurrency-Limit": number;
        /** @description Calls that may still start now (key and account). */
        "X-Concurrency-Remaining": number;
        /** @description draft-ietf-httpapi-ratelimit-headers: `"credits";q=<limit>;w=<seconds in this month>;kumo-unit="credits", "concurrency";q=<limit>;qu="concurrent-requests"` (docs/api.md). */
        "RateLimit-Policy": string;
        /** @description draft-ietf-httpapi-ratelimit-headers: `"credits";r=<left>;t=<seconds to the reset>, "concurrency";r=<left>`; `t` is left out when a shorter Retry-After is sent. */
        RateLimit: string;
        /** @description Seconds to wait before trying again. */
        "Retry-After": number;
        /** @description `Bearer realm="kumo"`. */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    scrape: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key and body within 24 h are charged at most once (docs/api.md, Idempotency-Key). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Absolute http(s) URL of a page on a supported site, at most 2,048 characters. */
                    url: string;
                    /** @description Optional, as is each field in it. */
                    params?: {
                        /**
                         * @description `html_json`: structured `data` (and `html` when include_html); `html`: normalized HTML only.
                         * @default html_json
                         */
                        mode?: "html_json" | "html";
                        /**
                         * @description `auto` (from the URL) or a page type the site declares (`item`, `table`, `forecast` …).
                         * @default auto
                         */
                        work_type?: string;
                        /**
                         * @description Also return the normalized HTML in `html`.
                         * @default false
                         */
                        include_html?: boolean;
                        /**
                         * @description Keep the normalized HTML and JSON as an artifact (+1 credit). Nothing is kept otherwise.
                         * @default false
                         */
                        store_artifact?: boolean;
                        /**
                         * @description Render the page in the headless browser (2 credits) where its page type offers the browser route (see `routes` in GET /v1/sites); a page type without one answers 422 page_not_supported. Absent or false: the page type's default route.
                         * @default false
                         */
                        render_js?: boolean;
                        /**
                         * @description Accept this account's own earlier result of the same call when it is at most this many seconds old (a hit costs 0 and never touches the site), and keep this call's result for later calls that ask; capped by the site's cache limit (`cache_limit_s` in GET /v1/sites). 0 or absent: nothing is read or kept (docs/cache.md).
                         * @default 0
                         */
                        max_age_s?: number;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScrapeResult"];
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: The request body is over the limit. (docs/errors.md) */
            413: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: The request body is not application/json. (docs/errors.md) */
            415: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_not_supported`: The host is not an enabled supported site. `page_not_supported`: Supported site, but no reviewed path for this page or work_type. `robots_disallowed`: The site's robots.txt forbids the path. `idempotency_conflict`: An Idempotency-Key was reused with another request body. `idempotency_key_spent`: This Idempotency-Key was already replayed as often as allowed; use a new key. `batch_limit_exceeded`: More items per batch, or longer retention, than the plan allows (items: Free 100, Starter 5,000, Growth 50,000). `monitor_limit_exceeded`: A monitor over the plan's limits (interval, targets, monitors, history) or its fair share of a host's capacity. (docs/errors.md) */
            422: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `destination_forbidden`: A supported host resolved or redirected to a non-public address. `fetch_failed`: The target could not be fetched after all attempts. `target_blocked`: The target refused us (403, CAPTCHA or block page) after all attempts. `content_too_large`: The target sent more than the body-size cap. `extraction_failed`: The reviewed extractor could not produce a valid result; nothing is served. `content_too_complex`: The page took more than the time or memory budget to parse and extract. `output_too_large`: The answer would be larger than the output byte cap; nothing is served. (docs/errors.md) */
            502: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `fetch_timeout`: The target did not answer within the deadline. (docs/errors.md) */
            504: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        account_id: string;
                        plan: string;
                        /** @description Asia/Tokyo calendar month, YYYY-MM. */
                        period: string;
                        resets_at: string;
                        credits: {
                            allowance: number;
                            overage_cap: number;
                            limit: number;
                            used: number;
                            reserved: number;
                            remaining: number;
                            overage_used: number;
                        };
                        key: {
                            key_id: string;
                            credit_limit: number | null;
                            used: number;
                            reserved: number;
                            remaining: number | null;
                            concurrency_limit: number;
                            concurrency_in_use: number;
                        };
                        concurrency: {
                            limit: number;
                            in_use: number;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        request_id: string;
                        key_id: string;
                        site: string | null;
                        page_type: string | null;
                        url: string | null;
                        status: string;
                        error_code: string | null;
                        attempts: number;
                        route: string | null;
                        cost_units: number;
                        latency_ms: number;
                        artifact_id: string | null;
                        created_at: string;
                        /** @description Where the answer came from (the `cache.state` it had); null when the call gave no answer. */
                        cache: "hit" | "miss" | "bypass" | null;
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSites: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        sites: {
                            id: string;
                            name: string;
                            kind: string;
                            hosts: string[];
                            /** @description How pages are fetched by default: the page over HTTP, in the headless browser, or (`api`) through the JSON API the site's own web app calls for that page URL. Each page type lists its own routes. */
                            route: "http" | "browser" | "api";
                            /** @description Credits per call on the default route without store_artifact. */
                            cost: number;
                            page_types: {
                                page_type: string;
                                /** @description The URL shape `auto` chooses this page type for, in words. */
                                url_pattern: string;
                                /** @description The level served: the declared one capped by the earned one. */
                                coverage: string;
                                /** @description The level the site definition claims. */
                                declared: string;
                                /** @description The level its fixtures earned in verification (DESIGN §6). */
                                earned: string;
                                extractor: string;
                                version: number;
                                verified_by: string;
                                /** @description null, or the page type is under review (personal data of private persons, or terms that restrict use): served only to accounts an operator approved for the site; others get 403 key_scope_denied. */
                                review: {
                                    /** @description Why the page type is under review. */
                                    reason: string;
                                } | null;
                                /** @description The golden fixtures behind the coverage level, by origin. */
                                fixtures: {
                                    /** @description Fixtures that are real pages (recorded from the site). */
                                    real: number;
                                    /** @description Fixtures written by us on the site's structure, or real bodies in a container we built (EDINET's ZIP). */
                                    modelled: number;
                                };
                                /** @description The oldest cached answer this page type is served from, whatever max_age_s asks (docs/cache.md). */
                                cache_limit_s: number;
                                /** @description Why: the site's terms, or how fast the page changes. */
                                cache_limit_reason: string;
                                /** @description The routes this page type offers, its default first; `browser` is chosen with render_js: true. */
                                routes: {
                                    route: "http" | "browser" | "api";
                                    /** @description The route used without render_js. */
                                    default: boolean;
                                    /** @description Credits per call on this route without store_artifact. */
                                    cost: number;
                                    /** @description The level this route is served at. */
                                    coverage: string;
                                    extractor: string;
                                    version: number;
                                    verified_by: string;
                                }[];
                            }[];
                        }[];
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        request_id: string;
                        url: string;
                        created_at: string;
                        expires_at: string;
                        /** @description The reviewed, normalized result. Its shape is chosen by `page_type`: item → ItemData, search, ranking and offers → ListData, forecast → ForecastData, forecast_overview → ForecastOverviewData, table → StatsTableData or DataTableData, meta → EstatMetaData, list → StatsListData, history → DataTableData, quote → QuoteData, record and records → CorporationRecordsData, document → DocumentData, areas → AreasData (docs/data-model.md). Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`). */
                        data: components["schemas"]["ItemData"] | components["schemas"]["ListData"] | components["schemas"]["ForecastData"] | components["schemas"]["ForecastOverviewData"] | components["schemas"]["StatsTableData"] | components["schemas"]["DataTableData"] | components["schemas"]["EstatMetaData"] | components["schemas"]["StatsListData"] | components["schemas"]["QuoteData"] | components["schemas"]["CorporationRecordsData"] | components["schemas"]["DocumentData"] | components["schemas"]["AreasData"] | null;
                        html: string | null;
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no content. */
            204: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteCache: {
        parameters: {
            query?: {
                /** @description Only the entries of this target URL (as it was asked); absent: every entry of the account. */
                url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        /** @description How many cached answers were deleted. */
                        deleted: number;
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_not_supported`: The host is not an enabled supported site. `page_not_supported`: Supported site, but no reviewed path for this page or work_type. `robots_disallowed`: The site's robots.txt forbids the path. `idempotency_conflict`: An Idempotency-Key was reused with another request body. `idempotency_key_spent`: This Idempotency-Key was already replayed as often as allowed; use a new key. `batch_limit_exceeded`: More items per batch, or longer retention, than the plan allows (items: Free 100, Starter 5,000, Growth 50,000). `monitor_limit_exceeded`: A monitor over the plan's limits (interval, targets, monitors, history) or its fair share of a host's capacity. (docs/errors.md) */
            422: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listBatches: {
        parameters: {
            query?: {
                /** @description 1–100; default 20. */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        /** @description Newest first. */
                        batches: {
                            /** @description `bat_…` */
                            id: string;
                            /** @description `completed` only once sealed and nothing is queued or running. */
                            status: "queued" | "running" | "completed" | "cancelling" | "cancelled";
                            sealed: boolean;
                            created_at: string;
                            finished_at: string | null;
                            /** @description Results not handed over by then expire (free). */
                            results_expire_at: string;
                            counts: {
                                total: number;
                                queued: number;
                                running: number;
                                ready: number;
                                delivered: number;
                                failed: number;
                                not_found: number;
                                skipped: number;
                                cancelled: number;
                                expired: number;
                            };
                            credits: {
                                charged: number;
                                /** @description Ready results awaiting handover. */
                                held: number;
                                /** @description max_credits, or null. */
                                max: number | null;
                            };
                            estimate: {
                                /** @description Every item charged at its route. */
                                cost_units_max: number;
                                /** @description From each host's politeness and its queue at the time. */
                                eta_s: number;
                            };
                            /** @description Items refused up front: on a submission or append, those of that request; else the submission’s. */
                            rejected: {
                                /** @description The item's index in the batch (its position among every item submitted). */
                                index: number;
                                /** @description The URL with credentials removed. */
                                url: string;
                                /** @description Why, as a call would be refused (docs/errors.md). */
                                code: string;
                            }[];
                            webhook: {
                                endpoint_id: string;
                                events: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                                payload: "full" | "thin";
                            } | null;
                            results: {
                                retain_hours: number | null;
                            };
                            links: {
                                self: string;
                                items: string;
                                events: string;
                            };
                        }[];
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body returns the batch it made (202, Idempotent-Replayed: true) and queues nothing; the same key with another body is a 422 idempotency_conflict. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1–1,000 items; a batch may grow by appends to the plan limit. */
                    items: {
                        /** @description Absolute http(s) URL of a page on a supported site. */
                        url: string;
                        /** @description Your own reference (printable text, Japanese included, ≤ 128 characters), echoed in the item and its events. */
                        ref?: string;
                        /** @description As for POST /v1/scrape, without store_artifact; each field optional. */
                        params?: {
                            /**
                             * @description `html_json`: structured `data` (and `html` when include_html); `html`: normalized HTML only.
                             * @default html_json
                             */
                            mode?: "html_json" | "html";
                            /**
                             * @description `auto` (from the URL) or a page type the site declares (`item`, `table`, `forecast` …).
                             * @default auto
                             */
                            work_type?: string;
                            /**
                             * @description Also return the normalized HTML in `html`.
                             * @default false
                             */
                            include_html?: boolean;
                            /**
                             * @description Render the page in the headless browser (2 credits) where its page type offers the browser route (see `routes` in GET /v1/sites); a page type without one answers 422 page_not_supported. Absent or false: the page type's default route.
                             * @default false
                             */
                            render_js?: boolean;
                        };
                    }[];
                    /** @description As for POST /v1/scrape, without store_artifact; each field optional. */
                    params?: {
                        /**
                         * @description `html_json`: structured `data` (and `html` when include_html); `html`: normalized HTML only.
                         * @default html_json
                         */
                        mode?: "html_json" | "html";
                        /**
                         * @description `auto` (from the URL) or a page type the site declares (`item`, `table`, `forecast` …).
                         * @default auto
                         */
                        work_type?: string;
                        /**
                         * @description Also return the normalized HTML in `html`.
                         * @default false
                         */
                        include_html?: boolean;
                        /**
                         * @description Render the page in the headless browser (2 credits) where its page type offers the browser route (see `routes` in GET /v1/sites); a page type without one answers 422 page_not_supported. Absent or false: the page type's default route.
                         * @default false
                         */
                        render_js?: boolean;
                    };
                    webhook?: {
                        /** @description A webhook endpoint of this account. */
                        endpoint_id: string;
                        /** @description The events delivered; default the endpoint's. */
                        events?: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                        /**
                         * @description `full`: item events carry the result; `thin`: ids only (fetch the result by GET, which charges).
                         * @default full
                         */
                        payload?: "full" | "thin";
                    };
                    results?: {
                        /** @description Keep results for polling this long after the batch was made (Free ≤ 24). Absent: 24 h, but with a webhook each result is deleted at its first handover. */
                        retain_hours?: number;
                    };
                    /** @description Items past this many credits charged or held are skipped, free. */
                    max_credits?: number;
                    /**
                     * @description false: more items may be appended (POST /v1/batches/{id}/items) until an append seals it.
                     * @default true
                     */
                    seal?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        batch: {
                            /** @description `bat_…` */
                            id: string;
                            /** @description `completed` only once sealed and nothing is queued or running. */
                            status: "queued" | "running" | "completed" | "cancelling" | "cancelled";
                            sealed: boolean;
                            created_at: string;
                            finished_at: string | null;
                            /** @description Results not handed over by then expire (free). */
                            results_expire_at: string;
                            counts: {
                                total: number;
                                queued: number;
                                running: number;
                                ready: number;
                                delivered: number;
                                failed: number;
                                not_found: number;
                                skipped: number;
                                cancelled: number;
                                expired: number;
                            };
                            credits: {
                                charged: number;
                                /** @description Ready results awaiting handover. */
                                held: number;
                                /** @description max_credits, or null. */
                                max: number | null;
                            };
                            estimate: {
                                /** @description Every item charged at its route. */
                                cost_units_max: number;
                                /** @description From each host's politeness and its queue at the time. */
                                eta_s: number;
                            };
                            /** @description Items refused up front: on a submission or append, those of that request; else the submission’s. */
                            rejected: {
                                /** @description The item's index in the batch (its position among every item submitted). */
                                index: number;
                                /** @description The URL with credentials removed. */
                                url: string;
                                /** @description Why, as a call would be refused (docs/errors.md). */
                                code: string;
                            }[];
                            webhook: {
                                endpoint_id: string;
                                events: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                                payload: "full" | "thin";
                            } | null;
                            results: {
                                retain_hours: number | null;
                            };
                            links: {
                                self: string;
                                items: string;
                                events: string;
                            };
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_in_use`: A call with this Idempotency-Key is still in flight; retry after Retry-After. `batch_sealed`: The batch is sealed (or cancelled): no items can be appended to it. (docs/errors.md) */
            409: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: The request body is over the limit. (docs/errors.md) */
            413: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: The request body is not application/json. (docs/errors.md) */
            415: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_not_supported`: The host is not an enabled supported site. `page_not_supported`: Supported site, but no reviewed path for this page or work_type. `robots_disallowed`: The site's robots.txt forbids the path. `idempotency_conflict`: An Idempotency-Key was reused with another request body. `idempotency_key_spent`: This Idempotency-Key was already replayed as often as allowed; use a new key. `batch_limit_exceeded`: More items per batch, or longer retention, than the plan allows (items: Free 100, Starter 5,000, Growth 50,000). `monitor_limit_exceeded`: A monitor over the plan's limits (interval, targets, monitors, history) or its fair share of a host's capacity. (docs/errors.md) */
            422: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listBatchItems: {
        parameters: {
            query?: {
                /** @description An item state (docs/api.md, Batches). */
                state?: "queued" | "running" | "ready" | "delivered" | "failed" | "not_found" | "skipped" | "cancelled" | "expired";
                /** @description next_cursor of the last page. */
                cursor?: string;
                /** @description 1–100; default 100. */
                limit?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        items: {
                            /** @description `itm_…` */
                            id: string;
                            index: number;
                            ref: string | null;
                            /** @description Credentials removed. */
                            url: string;
                            /** @description An item state (docs/api.md, Batches). */
                            state: "queued" | "running" | "ready" | "delivered" | "failed" | "not_found" | "skipped" | "cancelled" | "expired";
                            attempts: number;
                            /** @description The item's call (its last attempt). */
                            request_id: string | null;
                            cost_units: number;
                            finished_at: string | null;
                            /** @description The call’s success body without request_id (POST /v1/scrape’s 200). The first page that returns it is the handover, which charges the item once; with retention later pages return it again, free. */
                            result?: components["schemas"]["BatchResult"];
                            error?: {
                                code: string;
                                status: number;
                                retryable: boolean;
                            };
                        }[];
                        /** @description null on the last page. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    appendBatchItems: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 0–1,000 items (none, with seal, only seals the batch). */
                    items: {
                        /** @description Absolute http(s) URL of a page on a supported site. */
                        url: string;
                        /** @description Your own reference (printable text, Japanese included, ≤ 128 characters), echoed in the item and its events. */
                        ref?: string;
                        /** @description As for POST /v1/scrape, without store_artifact; each field optional. */
                        params?: {
                            /**
                             * @description `html_json`: structured `data` (and `html` when include_html); `html`: normalized HTML only.
                             * @default html_json
                             */
                            mode?: "html_json" | "html";
                            /**
                             * @description `auto` (from the URL) or a page type the site declares (`item`, `table`, `forecast` …).
                             * @default auto
                             */
                            work_type?: string;
                            /**
                             * @description Also return the normalized HTML in `html`.
                             * @default false
                             */
                            include_html?: boolean;
                            /**
                             * @description Render the page in the headless browser (2 credits) where its page type offers the browser route (see `routes` in GET /v1/sites); a page type without one answers 422 page_not_supported. Absent or false: the page type's default route.
                             * @default false
                             */
                            render_js?: boolean;
                        };
                    }[];
                    /**
                     * @description Seal the batch with this append.
                     * @default true
                     */
                    seal?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        batch: {
                            /** @description `bat_…` */
                            id: string;
                            /** @description `completed` only once sealed and nothing is queued or running. */
                            status: "queued" | "running" | "completed" | "cancelling" | "cancelled";
                            sealed: boolean;
                            created_at: string;
                            finished_at: string | null;
                            /** @description Results not handed over by then expire (free). */
                            results_expire_at: string;
                            counts: {
                                total: number;
                                queued: number;
                                running: number;
                                ready: number;
                                delivered: number;
                                failed: number;
                                not_found: number;
                                skipped: number;
                                cancelled: number;
                                expired: number;
                            };
                            credits: {
                                charged: number;
                                /** @description Ready results awaiting handover. */
                                held: number;
                                /** @description max_credits, or null. */
                                max: number | null;
                            };
                            estimate: {
                                /** @description Every item charged at its route. */
                                cost_units_max: number;
                                /** @description From each host's politeness and its queue at the time. */
                                eta_s: number;
                            };
                            /** @description Items refused up front: on a submission or append, those of that request; else the submission’s. */
                            rejected: {
                                /** @description The item's index in the batch (its position among every item submitted). */
                                index: number;
                                /** @description The URL with credentials removed. */
                                url: string;
                                /** @description Why, as a call would be refused (docs/errors.md). */
                                code: string;
                            }[];
                            webhook: {
                                endpoint_id: string;
                                events: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                                payload: "full" | "thin";
                            } | null;
                            results: {
                                retain_hours: number | null;
                            };
                            links: {
                                self: string;
                                items: string;
                                events: string;
                            };
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_in_use`: A call with this Idempotency-Key is still in flight; retry after Retry-After. `batch_sealed`: The batch is sealed (or cancelled): no items can be appended to it. (docs/errors.md) */
            409: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: The request body is over the limit. (docs/errors.md) */
            413: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: The request body is not application/json. (docs/errors.md) */
            415: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_not_supported`: The host is not an enabled supported site. `page_not_supported`: Supported site, but no reviewed path for this page or work_type. `robots_disallowed`: The site's robots.txt forbids the path. `idempotency_conflict`: An Idempotency-Key was reused with another request body. `idempotency_key_spent`: This Idempotency-Key was already replayed as often as allowed; use a new key. `batch_limit_exceeded`: More items per batch, or longer retention, than the plan allows (items: Free 100, Starter 5,000, Growth 50,000). `monitor_limit_exceeded`: A monitor over the plan's limits (interval, targets, monitors, history) or its fair share of a host's capacity. (docs/errors.md) */
            422: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        batch: {
                            /** @description `bat_…` */
                            id: string;
                            /** @description `completed` only once sealed and nothing is queued or running. */
                            status: "queued" | "running" | "completed" | "cancelling" | "cancelled";
                            sealed: boolean;
                            created_at: string;
                            finished_at: string | null;
                            /** @description Results not handed over by then expire (free). */
                            results_expire_at: string;
                            counts: {
                                total: number;
                                queued: number;
                                running: number;
                                ready: number;
                                delivered: number;
                                failed: number;
                                not_found: number;
                                skipped: number;
                                cancelled: number;
                                expired: number;
                            };
                            credits: {
                                charged: number;
                                /** @description Ready results awaiting handover. */
                                held: number;
                                /** @description max_credits, or null. */
                                max: number | null;
                            };
                            estimate: {
                                /** @description Every item charged at its route. */
                                cost_units_max: number;
                                /** @description From each host's politeness and its queue at the time. */
                                eta_s: number;
                            };
                            /** @description Items refused up front: on a submission or append, those of that request; else the submission’s. */
                            rejected: {
                                /** @description The item's index in the batch (its position among every item submitted). */
                                index: number;
                                /** @description The URL with credentials removed. */
                                url: string;
                                /** @description Why, as a call would be refused (docs/errors.md). */
                                code: string;
                            }[];
                            webhook: {
                                endpoint_id: string;
                                events: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                                payload: "full" | "thin";
                            } | null;
                            results: {
                                retain_hours: number | null;
                            };
                            links: {
                                self: string;
                                items: string;
                                events: string;
                            };
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        batch: {
                            /** @description `bat_…` */
                            id: string;
                            /** @description `completed` only once sealed and nothing is queued or running. */
                            status: "queued" | "running" | "completed" | "cancelling" | "cancelled";
                            sealed: boolean;
                            created_at: string;
                            finished_at: string | null;
                            /** @description Results not handed over by then expire (free). */
                            results_expire_at: string;
                            counts: {
                                total: number;
                                queued: number;
                                running: number;
                                ready: number;
                                delivered: number;
                                failed: number;
                                not_found: number;
                                skipped: number;
                                cancelled: number;
                                expired: number;
                            };
                            credits: {
                                charged: number;
                                /** @description Ready results awaiting handover. */
                                held: number;
                                /** @description max_credits, or null. */
                                max: number | null;
                            };
                            estimate: {
                                /** @description Every item charged at its route. */
                                cost_units_max: number;
                                /** @description From each host's politeness and its queue at the time. */
                                eta_s: number;
                            };
                            /** @description Items refused up front: on a submission or append, those of that request; else the submission’s. */
                            rejected: {
                                /** @description The item's index in the batch (its position among every item submitted). */
                                index: number;
                                /** @description The URL with credentials removed. */
                                url: string;
                                /** @description Why, as a call would be refused (docs/errors.md). */
                                code: string;
                            }[];
                            webhook: {
                                endpoint_id: string;
                                events: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                                payload: "full" | "thin";
                            } | null;
                            results: {
                                retain_hours: number | null;
                            };
                            links: {
                                self: string;
                                items: string;
                                events: string;
                            };
                        };
                        /** @description Queued items cancelled by this request (free). */
                        cancelled: number;
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                batch_id?: string;
                /** @description next_after of the last page, as it was given (an opaque cursor). */
                after?: string;
                /** @description Comma-separated event types, e.g. `item.failed,item.skipped`. */
                types?: string;
                /** @description 1–100; default 100. */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        events: {
                            /** @description `evt_…`, the webhook-id of its deliveries; ids sort by time. */
                            id: string;
                            /** @description A batch event type. */
                            type: "item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled";
                            /** @description ISO 8601, Japan time. */
                            timestamp: string;
                            data: {
                                batch_id: string;
                                item_id: string | null;
                                sequence: number;
                            };
                        }[];
                        /** @description An opaque cursor for `after`; paging with it never skips an event. null when no more are listed now. */
                        next_after: string | null;
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        request_id: string;
                        endpoints: {
                            id: string;
                            url: string;
                            events: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                            /** @description The last 4 characters of the current signing secret. */
                            secret_last4: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description When deliveries stopped (the receiver answered 410 Gone); null while active. */
                            disabled_at: string | null;
                        }[];
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description https URL of the receiver (public address). */
                    url: string;
                    /** @description Event types sent to it; default all. */
                    events?: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        request_id: string;
                        endpoint: {
                            id: string;
                            url: string;
                            events: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                            /** @description The last 4 characters of the current signing secret. */
                            secret_last4: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description When deliveries stopped (the receiver answered 410 Gone); null while active. */
                            disabled_at: string | null;
                            /** @description The Standard Webhooks signing secret (`whsec_` + base64 of 32 bytes). Shown this once only. */
                            secret: string;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: The request body is over the limit. (docs/errors.md) */
            413: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: The request body is not application/json. (docs/errors.md) */
            415: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        request_id: string;
                        endpoint: {
                            id: string;
                            url: string;
                            events: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                            /** @description The last 4 characters of the current signing secret. */
                            secret_last4: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description When deliveries stopped (the receiver answered 410 Gone); null while active. */
                            disabled_at: string | null;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no content. */
            204: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        request_id: string;
                        endpoint: {
                            id: string;
                            url: string;
                            events: ("item.succeeded" | "item.failed" | "item.not_found" | "item.skipped" | "batch.completed" | "batch.cancelled")[];
                            /** @description The last 4 characters of the current signing secret. */
                            secret_last4: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description When deliveries stopped (the receiver answered 410 Gone); null while active. */
                            disabled_at: string | null;
                            /** @description The Standard Webhooks signing secret (`whsec_` + base64 of 32 bytes). Shown this once only. */
                            secret: string;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMonitors: {
        parameters: {
            query?: {
                /** @description 1–100; default 20. */
                limit?: string;
                /** @description next_cursor of the last page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        /** @description Newest first. */
                        monitors: {
                            /** @description `mon_…` */
                            id: string;
                            name: string | null;
                            status: "active" | "paused";
                            paused_reason: string | null;
                            schedule: {
                                every_minutes: number | null;
                                cron: string | null;
                                timezone: string;
                                calendar: "jp_business_days" | null;
                                /** @description A stable per-monitor offset, so 9:00 JST is no stampede. */
                                jitter_s: number;
                                next_run_at: string | null;
                            };
                            watch: ("price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price")[];
                            rules: {
                                id: string;
                                /** @description One operator besides field (docs/monitors.md, Rules). */
                                when: {
                                    /** @description An item field a monitor can watch, or effective_price (price − points + shipping fee). */
                                    field: "price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price";
                                    change_gte?: number;
                                    change_lte?: number;
                                    change_pct_gte?: number;
                                    change_pct_lte?: number;
                                    lte?: number;
                                    gte?: number;
                                    below_lowest_days?: number;
                                    from?: string[];
                                    to?: string[];
                                };
                                mode?: "change" | "enter";
                            }[];
                            noise: {
                                price_abs_yen: number;
                                confirm_checks: number;
                                cooldown_minutes: number;
                                max_alerts_per_day: number;
                            };
                            failures: {
                                alert_after: number;
                            };
                            notify: {
                                webhook: {
                                    endpoint_id: string;
                                } | null;
                                language: "ja" | "en";
                                channels: {
                                    kind: "slack" | "chatwork" | "line";
                                    /** @description Secrets masked to their last 4. */
                                    masked: {
                                        [key: string]: string;
                                    };
                                }[];
                            };
                            history: {
                                retain_days: number | null;
                            };
                            max_credits_per_month: number | null;
                            credits: {
                                period: string | null;
                                used: number;
                            };
                            estimate?: {
                                checks_per_month: number;
                                credits_per_month: number;
                                /** @description Whether the monitor's credits fit the plan's monthly allowance. */
                                within_plan: boolean;
                                host_load: {
                                    host: string;
                                    checks_per_day: number;
                                    share_per_day: number | null;
                                }[];
                            };
                            targets: {
                                /** @description `tgt_…` */
                                id: string;
                                /** @description Credentials removed. */
                                url: string;
                                ref: string | null;
                                site: string;
                                page_type: string;
                                /** @description The last check found the page gone (404/410). */
                                removed: boolean;
                                last: {
                                    [key: string]: number | string | boolean | null;
                                } | null;
                                last_check: {
                                    at: string | null;
                                    state: string | null;
                                    error_code: string | null;
                                };
                            }[];
                            created_at: string;
                            updated_at: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createMonitor: {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body returns the monitor it made (201, Idempotent-Replayed: true) and makes nothing; the same key with another body is a 422 idempotency_conflict. Deleting the monitor frees the key. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Item pages on supported sites (the plan caps how many). */
                    targets: {
                        url: string;
                        /** @description Your own reference (printable text, Japanese included), echoed in checks and alerts. */
                        ref?: string;
                    }[];
                    schedule: {
                        /** @description Minutes between checks (one of every_minutes or cron). */
                        every_minutes?: number;
                        /** @description A 5-field cron expression (minute hour day month weekday), in `timezone`. */
                        cron?: string;
                        timezone?: string;
                        /**
                         * @description Skip Saturdays, Sundays and Japanese public holidays (and 振替休日).
                         * @enum {string}
                         */
                        calendar?: "jp_business_days";
                    };
                    watch?: ("price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price")[];
                    rules?: {
                        id: string;
                        /** @description One operator besides field (docs/monitors.md, Rules). */
                        when: {
                            /** @description An item field a monitor can watch, or effective_price (price − points + shipping fee). */
                            field: "price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price";
                            change_gte?: number;
                            change_lte?: number;
                            change_pct_gte?: number;
                            change_pct_lte?: number;
                            lte?: number;
                            gte?: number;
                            below_lowest_days?: number;
                            from?: string[];
                            to?: string[];
                        };
                        mode?: "change" | "enter";
                    }[];
                    noise?: {
                        price_abs_yen?: number;
                        confirm_checks?: number;
                        cooldown_minutes?: number;
                        max_alerts_per_day?: number;
                    };
                    failures?: {
                        alert_after?: number;
                    };
                    notify?: {
                        webhook?: {
                            endpoint_id: string;
                        };
                        slack?: {
                            /** @description A Slack incoming webhook URL. */
                            webhook_url: string;
                        };
                        chatwork?: {
                            room_id: string;
                            /** @description Sent as X-ChatWorkToken; never shown again. */
                            token: string;
                        };
                        line?: {
                            /** @description A user, group or room id (U…, C…, R…). */
                            to: string;
                            /** @description Never shown again. */
                            channel_access_token: string;
                        };
                        language?: "ja" | "en";
                    };
                    history?: {
                        retain_days?: number;
                    };
                    max_credits_per_month?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        monitor: {
                            /** @description `mon_…` */
                            id: string;
                            name: string | null;
                            status: "active" | "paused";
                            paused_reason: string | null;
                            schedule: {
                                every_minutes: number | null;
                                cron: string | null;
                                timezone: string;
                                calendar: "jp_business_days" | null;
                                /** @description A stable per-monitor offset, so 9:00 JST is no stampede. */
                                jitter_s: number;
                                next_run_at: string | null;
                            };
                            watch: ("price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price")[];
                            rules: {
                                id: string;
                                /** @description One operator besides field (docs/monitors.md, Rules). */
                                when: {
                                    /** @description An item field a monitor can watch, or effective_price (price − points + shipping fee). */
                                    field: "price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price";
                                    change_gte?: number;
                                    change_lte?: number;
                                    change_pct_gte?: number;
                                    change_pct_lte?: number;
                                    lte?: number;
                                    gte?: number;
                                    below_lowest_days?: number;
                                    from?: string[];
                                    to?: string[];
                                };
                                mode?: "change" | "enter";
                            }[];
                            noise: {
                                price_abs_yen: number;
                                confirm_checks: number;
                                cooldown_minutes: number;
                                max_alerts_per_day: number;
                            };
                            failures: {
                                alert_after: number;
                            };
                            notify: {
                                webhook: {
                                    endpoint_id: string;
                                } | null;
                                language: "ja" | "en";
                                channels: {
                                    kind: "slack" | "chatwork" | "line";
                                    /** @description Secrets masked to their last 4. */
                                    masked: {
                                        [key: string]: string;
                                    };
                                }[];
                            };
                            history: {
                                retain_days: number | null;
                            };
                            max_credits_per_month: number | null;
                            credits: {
                                period: string | null;
                                used: number;
                            };
                            estimate?: {
                                checks_per_month: number;
                                credits_per_month: number;
                                /** @description Whether the monitor's credits fit the plan's monthly allowance. */
                                within_plan: boolean;
                                host_load: {
                                    host: string;
                                    checks_per_day: number;
                                    share_per_day: number | null;
                                }[];
                            };
                            targets: {
                                /** @description `tgt_…` */
                                id: string;
                                /** @description Credentials removed. */
                                url: string;
                                ref: string | null;
                                site: string;
                                page_type: string;
                                /** @description The last check found the page gone (404/410). */
                                removed: boolean;
                                last: {
                                    [key: string]: number | string | boolean | null;
                                } | null;
                                last_check: {
                                    at: string | null;
                                    state: string | null;
                                    error_code: string | null;
                                };
                            }[];
                            created_at: string;
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: The request body is over the limit. (docs/errors.md) */
            413: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: The request body is not application/json. (docs/errors.md) */
            415: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_not_supported`: The host is not an enabled supported site. `page_not_supported`: Supported site, but no reviewed path for this page or work_type. `robots_disallowed`: The site's robots.txt forbids the path. `idempotency_conflict`: An Idempotency-Key was reused with another request body. `idempotency_key_spent`: This Idempotency-Key was already replayed as often as allowed; use a new key. `batch_limit_exceeded`: More items per batch, or longer retention, than the plan allows (items: Free 100, Starter 5,000, Growth 50,000). `monitor_limit_exceeded`: A monitor over the plan's limits (interval, targets, monitors, history) or its fair share of a host's capacity. (docs/errors.md) */
            422: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        monitor: {
                            /** @description `mon_…` */
                            id: string;
                            name: string | null;
                            status: "active" | "paused";
                            paused_reason: string | null;
                            schedule: {
                                every_minutes: number | null;
                                cron: string | null;
                                timezone: string;
                                calendar: "jp_business_days" | null;
                                /** @description A stable per-monitor offset, so 9:00 JST is no stampede. */
                                jitter_s: number;
                                next_run_at: string | null;
                            };
                            watch: ("price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price")[];
                            rules: {
                                id: string;
                                /** @description One operator besides field (docs/monitors.md, Rules). */
                                when: {
                                    /** @description An item field a monitor can watch, or effective_price (price − points + shipping fee). */
                                    field: "price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price";
                                    change_gte?: number;
                                    change_lte?: number;
                                    change_pct_gte?: number;
                                    change_pct_lte?: number;
                                    lte?: number;
                                    gte?: number;
                                    below_lowest_days?: number;
                                    from?: string[];
                                    to?: string[];
                                };
                                mode?: "change" | "enter";
                            }[];
                            noise: {
                                price_abs_yen: number;
                                confirm_checks: number;
                                cooldown_minutes: number;
                                max_alerts_per_day: number;
                            };
                            failures: {
                                alert_after: number;
                            };
                            notify: {
                                webhook: {
                                    endpoint_id: string;
                                } | null;
                                language: "ja" | "en";
                                channels: {
                                    kind: "slack" | "chatwork" | "line";
                                    /** @description Secrets masked to their last 4. */
                                    masked: {
                                        [key: string]: string;
                                    };
                                }[];
                            };
                            history: {
                                retain_days: number | null;
                            };
                            max_credits_per_month: number | null;
                            credits: {
                                period: string | null;
                                used: number;
                            };
                            estimate?: {
                                checks_per_month: number;
                                credits_per_month: number;
                                /** @description Whether the monitor's credits fit the plan's monthly allowance. */
                                within_plan: boolean;
                                host_load: {
                                    host: string;
                                    checks_per_day: number;
                                    share_per_day: number | null;
                                }[];
                            };
                            targets: {
                                /** @description `tgt_…` */
                                id: string;
                                /** @description Credentials removed. */
                                url: string;
                                ref: string | null;
                                site: string;
                                page_type: string;
                                /** @description The last check found the page gone (404/410). */
                                removed: boolean;
                                last: {
                                    [key: string]: number | string | boolean | null;
                                } | null;
                                last_check: {
                                    at: string | null;
                                    state: string | null;
                                    error_code: string | null;
                                };
                            }[];
                            created_at: string;
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string | null;
                    status?: "active" | "paused";
                    schedule?: {
                        /** @description Minutes between checks (one of every_minutes or cron). */
                        every_minutes?: number;
                        /** @description A 5-field cron expression (minute hour day month weekday), in `timezone`. */
                        cron?: string;
                        timezone?: string;
                        /**
                         * @description Skip Saturdays, Sundays and Japanese public holidays (and 振替休日).
                         * @enum {string}
                         */
                        calendar?: "jp_business_days";
                    };
                    watch?: ("price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price")[];
                    rules?: {
                        id: string;
                        /** @description One operator besides field (docs/monitors.md, Rules). */
                        when: {
                            /** @description An item field a monitor can watch, or effective_price (price − points + shipping fee). */
                            field: "price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price";
                            change_gte?: number;
                            change_lte?: number;
                            change_pct_gte?: number;
                            change_pct_lte?: number;
                            lte?: number;
                            gte?: number;
                            below_lowest_days?: number;
                            from?: string[];
                            to?: string[];
                        };
                        mode?: "change" | "enter";
                    }[];
                    noise?: {
                        price_abs_yen?: number;
                        confirm_checks?: number;
                        cooldown_minutes?: number;
                        max_alerts_per_day?: number;
                    };
                    failures?: {
                        alert_after?: number;
                    };
                    notify?: {
                        webhook?: {
                            endpoint_id: string;
                        };
                        slack?: {
                            /** @description A Slack incoming webhook URL. */
                            webhook_url: string;
                        };
                        chatwork?: {
                            room_id: string;
                            /** @description Sent as X-ChatWorkToken; never shown again. */
                            token: string;
                        };
                        line?: {
                            /** @description A user, group or room id (U…, C…, R…). */
                            to: string;
                            /** @description Never shown again. */
                            channel_access_token: string;
                        };
                        language?: "ja" | "en";
                    } | null;
                    history?: {
                        retain_days?: number | null;
                    };
                    max_credits_per_month?: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        monitor: {
                            /** @description `mon_…` */
                            id: string;
                            name: string | null;
                            status: "active" | "paused";
                            paused_reason: string | null;
                            schedule: {
                                every_minutes: number | null;
                                cron: string | null;
                                timezone: string;
                                calendar: "jp_business_days" | null;
                                /** @description A stable per-monitor offset, so 9:00 JST is no stampede. */
                                jitter_s: number;
                                next_run_at: string | null;
                            };
                            watch: ("price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price")[];
                            rules: {
                                id: string;
                                /** @description One operator besides field (docs/monitors.md, Rules). */
                                when: {
                                    /** @description An item field a monitor can watch, or effective_price (price − points + shipping fee). */
                                    field: "price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price";
                                    change_gte?: number;
                                    change_lte?: number;
                                    change_pct_gte?: number;
                                    change_pct_lte?: number;
                                    lte?: number;
                                    gte?: number;
                                    below_lowest_days?: number;
                                    from?: string[];
                                    to?: string[];
                                };
                                mode?: "change" | "enter";
                            }[];
                            noise: {
                                price_abs_yen: number;
                                confirm_checks: number;
                                cooldown_minutes: number;
                                max_alerts_per_day: number;
                            };
                            failures: {
                                alert_after: number;
                            };
                            notify: {
                                webhook: {
                                    endpoint_id: string;
                                } | null;
                                language: "ja" | "en";
                                channels: {
                                    kind: "slack" | "chatwork" | "line";
                                    /** @description Secrets masked to their last 4. */
                                    masked: {
                                        [key: string]: string;
                                    };
                                }[];
                            };
                            history: {
                                retain_days: number | null;
                            };
                            max_credits_per_month: number | null;
                            credits: {
                                period: string | null;
                                used: number;
                            };
                            estimate?: {
                                checks_per_month: number;
                                credits_per_month: number;
                                /** @description Whether the monitor's credits fit the plan's monthly allowance. */
                                within_plan: boolean;
                                host_load: {
                                    host: string;
                                    checks_per_day: number;
                                    share_per_day: number | null;
                                }[];
                            };
                            targets: {
                                /** @description `tgt_…` */
                                id: string;
                                /** @description Credentials removed. */
                                url: string;
                                ref: string | null;
                                site: string;
                                page_type: string;
                                /** @description The last check found the page gone (404/410). */
                                removed: boolean;
                                last: {
                                    [key: string]: number | string | boolean | null;
                                } | null;
                                last_check: {
                                    at: string | null;
                                    state: string | null;
                                    error_code: string | null;
                                };
                            }[];
                            created_at: string;
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: The request body is over the limit. (docs/errors.md) */
            413: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: The request body is not application/json. (docs/errors.md) */
            415: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_not_supported`: The host is not an enabled supported site. `page_not_supported`: Supported site, but no reviewed path for this page or work_type. `robots_disallowed`: The site's robots.txt forbids the path. `idempotency_conflict`: An Idempotency-Key was reused with another request body. `idempotency_key_spent`: This Idempotency-Key was already replayed as often as allowed; use a new key. `batch_limit_exceeded`: More items per batch, or longer retention, than the plan allows (items: Free 100, Starter 5,000, Growth 50,000). `monitor_limit_exceeded`: A monitor over the plan's limits (interval, targets, monitors, history) or its fair share of a host's capacity. (docs/errors.md) */
            422: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    runMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        checks: {
                            /** @description `chk_…` */
                            id: string;
                            target_id: string;
                            /** @description queued, running, completed, failed or skipped (free). */
                            state: "queued" | "running" | "completed" | "failed" | "skipped";
                            reason: string | null;
                            scheduled_at: string;
                            started_at: string | null;
                            finished_at: string | null;
                            attempts: number;
                            request_id: string | null;
                            cost_units: number;
                            changes: {
                                /** @description An item field a monitor can watch, or effective_price (price − points + shipping fee). */
                                field: "price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price";
                                before: number | string | boolean | null;
                                after: number | string | boolean | null;
                                /** @description after − before (yen for yen fields). */
                                delta?: number;
                                /** @description delta in percent of before, two decimals. */
                                delta_pct?: number;
                            }[];
                            rules_hit: string[];
                            skipped_rules: {
                                id: string;
                                reason: string;
                            }[];
                            error: {
                                code: string;
                                status: number;
                            } | null;
                        }[];
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMonitorChecks: {
        parameters: {
            query?: {
                target?: string;
                /** @description next_cursor of the last page. */
                cursor?: string;
                /** @description 1–100; default 20. */
                limit?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        /** @description Newest first. */
                        checks: {
                            /** @description `chk_…` */
                            id: string;
                            target_id: string;
                            /** @description queued, running, completed, failed or skipped (free). */
                            state: "queued" | "running" | "completed" | "failed" | "skipped";
                            reason: string | null;
                            scheduled_at: string;
                            started_at: string | null;
                            finished_at: string | null;
                            attempts: number;
                            request_id: string | null;
                            cost_units: number;
                            changes: {
                                /** @description An item field a monitor can watch, or effective_price (price − points + shipping fee). */
                                field: "price" | "price_tax" | "price_excluding_tax" | "list_price" | "points" | "points_rate" | "shipping" | "shipping_fee" | "availability" | "on_sale" | "effective_price";
                                before: number | string | boolean | null;
                                after: number | string | boolean | null;
                                /** @description after − before (yen for yen fields). */
                                delta?: number;
                                /** @description delta in percent of before, two decimals. */
                                delta_pct?: number;
                            }[];
                            rules_hit: string[];
                            skipped_rules: {
                                id: string;
                                reason: string;
                            }[];
                            error: {
                                code: string;
                                status: number;
                            } | null;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMonitorHistory: {
        parameters: {
            query?: {
                /** @description Default the first target. */
                target?: string;
                /** @description 1–365; default retain_days. */
                days?: string;
                /** @description Comma-separated watched fields. */
                fields?: string;
                format?: "json" | "csv";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description This request, as in the Request-Id header. */
                        request_id: string;
                        target_id: string;
                        from: string;
                        to: string;
                        retain_days: number | null;
                        /** @description Oldest first: `t` and the watched fields. */
                        points: {
                            [key: string]: number | string | boolean | null;
                        }[];
                        stats: {
                            [key: string]: {
                                min: number | null;
                                max: number | null;
                                lowest_at: string | null;
                                last_change_at: string | null;
                            };
                        };
                    };
                };
            };
            /** @description `invalid_request`: Bad JSON, wrong types, unknown fields or a missing url. `invalid_url`: Not http(s), has userinfo, a non-default port, an IP literal, or is too long. (docs/errors.md) */
            400: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unauthorized`: Missing, unknown, revoked or expired API key (one answer for all). (docs/errors.md) */
            401: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `key_scope_denied`: The key may not use this site, operation or output, or needs review approval. `origin_not_allowed`: A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp). (docs/errors.md) */
            403: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: No such route, or no such resource for this account. (docs/errors.md) */
            404: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `request_timeout`: The request (headers or body) did not arrive in time. (docs/errors.md) */
            408: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `uri_too_long`: A path segment (such as an id) is longer than any valid value. (docs/errors.md) */
            414: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `credits_exhausted`: The monthly allowance (plus overage cap) or the key credit limit is used up. `concurrency_limited`: Too many calls in flight for the key or account. `rate_limited`: The key had too many calls refused in a short time; retry after Retry-After. (docs/errors.md) */
            429: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `headers_too_large`: The request line and headers together are over the server limit. (docs/errors.md) */
            431: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal`: Anything else. No details leave the process. (docs/errors.md) */
            500: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `site_busy`: The site's politeness queue is full; retry after Retry-After. `site_stopped`: The site is switched off. `unavailable`: A backend (database, limiter, browser) is down; retry later. (docs/errors.md) */
            503: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "X-Credits-Limit": components["headers"]["X-Credits-Limit"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Concurrency-Limit": components["headers"]["X-Concurrency-Limit"];
                    "X-Concurrency-Remaining": components["headers"]["X-Concurrency-Remaining"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    webhook_item_succeeded: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchItemSucceededEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none within 10 s, is retried on the webhook schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_item_failed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchItemEndedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none within 10 s, is retried on the webhook schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_item_not_found: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchItemEndedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none within 10 s, is retried on the webhook schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_item_skipped: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchItemEndedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none within 10 s, is retried on the webhook schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_batch_completed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchEndedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none within 10 s, is retried on the webhook schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_batch_cancelled: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchEndedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none within 10 s, is retried on the webhook schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_monitor_alert: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MonitorAlertEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none within 10 s, is retried on the webhook schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_monitor_check_failed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MonitorCheckFailedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none within 10 s, is retried on the webhook schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_monitor_target_removed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MonitorTargetRemovedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none within 10 s, is retried on the webhook schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_monitor_paused: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MonitorPausedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, or none within 10 s, is retried on the webhook schedule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
