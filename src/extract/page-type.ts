// The closed list of page types: its own module, so the extractor role and the data schemas both read it.
/** Every page type Kumo serves, each with its data schema in page-types.ts; a site's page type is one of these. */
export const pageTypes = [
  'item',
  'search',
  'ranking',
  'offers',
  'forecast',
  'forecast_overview',
  'areas',
  'table',
  'meta',
  'list',
  'history',
  'quote',
  'record',
  'records',
  'document',
] as const;
export type PageType = (typeof pageTypes)[number];

/** Narrows a page type read from outside (a stored row, a fixture's meta) to one Kumo serves. */
export function isPageType(value: string): value is PageType {
  return (pageTypes as readonly string[]).includes(value);
}
