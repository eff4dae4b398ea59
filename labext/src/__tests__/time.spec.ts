import {
  formatDuration,
  formatTime,
  relativeTime,
  timeAgo,
  timeLeft
} from '../time';

const NOW = 1_700_000_000;

describe('times ago', () => {
  it('tells the time since a change, coarsely', () => {
    expect(timeAgo(1000, 1010)).toBe('just now');
    expect(timeAgo(1000, 1000 + 5 * 60)).toBe('5 min ago');
    expect(timeAgo(1000, 1000 + 3 * 3600)).toBe('3 h ago');
    expect(timeAgo(1000, 1000 + 86400)).toBe('1 day ago');
    expect(timeAgo(1000, 1000 + 3 * 86400)).toBe('3 days ago');
    expect(timeAgo(2000, 1000)).toBe('just now'); // a clock behind the server's
  });

  it('tells the time since a call to the second: seconds, minutes, hours and days', () => {
    expect(relativeTime(NOW, NOW)).toBe('just now');
    expect(relativeTime(NOW + 5, NOW)).toBe('just now'); // clock skew
    expect(relativeTime(NOW - 42, NOW)).toBe('42 s ago');
    expect(relativeTime(NOW - 60 * 29, NOW)).toBe('29 min ago');
    expect(relativeTime(NOW - 3600 * 5, NOW)).toBe('5 h ago');
    expect(relativeTime(NOW - 86400, NOW)).toBe('1 day ago');
    expect(relativeTime(NOW - 86400 * 3, NOW)).toBe('3 days ago');
  });
});

describe('time left', () => {
  it('counts the time left down', () => {
    expect(timeLeft(1000, 1000)).toBe('expired');
    expect(timeLeft(1000, 2000)).toBe('expired');
    expect(timeLeft(1045, 1000)).toBe('45 s left');
    expect(timeLeft(1000 + 14 * 60 + 20, 1000)).toBe('14 min left');
    expect(timeLeft(1000 + 3600, 1000)).toBe('1 h left');
    expect(timeLeft(1000 + 8 * 3600 - 60, 1000)).toBe('7 h 59 min left');
    expect(timeLeft(1000 + 86400, 1000)).toBe('1 day left');
    expect(timeLeft(1000 + 7 * 86400 - 3600, 1000)).toBe('6 days 23 h left');
  });

  it('rounds to the nearest minute, so a new grant shows the time it was given', () => {
    // A one-hour grant, drawn half a second and then a few seconds after it was made.
    expect(timeLeft(1000 + 3600, 1000.5)).toBe('1 h left');
    expect(timeLeft(1000 + 3600, 1004)).toBe('1 h left');
    expect(timeLeft(1000 + 15 * 60, 1001)).toBe('15 min left');
    expect(timeLeft(1000 + 8 * 3600, 1002)).toBe('8 h left');
    expect(timeLeft(1000 + 7 * 86400, 1003)).toBe('7 days left');
    // Half a minute or more up, half a minute down; the last minute in seconds.
    expect(timeLeft(1000 + 14 * 60 + 30, 1000)).toBe('15 min left');
    expect(timeLeft(1000 + 14 * 60 + 29, 1000)).toBe('14 min left');
    expect(timeLeft(1000 + 59 * 60 + 45, 1000)).toBe('1 h left');
    expect(timeLeft(1000 + 90, 1000)).toBe('2 min left');
    expect(timeLeft(1000 + 61, 1000)).toBe('1 min left');
    expect(timeLeft(1000 + 59, 1000)).toBe('59 s left');
    // Past a day, to the nearest hour.
    expect(timeLeft(1000 + 86400 + 29 * 60, 1000)).toBe('1 day left');
    expect(timeLeft(1000 + 86400 + 31 * 60, 1000)).toBe('1 day 1 h left');
    expect(timeLeft(1000 + 24 * 3600 - 20, 1000)).toBe('1 day left');
  });
});

describe('clock times and durations', () => {
  it('formats durations in ms and times as a clock', () => {
    expect(formatDuration(0.42)).toBe('0.4 ms');
    expect(formatDuration(12.4)).toBe('12 ms');
    expect(formatDuration(1250.2)).toBe('1,250 ms');
    expect(formatDuration(-1)).toBe('');
    const local = new Date(2024, 0, 2, 9, 5, 7).getTime() / 1000;
    expect(formatTime(local)).toBe('09:05:07');
  });
});
