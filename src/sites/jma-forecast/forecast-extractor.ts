// 気象庁 bosai forecast JSON (`forecast/<office>.json`): the 3-day and the weekly report, typed and normalized.
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { arr, obj, str, type JsonObject } from '../../extract/json-path.js';
import type { ForecastData } from '../../extract/page-types.js';
import { jsonText } from '../../extract/text-or-null.js';

const ID = 'jma_forecast/forecast';

type ShortTerm = NonNullable<ForecastData['short_term']>;
type Weekly = NonNullable<ForecastData['weekly']>;

function fail(detail: string): never {
  throw new KumoError('extraction_failed', `${ID}: ${detail}`);
}

/** JMA writes every number as a string, and "" where there is no value (today's past pops, for one). */
function num(value: unknown): number | null {
  const s = str(value)?.trim();
  if (s === undefined || s === '') return null;
  if (!/^-?\d+(?:\.\d+)?$/.test(s)) fail('a numeric field holds something other than a number'); // never quoted: it is target text;
  return Number(s);
}

function areaOf(entry: JsonObject): { code: string; name: string } {
  const area = obj(entry.area);
  const code = str(area?.code);
  const name = jsonText(area?.name);
  if (!code || !name) fail('an area without code or name');
  return { code, name };
}

/** The value at `i` of a per-time array, which must be exactly as long as the time axis. */
function column(entry: JsonObject, key: string, length: number): unknown[] | null {
  if (!(key in entry)) return null;
  const values = arr(entry[key]);
  if (values.length !== length) fail(`${key} has ${values.length} values for ${length} times`);
  return values;
}

function times(series: JsonObject): string[] {
  const defs = arr(series.timeDefines).map(str);
  if (defs.length === 0 || defs.some((t) => t === null)) fail('a time series without timeDefines');
  return defs as string[];
}

function isWeekly(report: JsonObject): boolean {
  if ('tempAverage' in report || 'precipAverage' in report) return true;
  return arr(report.timeSeries).some((ts) =>
    arr(obj(ts)?.areas).some((a) => {
      const area = obj(a);
      return area !== null && ('reliabilities' in area || 'tempsMin' in area);
    }),
  );
}

function shortTermOf(report: JsonObject): ShortTerm {
  const areas = new Map<string, ShortTerm['areas'][number]>();
  const points = new Map<string, ShortTerm['temperature_points'][number]>();
  const areaEntry = (a: { code: string; name: string }) => {
    let entry = areas.get(a.code);
    if (!entry) areas.set(a.code, (entry = { ...a, weathers: [], pops: [] }));
    return entry;
  };
  for (const tsValue of arr(report.timeSeries)) {
    const ts = obj(tsValue);
    if (!ts) continue;
    const axis = times(ts);
    for (const areaValue of arr(ts.areas)) {
      const entry = obj(areaValue);
      if (!entry) continue;
      const area = areaOf(entry);
      const codes = column(entry, 'weatherCodes', axis.length);
      const weathers = column(entry, 'weathers', axis.length);
      const winds = column(entry, 'winds', axis.length);
      const waves = column(entry, 'waves', axis.length);
      if (codes || weathers || winds || waves) {
        const target = areaEntry(area);
        axis.forEach((time, i) =>
          target.weathers.push({
            time,
            weather_code: str(codes?.[i]) || null,
            weather: jsonText(weathers?.[i]),
            wind: jsonText(winds?.[i]),
            wave: jsonText(waves?.[i]),
          }),
        );
      }
      const pops = column(entry, 'pops', axis.length);
      if (pops) {
        const target = areaEntry(area);
        axis.forEach((time, i) => target.pops.push({ time, pop: num(pops[i]) }));
      }
      const temps = column(entry, 'temps', axis.length);
      if (temps) {
        let point = points.get(area.code);
        if (!point) points.set(area.code, (point = { ...area, temps: [] }));
        const p = point;
        axis.forEach((time, i) => p.temps.push({ time, temp: num(temps[i]) }));
      }
    }
  }
  const reportDatetime = str(report.reportDatetime);
  if (!reportDatetime) fail('a report without reportDatetime');
  if (areas.size === 0) fail('the 3-day report has no areas');
  return { report_datetime: reportDatetime, areas: [...areas.values()], temperature_points: [...points.values()] };
}

function weeklyOf(report: JsonObject): Weekly {
  const areas: Weekly['areas'] = [];
  const points: Weekly['temperature_points'] = [];
  for (const tsValue of arr(report.timeSeries)) {
    const ts = obj(tsValue);
    if (!ts) continue;
    const axis = times(ts);
    for (const areaValue of arr(ts.areas)) {
      const entry = obj(areaValue);
      if (!entry) continue;
      const area = areaOf(entry);
      if ('tempsMin' in entry || 'tempsMax' in entry) {
        const c = (key: string) => column(entry, key, axis.length);
        const [min, minU, minL, max, maxU, maxL] = [
          c('tempsMin'),
          c('tempsMinUpper'),
          c('tempsMinLower'),
          c('tempsMax'),
          c('tempsMaxUpper'),
          c('tempsMaxLower'),
        ];
        points.push({
          ...area,
          days: axis.map((time, i) => ({
            time,
            min: num(min?.[i]),
            min_upper: num(minU?.[i]),
            min_lower: num(minL?.[i]),
            max: num(max?.[i]),
            max_upper: num(maxU?.[i]),
            max_lower: num(maxL?.[i]),
          })),
        });
      } else {
        const codes = column(entry, 'weatherCodes', axis.length);
        const pops = column(entry, 'pops', axis.length);
        const rel = column(entry, 'reliabilities', axis.length);
        areas.push({
          ...area,
          days: axis.map((time, i) => ({
            time,
            weather_code: str(codes?.[i]) || null,
            pop: num(pops?.[i]),
            reliability: str(rel?.[i]) || null,
          })),
        });
      }
    }
  }
  const averages = (value: unknown) =>
    arr(obj(value)?.areas).flatMap((a) => {
      const entry = obj(a);
      return entry ? [{ ...areaOf(entry), min: num(entry.min), max: num(entry.max) }] : [];
    });
  const reportDatetime = str(report.reportDatetime);
  if (!reportDatetime) fail('a report without reportDatetime');
  return {
    report_datetime: reportDatetime,
    areas,
    temperature_points: points,
    temp_average: averages(report.tempAverage),
    precip_average: averages(report.precipAverage),
  };
}

export const jmaForecastExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'forecast',
  input: 'json',
  extract(page): Extraction {
    const reports = arr(page.json).map(obj);
    if (reports.length === 0 || reports.some((r) => r === null)) fail('expected an array of reports');
    const valid = reports as JsonObject[];
    const shortReport = valid.find((r) => !isWeekly(r));
    const weeklyReport = valid.find(isWeekly);
    const head = shortReport ?? weeklyReport;
    const office = jsonText(head?.publishingOffice);
    const reportDatetime = str(head?.reportDatetime);
    if (!office || !reportDatetime) fail('no publishingOffice or reportDatetime');
    const data: ForecastData = {
      publishing_office: office,
      report_datetime: reportDatetime,
      short_term: shortReport ? shortTermOf(shortReport) : null,
      weekly: weeklyReport ? weeklyOf(weeklyReport) : null,
    };
    const index = (r: JsonObject | undefined) => (r ? valid.indexOf(r) : -1);
    const provenance: Record<string, string> = {
      publishing_office: `json:$[${index(head)}].publishingOffice`,
      report_datetime: `json:$[${index(head)}].reportDatetime`,
    };
    if (shortReport) provenance.short_term = `json:$[${index(shortReport)}].timeSeries`;
    provenance.weekly = weeklyReport ? `json:$[${index(weeklyReport)}]` : 'json:$ (no weekly report: null)';
    return { data, provenance, warnings: [] };
  },
});
