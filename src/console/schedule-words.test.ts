// Schedules in words: the usual shapes read as a person says them, anything else shown as its cron.
import { describe, expect, it } from 'vitest';
import { scheduleWords } from './schedule-words.js';
import type { MonitorSchedule } from '../monitors/model.js';

const cron = (pattern: string, extra: Partial<MonitorSchedule> = {}): MonitorSchedule => ({
  every_minutes: null,
  cron: pattern,
  timezone: 'Asia/Tokyo',
  calendar: null,
  ...extra,
});
const every = (minutes: number, extra: Partial<MonitorSchedule> = {}): MonitorSchedule => ({
  every_minutes: minutes,
  cron: null,
  timezone: 'Asia/Tokyo',
  calendar: null,
  ...extra,
});

describe('scheduleWords', () => {
  it.each([
    [
      cron('0 9,13 * * *', { calendar: 'jp_business_days' }),
      '毎日 9:00, 13:00（営業日のみ）',
      'Every day at 9:00, 13:00 (Japanese business days only)',
    ],
    [every(60), '60分ごと', 'Every 60 minutes'],
    [every(15), '15分ごと', 'Every 15 minutes'],
    [every(180), '3時間ごと', 'Every 3 hours'],
    [every(90), '90分ごと', 'Every 90 minutes'],
    [cron('30 8 * * 1-5'), '平日 8:30', 'Weekdays at 8:30'],
    [cron('0 9 * * MON,wed,5'), '毎週月・水・金 9:00', 'Every Mon, Wed, Fri at 9:00'],
    [cron('0 21 * * 0,7'), '毎週日 21:00', 'Every Sun at 21:00'],
    [cron('0 6 1,15 * *'), '毎月1・15日 6:00', 'Day 1, 15 of each month at 6:00'],
    [cron('*/30 * * * *'), '30分ごと', 'Every 30 minutes'],
    [cron('5 * * * *'), '毎時 05分', 'Every hour at :05'],
    [
      cron('0 9 * * *', { timezone: 'America/New_York' }),
      '毎日 9:00（America/New_York 時間）',
      'Every day at 9:00 (America/New_York time)',
    ],
    [cron('0 9 * 1 *'), 'cron 式 0 9 * 1 *', 'cron 0 9 * 1 *'],
    [cron('0 9-18 * * *'), 'cron 式 0 9-18 * * *', 'cron 0 9-18 * * *'],
    [cron('0 9 1 * 1'), 'cron 式 0 9 1 * 1', 'cron 0 9 1 * 1'],
  ])('%o', (schedule, ja, en) => {
    expect(scheduleWords(schedule, 'ja')).toBe(ja);
    expect(scheduleWords(schedule, 'en')).toBe(en);
  });
});
