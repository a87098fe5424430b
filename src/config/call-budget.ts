// The budget of one call that the config checks the extraction and database timeouts against (services.ts uses it).

/** How far a call's concurrency lease reaches past its fetch deadline (services.ts gives it to ScrapeService). */
export const leaseBeyondFetchMs = 60_000;
/** Kept free in that reach for what follows extraction: artifact write, serialization, the settlement transaction. */
export const afterExtractMarginMs = 10_000;
